// SPDX-License-Identifier: MIT
/*
 * kernels.c - mvt's two kernels and the host code that launches them.
 *
 * mvt_kernel1: thread i walks row i of A (x1[i] += A[i][j] * y1[j]); at step
 * j a CTA reads one float from each of its 256 rows. mvt_kernel2: thread i
 * walks column i (x2[i] += A[j][i] * y2[j]); at step j a CTA reads 1 KB of
 * row j, and every CTA sweeps all of A: the transposed pass.
 *
 * Both are one pass, x[i] += A[i * i_stride + j * j_stride] * y[j], with the
 * strides swapped. The thread loop sits inside the loop over j, so that a
 * CTA's threads take their steps together, as a GPU's warps do in lockstep,
 * and memory is touched in the hardware's order (running each thread's whole
 * loop before the next thread's would sweep A once per thread in kernel 2).
 * The threads share no data, so every result is unchanged.
 */
#include "mvt.h"

#include "emugpu.h"

/* Sizes are longs, one to an 8-byte word, so that no word of the argument
 * struct can look like a managed pointer to the launch's translation. */
struct mvt_args {
	const float *A;
	float *x;
	const float *y;
	long n;
	long i_stride; /* A's stride along x: n (kernel 1) or 1 (kernel 2) */
	long j_stride; /* A's stride along y: 1 or n */
};

static inline void mvt_pass(EMU_DEVICE_PARAMS, const struct mvt_args *args)
{
	const long n = args->n;
	const float *A = args->A, *y = args->y;
	float *x = args->x;

	for (long j = 0; j < n; j++) {
		EMU_FOR_THREADS {
			const long i = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (i >= n)
				EMU_RETURN;
			st_global(&x[i],
				  mvt_step(ld_global(&x[i]),
					   ld_global(&A[i * args->i_stride + j * args->j_stride]),
					   ld_global(&y[j])));
		}
	}
}

EMU_KERNEL(mvt_kernel1, struct mvt_args)
{
	mvt_pass(EMU_DEVICE_ARGS, args);
}

EMU_KERNEL(mvt_kernel2, struct mvt_args)
{
	mvt_pass(EMU_DEVICE_ARGS, args);
}

cudaError_t mvt_gpu(const struct mvt_problem *p)
{
	const dim3 block = emu_dim3(MVT_BLOCK, 1, 1);
	const dim3 grid = emu_dim3(((unsigned)p->n + MVT_BLOCK - 1) / MVT_BLOCK, 1, 1);
	cudaError_t e;

	e = EMU_LAUNCH(mvt_kernel1, grid, block, 0, .A = p->A, .x = p->x1, .y = p->y1, .n = p->n,
		       .i_stride = p->n, .j_stride = 1);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return e;
	e = EMU_LAUNCH(mvt_kernel2, grid, block, 0, .A = p->A, .x = p->x2, .y = p->y2, .n = p->n,
		       .i_stride = 1, .j_stride = p->n);
	if (e != cudaSuccess)
		return e;
	return cudaDeviceSynchronize();
}
