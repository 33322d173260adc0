// SPDX-License-Identifier: MIT
/*
 * rendezvous - the program stalled.sh runs under the emulator: a kernel of
 * NCTA one-thread CTAs, each of which first touches its own 64 KB block of a
 * managed buffer that lives on the host (a far fault), then waits, sleeping,
 * until every CTA of the kernel has arrived. They can all arrive only if the
 * executor runs NCTA CTAs at once: only if spare CTA slots joined the kernel
 * when its CTAs stalled on far faults, which the memory system's driver
 * tells it (uvmemu_executor.stalled). Otherwise the main workers (one per
 * CPU) hold their CTAs, whose hand-out never ends, and the wait times out.
 * Exit 0 when all arrived; 1 with the count reached otherwise.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "emugpu.h"

#define NCTA	  16
#define BLOCK	  (64u << 10)
#define PATIENCE  20 /* seconds a CTA waits for the others */

struct rdv_args {
	unsigned char *data;
	_Atomic int *arrived;
	_Atomic int *timed_out;
};

EMU_KERNEL(rendezvous, struct rdv_args)
{
	EMU_FOR_THREADS {
		struct timespec nap = {0, 1000000}, start, now;

		args->data[blockIdx.x * BLOCK] += 1; /* a far fault: the block is on the host */
		atomic_fetch_add(args->arrived, 1);
		clock_gettime(CLOCK_MONOTONIC, &start);
		while (atomic_load(args->arrived) < NCTA) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - start.tv_sec > PATIENCE) {
				atomic_store(args->timed_out, 1);
				break;
			}
			nanosleep(&nap, NULL);
		}
	}
}

int main(void)
{
	static _Atomic int arrived, timed_out;
	unsigned char *data;

	if (!uvmemu_is_emulated()) {
		fprintf(stderr, "rendezvous: run it under the emulator (uvmemu run)\n");
		return 2;
	}
	if (cudaMallocManaged((void **)&data, (size_t)NCTA * BLOCK, cudaMemAttachGlobal) !=
	    cudaSuccess)
		return 2;
	memset(data, 0, (size_t)NCTA * BLOCK); /* resident on the host */
	EMU_LAUNCH(rendezvous, emu_dim3(NCTA, 1, 1), emu_dim3(1, 1, 1), 0, data, &arrived,
		   &timed_out);
	if (cudaDeviceSynchronize() != cudaSuccess)
		return 2;
	for (int i = 0; i < NCTA; i++)
		if (data[(size_t)i * BLOCK] != 1)
			return 2;
	if (atomic_load(&timed_out))
		printf("the %d CTAs did not run at once: some waited %d s for the others in vain\n",
		       NCTA, PATIENCE);
	else
		printf("%d of %d CTAs ran at once\n", atomic_load(&arrived), NCTA);
	cudaFree(data);
	return atomic_load(&timed_out) ? 1 : 0;
}
