// SPDX-License-Identifier: MIT
/* triad.c - STREAM's triad as an emu-gpu kernel. */
#include "triad.h"

EMU_KERNEL(stream_triad, struct triad_args)
{
	EMU_FOR_THREADS {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i >= args->n)
			EMU_RETURN;
		st_global(&args->z[i],
			  STREAM_SCALAR * ld_global(&args->x[i]) + ld_global(&args->y[i]));
	}
}
