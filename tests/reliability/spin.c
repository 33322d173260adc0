// SPDX-License-Identifier: MIT
/*
 * spin [MB] [early] - a program that never ends by itself, for the
 * interrupt tests: kernels update a managed buffer (16 MB by default) over
 * and over, and after the first one "ready" is printed on stdout (with
 * "early", before it: a run whose first batch waits for ever is ready too).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emugpu.h"

struct bump_args {
	uint32_t *a;
	uint64_t n;
};

EMU_KERNEL(bump, struct bump_args)
{
	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->n)
			args->a[i]++;
	}
}

int main(int argc, char **argv)
{
	uint64_t n = (argc > 1 ? strtoull(argv[1], NULL, 0) : 16) << 20 >> 2;
	bool early = argc > 2 && strcmp(argv[2], "early") == 0;
	uint32_t *a;

	if (cudaMallocManaged((void **)&a, n * 4, cudaMemAttachGlobal) != cudaSuccess)
		return 1;
	memset(a, 0, n * 4);
	if (early) {
		printf("ready\n");
		fflush(stdout);
	}
	for (uint64_t k = 0;; k++) {
		if (EMU_LAUNCH(bump, emu_dim3((unsigned)((n + 255) / 256), 1, 1),
			       emu_dim3(256, 1, 1), 0, a, n) != cudaSuccess ||
		    cudaDeviceSynchronize() != cudaSuccess)
			return 1;
		a[k % n] ^= 1; /* the CPU takes a page back now and then */
		if (k == 0 && !early) {
			printf("ready\n");
			fflush(stdout);
		}
	}
}
