// SPDX-License-Identifier: MIT
/*
 * kernel.c - the NN kernel and its launch. CTA (bx, by) owns rows
 * 128 bx .. 128 bx + 127 and columns 128 by .. 128 by + 127 of C. For every
 * 8 values of k it loads, in one thread loop, A's 128 x 8 tile (warp w reads
 * column k0 + w: 512 contiguous bytes) and B's 8 x 128 tile (thread t reads
 * 4 values of column n0 + t / 2: a warp spans 16 columns, ldb floats apart)
 * into shared memory; then thread t adds the tiles' products to its 8 x 8
 * block of C, rows 8 (t % 16).., columns 8 (t / 16)... So at every step a
 * CTA touches 8 columns of A and keeps touching the same 128 columns of B,
 * each its own page once ldb is 1024 floats or more: the B panel is what
 * makes this kernel's first faults spread, unlike Parboil's NT kernel
 * (workloads/sgemm), where every CTA reads one row of B per step.
 */
#include "sgemm_nn.h"

#include "emugpu.h"

struct nn_args {
	const float *a;
	const float *b;
	float *c;
	int64_t lda, ldb, ldc, k;
};

/* A thread's block of C, kept across the barriers (registers). */
struct nn_regs {
	float c[NN_MICRO][NN_MICRO];
};

EMU_KERNEL_BLOCK(sgemm_nn, struct nn_args, NN_THREADS, 1, 1)
{
	float a_s[NN_KSTEP][NN_TILE]; /* shared memory: a_s[kk][row] */
	float b_s[NN_KSTEP][NN_TILE]; /* b_s[kk][column] */
	EMU_PER_THREAD(struct nn_regs, reg);
	const float *a = args->a, *b = args->b;
	const size_t lda = (size_t)args->lda, ldb = (size_t)args->ldb, ldc = (size_t)args->ldc;
	const size_t k = (size_t)args->k;
	const size_t m0 = (size_t)blockIdx.x * NN_TILE, n0 = (size_t)blockIdx.y * NN_TILE;

	EMU_FOR_THREADS {
		for (int i = 0; i < NN_MICRO; i++)
			for (int j = 0; j < NN_MICRO; j++)
				reg[emu_tid].c[i][j] = 0.0f;
	}
	for (size_t k0 = 0; k0 < k; k0 += NN_KSTEP) {
		/* Both tiles in one loop: a warp's loads of A and B issue
		 * together, as the kernel's independent loads do. */
		EMU_FOR_THREADS {
			const size_t t = threadIdx.x;
			const size_t ac = t / 32, ar = 4 * (t % 32);
			const size_t bc = t / 2, br = 4 * (t % 2);

			for (size_t q = 0; q < 4; q++)
				a_s[ac][ar + q] = ld_global(&a[(k0 + ac) * lda + m0 + ar + q]);
			for (size_t q = 0; q < 4; q++)
				b_s[br + q][bc] = ld_global(&b[(n0 + bc) * ldb + k0 + br + q]);
		}
		__syncthreads();
		EMU_FOR_THREADS {
			const size_t r0 = NN_MICRO * (threadIdx.x % 16),
				     c0 = NN_MICRO * (threadIdx.x / 16);
			struct nn_regs *rg = &reg[emu_tid];

			for (size_t kk = 0; kk < NN_KSTEP; kk++)
				for (size_t i = 0; i < NN_MICRO; i++)
					for (size_t j = 0; j < NN_MICRO; j++)
						rg->c[i][j] = nn_term(rg->c[i][j], a_s[kk][r0 + i],
								      b_s[kk][c0 + j]);
		}
		__syncthreads();
	}
	/* beta = 0: C is written, never read (BLAS's rule). */
	EMU_FOR_THREADS {
		const size_t r0 = NN_MICRO * (threadIdx.x % 16), c0 = NN_MICRO * (threadIdx.x / 16);

		for (size_t j = 0; j < NN_MICRO; j++)
			for (size_t i = 0; i < NN_MICRO; i++)
				st_global(&args->c[(n0 + c0 + j) * ldc + m0 + r0 + i],
					  reg[emu_tid].c[i][j]);
	}
}

void nn_run_gpu(const struct wl *w, const float *a, const float *b, float *c,
		const struct nn_dims *d)
{
	/* x along m first: consecutive CTAs share B's panel, as cuBLAS's
	 * grids run. */
	const dim3 grid = emu_dim3((unsigned)(d->m / NN_TILE), (unsigned)(d->n / NN_TILE), 1);
	const dim3 block = emu_dim3(NN_THREADS, 1, 1);

	WL_CHECK(w, EMU_LAUNCH(sgemm_nn, grid, block, 0, a, b, c, d->m, d->k, d->m, d->k));
	WL_CHECK(w, cudaDeviceSynchronize());
}
