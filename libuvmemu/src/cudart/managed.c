// SPDX-License-Identifier: MIT
/*
 * managed.c - cudaMallocManaged on a real GPU, never oversubscribed.
 *
 * Managed memory can exceed the GPU's, and the driver then evicts and
 * migrates on demand; on a GPU shared with others a program that does so
 * can hang it. The limit is what cudaMemGetInfo says is free at the first
 * managed allocation, less an eighth for the context, the kernels and the
 * driver's own use, and a request that would pass it fails without asking
 * the GPU (uvmemu_cuda_real.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cudart.h"

struct alloc {
	void *p;
	size_t size;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t limit, live, peak;
static bool limited;
static struct alloc *allocs;
static size_t nallocs, cap;

static cudaError_t set_limit(void)
{
	size_t free_b, total_b;
	cudaError_t e = cudaMemGetInfo(&free_b, &total_b);

	if (e != cudaSuccess)
		return e;
	limit = free_b - free_b / 8;
	limited = true;
	return cudaSuccess;
}

static bool remember(void *p, size_t size)
{
	if (nallocs == cap) {
		size_t n = cap ? 2 * cap : 64;
		struct alloc *a = realloc(allocs, n * sizeof(*a));

		if (!a)
			return false;
		allocs = a;
		cap = n;
	}
	allocs[nallocs++] = (struct alloc){p, size};
	live += size;
	if (live > peak)
		peak = live;
	return true;
}

cudaError_t uvmemu_cuda_malloc_managed(void **ptr, size_t size, unsigned int flags)
{
	cudaError_t e = cudaSuccess;

	uvmc_attach();
	pthread_mutex_lock(&lock);
	if (!limited)
		e = set_limit();
	if (e == cudaSuccess && size > limit - live) {
		fprintf(stderr,
			"uvmemu: cudaMallocManaged of %zu bytes refused: with the %zu bytes live "
			"it would pass the %zu bytes the GPU had free, less an eighth (a real GPU "
			"is never oversubscribed)\n",
			size, live, limit);
		e = cudaErrorMemoryAllocation;
	}
	if (e == cudaSuccess)
		e = (cudaMallocManaged)(ptr, size, flags);
	if (e == cudaSuccess && !remember(*ptr, size)) {
		(cudaFree)(*ptr);
		e = cudaErrorMemoryAllocation;
	}
	pthread_mutex_unlock(&lock);
	return e;
}

cudaError_t uvmemu_cuda_free(void *ptr)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nallocs; i++)
		if (allocs[i].p == ptr) {
			live -= allocs[i].size;
			allocs[i] = allocs[--nallocs];
			break;
		}
	pthread_mutex_unlock(&lock);
	return (cudaFree)(ptr);
}

uint64_t uvmc_managed_peak(void)
{
	return peak;
}
