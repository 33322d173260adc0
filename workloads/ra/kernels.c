// SPDX-License-Identifier: MIT
/* kernels.c - ra's two kernels, for emu-gpu and (nvcc) a real GPU. */
#include "ra.h"

EMU_KERNEL(ra_update, struct ra_args)
{
	EMU_FOR_THREADS {
		uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
		uint64_t first, last, ran;

		if (s >= args->streams)
			EMU_RETURN;
		/* Stream s does updates [first, last) of the run. */
		first = args->updates * s / args->streams;
		last = args->updates * (s + 1) / args->streams;
		ran = ra_start(first);
		for (uint64_t m = first; m < last; m++) {
			ran = ra_step(ran);
			atomicXor(&args->table[ra_index(ran, args->size, args->mask)], ran);
		}
	}
}

EMU_KERNEL(ra_checksum, struct ra_check_args)
{
	uint64_t slab = (args->size + gridDim.x - 1) / gridDim.x;
	uint64_t lo = blockIdx.x * slab, hi = lo + slab < args->size ? lo + slab : args->size;

	EMU_FOR_THREADS {
		uint64_t sum = 0;

		for (uint64_t i = lo + threadIdx.x; i < hi; i += blockDim.x)
			sum ^= ld_global(&args->table[i]);
		args->sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
	}
}
