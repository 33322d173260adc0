// SPDX-License-Identifier: MIT
/*
 * kernels.c - fft-1d's kernels, fft1d_forward and fft1d_inverse, for
 * emu-gpu and (nvcc) a real GPU: one Stockham pass of radix R from x to y
 * per launch, in the shape of a cuFFT pass kernel. A CTA of 256 threads
 * takes C = min(16, N/R) consecutive columns j0 .. j0 + C - 1:
 *
 *  - load (one thread loop): the R x C tile, row m being the C consecutive
 *    inputs x[j0 + m N/R ...] (C * 8 contiguous bytes, rows N/R points
 *    apart); thread t takes the elements e = t + 256 v, row e / C, column
 *    e % C, so a warp reads two rows of 16 columns, coalesced as a GPU's.
 *    Each value is multiplied by its twiddle w^(k m) and goes to shared
 *    memory, s[m C + c];
 *  - stage 1 (thread u < R1 C: column u % C, m1 = u / C) and stage 2 (thread
 *    u < R2 C: column u % C, s2 = u / C): the four-step R = R1 x R2 DFT of
 *    each column in shared memory (fft1d.h), a barrier after each;
 *  - store (one thread loop): the CTA's outputs in the order of their
 *    addresses, runs of Q = min(C, L) consecutive columns: with L >= C, row s
 *    of outputs is C consecutive points y[(j0 - k0) R + k0 + s L ...] (rows L
 *    points apart); with L < C (the first pass, L = 1) the CTA's R C outputs
 *    are one contiguous range, y[j0 R .. (j0 + C) R).
 *
 * The loops over a thread's elements sit inside the thread loop, so that the
 * faults of a load or a store gather before its one barrier.
 */
#include "fft1d.h"

/* Inlined into each kernel, so that `inverse` is a constant there. */
EMU_DEVICE static inline __attribute__((always_inline)) void
fft1d_pass_cta(EMU_DEVICE_PARAMS, const struct fft1d_args *args, bool inverse)
{
	EMU_SHARED struct fft1d_c s[FFT1D_RADIX * FFT1D_COLUMNS]; /* the tile: 32 KB */
	const struct fft1d_pass *ps = &args->pass;
	const struct fft1d_c *x = args->x, *tw = args->tw;
	struct fft1d_c *y = args->y;
	const float scale = args->scale;
	const unsigned c_n = ps->c, log2_c = ps->log2_c, r = ps->r;
	const unsigned q_n = ps->q, log2_q = ps->log2_q;
	const unsigned log2_r = ps->log2_r1 + ps->log2_r2;
	const unsigned elems = r * c_n; /* a power of two */
	const unsigned active = elems < FFT1D_THREADS ? elems : FFT1D_THREADS;
	const unsigned rounds = elems / active;
	const uint64_t j0 = (uint64_t)blockIdx.x * c_n;

	EMU_FOR_THREADS_IDX_IN(0, active, 0, 1) {
		for (unsigned v = 0; v < rounds; v++) {
			const unsigned e = threadIdx.x + FFT1D_THREADS * v;
			const unsigned m = e >> log2_c, c = e & (c_n - 1);

			s[e] = fft1d_load_twiddle(ld_global(&x[j0 + c + m * ps->cols]), j0 + c, m,
						  ps, tw, inverse);
		}
	}
	__syncthreads();
	EMU_FOR_THREADS_IDX_IN(0, ps->r1 * c_n, 0, 1) {
		const unsigned u = threadIdx.x;

		fft1d_stage1(&s[u & (c_n - 1)], c_n, u >> log2_c, ps, tw, inverse);
	}
	__syncthreads();
	EMU_FOR_THREADS_IDX_IN(0, ps->r2 * c_n, 0, 1) {
		const unsigned u = threadIdx.x;

		fft1d_stage2(&s[u & (c_n - 1)], c_n, u >> log2_c, ps, tw, inverse, scale);
	}
	__syncthreads();
	EMU_FOR_THREADS_IDX_IN(0, active, 0, 1) {
		for (unsigned v = 0; v < rounds; v++) {
			const unsigned e = threadIdx.x + FFT1D_THREADS * v;
			const unsigned rest = e >> log2_q, out = rest & (r - 1);
			const unsigned c = ((rest >> log2_r) << log2_q) + (e & (q_n - 1));

			st_global(&y[fft1d_out_index(j0 + c, out, ps)],
				  s[fft1d_row(out, ps) * c_n + c]);
		}
	}
}

EMU_KERNEL_BLOCK(fft1d_forward, struct fft1d_args, FFT1D_THREADS, 1, 1)
{
	fft1d_pass_cta(EMU_DEVICE_ARGS, args, false);
}

EMU_KERNEL_BLOCK(fft1d_inverse, struct fft1d_args, FFT1D_THREADS, 1, 1)
{
	fft1d_pass_cta(EMU_DEVICE_ARGS, args, true);
}
