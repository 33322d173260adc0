// SPDX-License-Identifier: MIT
/* triad.c - STREAM's triad, for emu-gpu and (nvcc) a real GPU. */
#include "triad.h"

EMU_KERNEL(stream_triad, struct triad_args)
{
	/* Threads past n do nothing (CUDA's `if (i >= n) return;`), and the
	 * loop over the others vectorizes. */
	EMU_FOR_THREADS_BELOW(args->n) {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		st_global(&args->z[i],
			  STREAM_SCALAR * ld_global(&args->x[i]) + ld_global(&args->y[i]));
	}
}
