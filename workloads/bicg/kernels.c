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
 * Both are one pass, out[t] = sum over m of A[t * t_stride + m * m_stride]
 * * v[m], with the strides swapped. The thread loop sits inside the loop over
 * m, so that a CTA's threads take their steps together, as a GPU's warps do
 * in lockstep, and memory is touched in the hardware's order (running each
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
	long threads;	/* elements of out: ny (kernel 1) or nx (kernel 2) */
	long steps;	/* elements of v: nx or ny */
	long t_stride;	/* A's stride along out: 1 or ny */
	long m_stride;	/* A's stride along v: ny or 1 */
};

static inline void bicg_pass(EMU_DEVICE_PARAMS, const struct bicg_args *args)
{
	const float *A = args->A, *v = args->v;
	float *out = args->out;

	EMU_FOR_THREADS {
		const long t = (long)(blockIdx.x * blockDim.x + threadIdx.x);

		if (t >= args->threads)
			EMU_RETURN;
		st_global(&out[t], 0.0f);
	}
	for (long m = 0; m < args->steps; m++) {
		EMU_FOR_THREADS {
			const long t = (long)(blockIdx.x * blockDim.x + threadIdx.x);

			if (t >= args->threads)
				EMU_RETURN;
			st_global(&out[t],
				  bicg_step(ld_global(&out[t]),
					    ld_global(&A[t * args->t_stride + m * args->m_stride]),
					    ld_global(&v[m])));
		}
	}
}

EMU_KERNEL(bicg_kernel1, struct bicg_args)
{
	bicg_pass(EMU_DEVICE_ARGS, args);
}

EMU_KERNEL(bicg_kernel2, struct bicg_args)
{
	bicg_pass(EMU_DEVICE_ARGS, args);
}

cudaError_t bicg_gpu(const struct bicg_problem *pb)
{
	const dim3 block = emu_dim3(BICG_BLOCK, 1, 1);
	const dim3 grid1 = emu_dim3(((unsigned)pb->ny + BICG_BLOCK - 1) / BICG_BLOCK, 1, 1);
	const dim3 grid2 = emu_dim3(((unsigned)pb->nx + BICG_BLOCK - 1) / BICG_BLOCK, 1, 1);
	cudaError_t e;

	e = EMU_LAUNCH(bicg_kernel1, grid1, block, 0, .A = pb->A, .v = pb->r, .out = pb->s,
		       .threads = pb->ny, .steps = pb->nx, .t_stride = 1, .m_stride = pb->ny);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return e;
	e = EMU_LAUNCH(bicg_kernel2, grid2, block, 0, .A = pb->A, .v = pb->p, .out = pb->q,
		       .threads = pb->nx, .steps = pb->ny, .t_stride = pb->ny, .m_stride = 1);
	if (e != cudaSuccess)
		return e;
	return cudaDeviceSynchronize();
}
