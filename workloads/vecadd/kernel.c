// SPDX-License-Identifier: MIT
/* kernel.c - vecadd's kernel, for emu-gpu and (nvcc) a real GPU. */
#include "vecadd.h"

EMU_KERNEL(vecadd_kernel, struct vecadd_args)
{
	/* Threads past n do nothing (CUDA's `if (i >= n) return;`), and the
	 * loop over the others vectorizes. */
	EMU_FOR_THREADS_BELOW(args->n) {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		st_global(&args->c[i], ld_global(&args->a[i]) + ld_global(&args->b[i]));
	}
}
