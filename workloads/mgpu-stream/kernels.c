// SPDX-License-Identifier: MIT
/* kernels.c - STREAM's copy, scale and add (the triad is stream's triad.c). */
#include "kernels.h"

EMU_KERNEL(stream_copy, struct triad_args)
{
	EMU_FOR_THREADS_BELOW(args->n) {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		st_global(&args->z[i], ld_global(&args->x[i]));
	}
}

EMU_KERNEL(stream_scale, struct triad_args)
{
	EMU_FOR_THREADS_BELOW(args->n) {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		st_global(&args->z[i], STREAM_SCALAR * ld_global(&args->x[i]));
	}
}

EMU_KERNEL(stream_add, struct triad_args)
{
	EMU_FOR_THREADS_BELOW(args->n) {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		st_global(&args->z[i], ld_global(&args->x[i]) + ld_global(&args->y[i]));
	}
}
