// SPDX-License-Identifier: MIT
/*
 * kernels.c - mvt's two kernels and the host code that launches them.
 *
 * mvt_kernel1: thread i walks row i of A (x1[i] += A[i][j] * y1[j]); at step
 * j a CTA reads one float from each of its 256 rows. mvt_kernel2: thread i
 * walks column i (x2[i] += A[j][i] * y2[j]); at step j a CTA reads 1 KB of
 * row j, and every CTA sweeps all of A: the transposed pass.
 *
 * In both kernels the thread loop sits inside the loop over the matrix, so
 * that a CTA's threads take their steps together, as a GPU's warps do in
 * lockstep, and memory is touched in the hardware's order (running each
 * thread's whole loop before the next thread's would sweep A once per thread
 * in kernel 2). The threads share no data, so every result is unchanged.
 */
#include "mvt.h"

#include "emugpu.h"

/* The size is a long, one to an 8-byte word, so that no word of the argument
 * struct can look like a managed pointer to the launch's translation. */
struct mvt_args {
	const float *A;
	float *x;
	const float *y;
	long n;
};

EMU_KERNEL(mvt_kernel1, struct mvt_args)
{
	const long n = args->n;
	const float *A = args->A, *y1 = args->y;
	float *x1 = args->x;

	for (long j = 0; j < n; j++) {
		EMU_FOR_THREADS {
			const long i = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (i >= n)
				EMU_RETURN;
			st_global(&x1[i], mvt_step(ld_global(&x1[i]), ld_global(&A[i * n + j]),
						   ld_global(&y1[j])));
		}
	}
}

EMU_KERNEL(mvt_kernel2, struct mvt_args)
{
	const long n = args->n;
	const float *A = args->A, *y2 = args->y;
	float *x2 = args->x;

	for (long j = 0; j < n; j++) {
		EMU_FOR_THREADS {
			const long i = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (i >= n)
				EMU_RETURN;
			st_global(&x2[i], mvt_step(ld_global(&x2[i]), ld_global(&A[j * n + i]),
						   ld_global(&y2[j])));
		}
	}
}

cudaError_t mvt_gpu(const struct mvt_problem *p)
{
	const dim3 block = emu_dim3(MVT_BLOCK, 1, 1);
	const dim3 grid = emu_dim3(((unsigned)p->n + MVT_BLOCK - 1) / MVT_BLOCK, 1, 1);
	cudaError_t e;

	e = EMU_LAUNCH(mvt_kernel1, grid, block, 0, p->A, p->x1, p->y1, p->n);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return e;
	e = EMU_LAUNCH(mvt_kernel2, grid, block, 0, p->A, p->x2, p->y2, p->n);
	if (e != cudaSuccess)
		return e;
	return cudaDeviceSynchronize();
}
