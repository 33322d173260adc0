// SPDX-License-Identifier: MIT
/*
 * kernels.c - fft's two kernels, fft512_forward and fft512_inverse, and the
 * host loop that launches them: one CTA of 64 threads per 512-point
 * transform (SHOC's FFT512_device / IFFT512_device shape), in place.
 *
 * A thread loads 8 values 64 apart (coalesced: at each step the CTA reads
 * 512 contiguous bytes), runs stage 1 in registers, and the values move
 * between threads through shared memory (4 KB) before stages 2 and 3; the
 * thread then stores its 8 results 64 apart. Loops over a thread's 8 values
 * that touch global memory sit outside the loop over the CTA's threads, so
 * that the threads take each step together as warps do.
 */
#include "fft.h"

#include "emugpu.h"

struct fft_args {
	struct fft_c *work;
	const struct fft_twiddles *tw; /* plain host memory: the constants */
};

/* A thread's 8 values, kept across barriers. */
struct fft_regs {
	struct fft_c v[8];
};

/* Inlined into each kernel, so that `inverse` is a constant there. */
static inline __attribute__((always_inline)) void fft512(EMU_DEVICE_PARAMS,
							 const struct fft_args *args, bool inverse)
{
	struct fft_c *work = args->work + (int64_t)blockIdx.x * FFT_N;
	const struct fft_twiddles *tw = args->tw;
	struct fft_c s[FFT_N]; /* shared memory */
	EMU_PER_THREAD(struct fft_regs, reg);

	for (unsigned r = 0; r < 8; r++)
		EMU_FOR_THREADS {
			reg[emu_tid].v[r] = ld_global(&work[threadIdx.x + FFT_THREADS * r]);
		}
	/* Stage 1: thread t; its output k1 goes to s[64 k1 + t]. */
	EMU_FOR_THREADS {
		const unsigned t = threadIdx.x;
		struct fft_c out[8];

		fft_stage1(reg[t].v, out, t, tw, inverse);
		for (unsigned k1 = 0; k1 < 8; k1++)
			s[FFT_THREADS * k1 + t] = out[k1];
	}
	__syncthreads();
	/* Stage 2: thread u = 8 k1 + a reads outputs k1 of threads a + 8 b. */
	EMU_FOR_THREADS {
		const unsigned u = threadIdx.x, k1 = u >> 3, a = u & 7;
		struct fft_c in[8];

		for (unsigned b = 0; b < 8; b++)
			in[b] = s[FFT_THREADS * k1 + a + 8 * b];
		fft_stage2(in, reg[u].v, a, tw, inverse);
	}
	__syncthreads();
	/* Its output c goes to s[64 k1 + 8 c + a]. */
	EMU_FOR_THREADS {
		const unsigned u = threadIdx.x, k1 = u >> 3, a = u & 7;

		for (unsigned c = 0; c < 8; c++)
			s[FFT_THREADS * k1 + 8 * c + a] = reg[u].v[c];
	}
	__syncthreads();
	/* Stage 3: thread k1 + 8 c reads outputs c of (k1, a) for all a, and
	 * holds X[k1 + 8 c + 64 d] for d = 0..7. */
	EMU_FOR_THREADS {
		const unsigned u = threadIdx.x, k1 = u & 7, c = u >> 3;
		struct fft_c in[8];

		for (unsigned a = 0; a < 8; a++)
			in[a] = s[FFT_THREADS * k1 + 8 * c + a];
		fft_stage3(in, reg[u].v, inverse);
	}
	for (unsigned d = 0; d < 8; d++)
		EMU_FOR_THREADS {
			st_global(&work[threadIdx.x + FFT_THREADS * d], reg[emu_tid].v[d]);
		}
}

EMU_KERNEL(fft512_forward, struct fft_args)
{
	fft512(EMU_DEVICE_ARGS, args, false);
}

EMU_KERNEL(fft512_inverse, struct fft_args)
{
	fft512(EMU_DEVICE_ARGS, args, true);
}

void fft_run_gpu(const struct wl *w, const struct fft_problem *p, const struct fft_twiddles *tw)
{
	const dim3 grid = emu_dim3((unsigned)p->ffts, 1, 1);
	const dim3 block = emu_dim3(FFT_THREADS, 1, 1);

	for (int it = 0; it < p->iterations; it++) {
		WL_CHECK(w, EMU_LAUNCH(fft512_forward, grid, block, 0, p->work, tw));
		WL_CHECK(w, EMU_LAUNCH(fft512_inverse, grid, block, 0, p->work, tw));
	}
	WL_CHECK(w, cudaDeviceSynchronize());
}
