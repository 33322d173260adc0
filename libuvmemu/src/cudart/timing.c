// SPDX-License-Identifier: MIT
/*
 * timing.c - kernel times on a real GPU: a pair of CUDA events around each
 * launch, in stream order, so that a kernel's time is the GPU's and
 * includes its page faults. Pairs are read back when the pool is full and
 * when the time is asked for, so that a program of thousands of launches
 * (nw's wavefront) keeps a few events.
 */
#include "cudart.h"

#define POOL 512

static cudaEvent_t start[POOL], stop[POOL];
static unsigned pending, created;
static uint64_t launches;
static double seconds;
static bool broken; /* an event call failed: times are left out */

/* Adds the pending pairs' times and empties the pool. */
static void drain(void)
{
	if (pending && !broken && cudaEventSynchronize(stop[pending - 1]) != cudaSuccess)
		broken = true;
	for (unsigned i = 0; i < pending && !broken; i++) {
		float ms;

		if (cudaEventElapsedTime(&ms, start[i], stop[i]) != cudaSuccess)
			broken = true;
		else
			seconds += ms / 1e3;
	}
	pending = 0;
}

uint64_t uvmc_kernel_begin(void)
{
	if (pending == POOL)
		drain();
	if (!broken && pending == created) {
		if (cudaEventCreate(&start[created]) != cudaSuccess ||
		    cudaEventCreate(&stop[created]) != cudaSuccess)
			broken = true;
		else
			created++;
	}
	if (!broken && cudaEventRecord(start[pending], 0) != cudaSuccess)
		broken = true;
	return launches++;
}

void uvmc_kernel_end(uint64_t launch)
{
	(void)launch;
	if (!broken && cudaEventRecord(stop[pending], 0) != cudaSuccess)
		broken = true;
	if (!broken)
		pending++;
}

double uvmc_kernel_seconds(void)
{
	drain();
	/* After a failed event call (a kernel fault leaves the context unusable)
	 * the time is unknown, not zero. */
	return broken ? -1 : seconds;
}

uint64_t uvmc_kernel_count(void)
{
	return launches;
}
