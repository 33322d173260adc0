// SPDX-License-Identifier: MIT
/*
 * kernels.c - gemm's kernel, gemm_kernel, and the host code that launches it.
 *
 * One thread per element of C in 32 x 8 CTAs (x along a row of C, j; y down
 * the rows, i). Thread (i, j) scales c[i][j] by beta, then adds
 * alpha * a[i][k] * b[k][j] for k = 0 ... nk - 1, reading and writing c in
 * global memory at every step as the original does (its pointers may alias,
 * so the compiler keeps c in memory). At step k a CTA reads one float of each
 * of its 8 rows of A and 128 bytes of row k of B: every CTA sweeps all of B.
 *
 * The thread loop sits inside the loop over k, so that a CTA's threads take
 * their steps together as a GPU's warps do and memory is touched in the
 * hardware's order; the threads share nothing, so every result is unchanged.
 *
 * The original sizes the grid's x from NI and y from NJ, the same thing for
 * its square matrices; here x covers the columns (NJ) and y the rows (NI),
 * which is what the indexing needs when they differ.
 */
#include "gemm.h"

#include "emugpu.h"

/* Sizes are longs, one to an 8-byte word, so that no word of the argument
 * struct can look like a managed pointer to the launch's translation. */
struct gemm_args {
	const float *A, *B;
	float *C;
	long ni, nj, nk;
};

EMU_KERNEL(gemm_kernel, struct gemm_args)
{
	const long ni = args->ni, nj = args->nj, nk = args->nk;
	const float *A = args->A, *B = args->B;
	float *C = args->C;

	EMU_FOR_THREADS {
		const long j = (long)(blockIdx.x * blockDim.x + threadIdx.x);
		const long i = (long)(blockIdx.y * blockDim.y + threadIdx.y);

		if (i >= ni || j >= nj)
			EMU_RETURN;
		st_global(&C[i * nj + j], gemm_scale(ld_global(&C[i * nj + j])));
	}
	for (long k = 0; k < nk; k++) {
		EMU_FOR_THREADS {
			const long j = (long)(blockIdx.x * blockDim.x + threadIdx.x);
			const long i = (long)(blockIdx.y * blockDim.y + threadIdx.y);

			if (i >= ni || j >= nj)
				EMU_RETURN;
			st_global(&C[i * nj + j],
				  gemm_step(ld_global(&C[i * nj + j]), ld_global(&A[i * nk + k]),
					    ld_global(&B[k * nj + j])));
		}
	}
}

cudaError_t gemm_gpu(const struct gemm_problem *p)
{
	const dim3 block = emu_dim3(GEMM_BLOCK_X, GEMM_BLOCK_Y, 1);
	const dim3 grid = emu_dim3(((unsigned)p->nj + GEMM_BLOCK_X - 1) / GEMM_BLOCK_X,
				   ((unsigned)p->ni + GEMM_BLOCK_Y - 1) / GEMM_BLOCK_Y, 1);
	cudaError_t e;

	e = EMU_LAUNCH(gemm_kernel, grid, block, 0, p->A, p->B, p->C, p->ni, p->nj, p->nk);
	if (e != cudaSuccess)
		return e;
	return cudaDeviceSynchronize();
}
