// SPDX-License-Identifier: MIT
/*
 * pingpong ROUNDS - two 2 MB managed buffers prefetched to the device in
 * turn, ROUNDS times each: with 2 MB of device memory each prefetch evicts
 * the other buffer, so every block makes ROUNDS round trips. The data is
 * checked at the end; prints "pingpong: ROUNDS rounds, data intact".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "uvmemu.h"

#define SIZE (2u << 20)

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
	uint64_t *buf[2];

	for (int b = 0; b < 2; b++) {
		if (cudaMallocManaged((void **)&buf[b], SIZE, cudaMemAttachGlobal) != cudaSuccess)
			return 1;
		for (size_t i = 0; i < SIZE / 8; i++)
			buf[b][i] = (uint64_t)b << 40 | i;
	}
	for (long r = 0; r < rounds; r++)
		for (int b = 0; b < 2; b++)
			if (cudaMemPrefetchAsync(buf[b], SIZE, 0, NULL) != cudaSuccess ||
			    cudaDeviceSynchronize() != cudaSuccess)
				return 1;
	for (int b = 0; b < 2; b++)
		for (size_t i = 0; i < SIZE / 8; i++)
			if (buf[b][i] != ((uint64_t)b << 40 | i)) {
				printf("pingpong: buffer %d word %zu lost\n", b, i);
				return 1;
			}
	printf("pingpong: %ld rounds, data intact\n", rounds);
	return 0;
}
