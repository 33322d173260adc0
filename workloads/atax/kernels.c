// SPDX-License-Identifier: MIT
/*
 * kernels.c - atax's two kernels and the host code that launches them.
 *
 * atax_kernel1: thread i walks row i of A (tmp[i] += A[i][j] * x[j]); at
 * step j a CTA reads one float from each of its 256 rows, so it has 256 rows'
 * pages in use at once. atax_kernel2: thread j walks column j
 * (y[j] += A[i][j] * tmp[i]); at step i a CTA reads 1 KB of row i, and every
 * CTA sweeps all of A: the transposed pass keeps every page of A in use.
 *
 * In both kernels the thread loop sits inside the loop over the matrix, so
 * that a CTA's threads take their steps together, as a GPU's warps do in
 * lockstep, and memory is touched in the hardware's order. Running each
 * thread's whole loop before the next thread's would instead sweep A once per
 * thread (256 times per CTA) in kernel 2. The threads share no data, so the
 * interchange leaves every thread's operations, and every result, unchanged.
 */
#include "atax.h"

#include "emugpu.h"

/*
 * The sizes are longs, one to an 8-byte word: the executor translates every
 * word that holds a managed host-view pointer, and two ints packed in one
 * word could, for some sizes, form such a value.
 */
struct atax1_args {
	float *A;
	float *x;
	float *tmp;
	long nx, ny;
};

struct atax2_args {
	float *A;
	float *y;
	float *tmp;
	long nx, ny;
};

EMU_KERNEL(atax_kernel1, struct atax1_args)
{
	const long nx = args->nx, ny = args->ny;
	const float *A = args->A, *x = args->x;
	float *tmp = args->tmp;

	for (long j = 0; j < ny; j++) {
		EMU_FOR_THREADS {
			const long i = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (i >= nx)
				EMU_RETURN;
			st_global(&tmp[i], ld_global(&tmp[i]) +
					       ld_global(&A[i * ny + j]) * ld_global(&x[j]));
		}
	}
}

EMU_KERNEL(atax_kernel2, struct atax2_args)
{
	const long nx = args->nx, ny = args->ny;
	const float *A = args->A, *tmp = args->tmp;
	float *y = args->y;

	for (long i = 0; i < nx; i++) {
		EMU_FOR_THREADS {
			const long j = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (j >= ny)
				EMU_RETURN;
			st_global(&y[j], ld_global(&y[j]) +
					     ld_global(&A[i * ny + j]) * ld_global(&tmp[i]));
		}
	}
}

cudaError_t atax_gpu(const struct atax_problem *p)
{
	const dim3 block = emu_dim3(ATAX_BLOCK, 1, 1);
	const dim3 grid1 = emu_dim3(((unsigned)p->nx + ATAX_BLOCK - 1) / ATAX_BLOCK, 1, 1);
	const dim3 grid2 = emu_dim3(((unsigned)p->ny + ATAX_BLOCK - 1) / ATAX_BLOCK, 1, 1);
	cudaError_t e;

	e = EMU_LAUNCH(atax_kernel1, grid1, block, 0, p->A, p->x, p->tmp, p->nx, p->ny);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return e;
	e = EMU_LAUNCH(atax_kernel2, grid2, block, 0, p->A, p->y, p->tmp, p->nx, p->ny);
	if (e != cudaSuccess)
		return e;
	return cudaDeviceSynchronize();
}
