// SPDX-License-Identifier: MIT
/*
 * kernels.c - bicg's two kernels and the host code that launches them.
 *
 * bicg_kernel1: thread j clears s[j], then walks column j of A
 * (s[j] += A[i][j] * r[i]); at step i a CTA reads 1 KB of row i, and every
 * CTA sweeps all of A: the transposed pass. bicg_kernel2: thread i clears
 * q[i], then walks row i (q[i] += A[i][j] * p[j]); at step j a CTA reads one
 * float from each of its 256 rows.
 *
 * In both kernels the thread loop sits inside the loop over the matrix, so
 * that a CTA's threads take their steps together, as a GPU's warps do in
 * lockstep, and memory is touched in the hardware's order (running each
 * thread's whole loop before the next thread's would sweep A once per thread
 * in kernel 1). The threads share no data, so every result is unchanged.
 */
#include "bicg.h"

#include "emugpu.h"

/* Sizes are longs, one to an 8-byte word, so that no word of the argument
 * struct can look like a managed pointer to the launch's translation. */
struct bicg_args {
	const float *A;
	const float *v; /* r (kernel 1) or p (kernel 2) */
	float *out;	/* s (kernel 1) or q (kernel 2) */
	long nx, ny;
};

EMU_KERNEL(bicg_kernel1, struct bicg_args)
{
	const long nx = args->nx, ny = args->ny;
	const float *A = args->A, *r = args->v;
	float *s = args->out;

	EMU_FOR_THREADS {
		const long j = (long)(blockIdx.x * blockDim.x + threadIdx.x);

		if (j >= ny)
			EMU_RETURN;
		st_global(&s[j], 0.0f);
	}
	for (long i = 0; i < nx; i++) {
		EMU_FOR_THREADS {
			const long j = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (j >= ny)
				EMU_RETURN;
			st_global(&s[j], bicg_step(ld_global(&s[j]), ld_global(&A[i * ny + j]),
						   ld_global(&r[i])));
		}
	}
}

EMU_KERNEL(bicg_kernel2, struct bicg_args)
{
	const long nx = args->nx, ny = args->ny;
	const float *A = args->A, *p = args->v;
	float *q = args->out;

	EMU_FOR_THREADS {
		const long i = (long)(blockIdx.x * blockDim.x + threadIdx.x);

		if (i >= nx)
			EMU_RETURN;
		st_global(&q[i], 0.0f);
	}
	for (long j = 0; j < ny; j++) {
		EMU_FOR_THREADS {
			const long i = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (i >= nx)
				EMU_RETURN;
			st_global(&q[i], bicg_step(ld_global(&q[i]), ld_global(&A[i * ny + j]),
						   ld_global(&p[j])));
		}
	}
}

cudaError_t bicg_gpu(const struct bicg_problem *pb)
{
	const dim3 block = emu_dim3(BICG_BLOCK, 1, 1);
	const dim3 grid1 = emu_dim3(((unsigned)pb->ny + BICG_BLOCK - 1) / BICG_BLOCK, 1, 1);
	const dim3 grid2 = emu_dim3(((unsigned)pb->nx + BICG_BLOCK - 1) / BICG_BLOCK, 1, 1);
	cudaError_t e;

	e = EMU_LAUNCH(bicg_kernel1, grid1, block, 0, pb->A, pb->r, pb->s, pb->nx, pb->ny);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return e;
	e = EMU_LAUNCH(bicg_kernel2, grid2, block, 0, pb->A, pb->p, pb->q, pb->nx, pb->ny);
	if (e != cudaSuccess)
		return e;
	return cudaDeviceSynchronize();
}
