// SPDX-License-Identifier: MIT
/*
 * wl_mem.c - a workload's data under each --mem mode (wl.h): managed
 * allocations, or host and device twins with explicit copies, and the
 * prefetches and hints of the other modes. The same calls run natively,
 * under the emulator and, built with UVMEMU_REAL_CUDA, on a real GPU, so
 * that bench/gpu/validate compares one program in four configurations.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "wl.h"

/* Under --mem explicit: a host array and its device twin. */
struct twin {
	char *host, *dev;
	size_t bytes, mapped;
};

static struct twin *twins;
static size_t ntwins, cap;

static const char *const names[] = {"managed", "explicit", "prefetch", "advise"};

int wl_mem_parse(const char *name, enum wl_mem *out)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0) {
			*out = (enum wl_mem)i;
			return 0;
		}
	return -1;
}

static void check(const struct wl *w, cudaError_t e, const char *what, const char *name)
{
	if (e == cudaSuccess)
		return;
	fprintf(stderr, "%s: %s (%s) failed: %s\n", w->name, what, name, cudaGetErrorString(e));
	uvmemu_set_verify(UVMEMU_VERIFY_FAIL);
	exit(1);
}

static void out_of_memory(const struct wl *w, size_t bytes, const char *what, const char *kind,
			  const char *why)
{
	fprintf(stderr, "%s: cannot allocate %zu bytes of %s for %s: %s\n", w->name, bytes, kind,
		what, why);
	exit(1);
}

static void *explicit_alloc(const struct wl *w, size_t bytes, const char *what)
{
	size_t mapped = wl_round_up(bytes, 4096);
	void *host, *dev = NULL;
	cudaError_t e;

	if (ntwins == cap) {
		size_t n = cap ? 2 * cap : 16;
		struct twin *t = realloc(twins, n * sizeof(*t));

		if (!t)
			out_of_memory(w, bytes, what, "host memory", "no room for its record");
		twins = t;
		cap = n;
	}
	/* Zeroed, as the emulator's managed memory is, and page-aligned. */
	host = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (host == MAP_FAILED)
		out_of_memory(w, bytes, what, "host memory", "mmap failed");
	e = cudaMalloc(&dev, bytes);
	/* Zeroed too, as managed memory is: and the emulator's device pages are
	 * then backed here, before the region of interest, as a GPU's are from
	 * cudaMalloc on (its first touches cost real page faults). */
	if (e == cudaSuccess)
		e = cudaMemset(dev, 0, bytes);
	if (e != cudaSuccess)
		out_of_memory(w, bytes, what, "device memory", cudaGetErrorString(e));
	uvmemu_label(dev, what);
	twins[ntwins++] = (struct twin){host, dev, bytes, mapped};
	return host;
}

void *wl_managed(const struct wl *w, size_t bytes, const char *what)
{
	void *p = NULL;
	cudaError_t e;

	if (w->mem == WL_MEM_EXPLICIT)
		return explicit_alloc(w, bytes, what);
	e = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal);
	if (e != cudaSuccess)
		out_of_memory(w, bytes, what, "managed memory", cudaGetErrorString(e));
	uvmemu_label(p, what); /* names the data structure in traces and plots */
	return p;
}

/* The twin holding [p, p + bytes); a range outside them all is a bug of the
 * workload. */
static struct twin *twin_of(const struct wl *w, const void *p, size_t bytes)
{
	const char *c = p;

	for (size_t i = 0; i < ntwins; i++)
		if (c >= twins[i].host && c <= twins[i].host + twins[i].bytes &&
		    bytes <= (size_t)(twins[i].host + twins[i].bytes - c))
			return &twins[i];
	fprintf(stderr, "%s: %p (%zu bytes) is not the workload's data\n", w->name, p, bytes);
	abort();
}

void wl_free(const struct wl *w, void *p)
{
	struct twin *t;

	if (w->mem != WL_MEM_EXPLICIT) {
		check(w, cudaFree(p), "cudaFree", "managed data");
		return;
	}
	t = twin_of(w, p, 0);
	check(w, cudaFree(t->dev), "cudaFree", "device data");
	munmap(t->host, t->mapped);
	*t = twins[--ntwins];
}

void *wl_dev(const struct wl *w, const void *p)
{
	struct twin *t;

	if (w->mem != WL_MEM_EXPLICIT)
		return (void *)p;
	t = twin_of(w, p, 0);
	return t->dev + ((const char *)p - t->host);
}

void wl_to_gpu(const struct wl *w, const void *p, size_t bytes)
{
	if (!bytes)
		return;
	if (w->mem == WL_MEM_EXPLICIT)
		check(w, cudaMemcpy(wl_dev(w, p), p, bytes, cudaMemcpyHostToDevice), "cudaMemcpy",
		      "to the device");
	else if (w->mem == WL_MEM_PREFETCH)
		check(w, cudaMemPrefetchAsync(p, bytes, 0, 0), "cudaMemPrefetchAsync",
		      "to the device");
}

void wl_gpu_space(const struct wl *w, const void *p, size_t bytes)
{
	if (bytes && w->mem == WL_MEM_PREFETCH)
		check(w, cudaMemPrefetchAsync(p, bytes, 0, 0), "cudaMemPrefetchAsync",
		      "to the device");
}

/* One read a page: the host's first touch of each page, as its reading the
 * range would do. */
static void touch(const void *p, size_t bytes)
{
	const volatile char *c = p;

	for (size_t off = 0; off < bytes; off += 4096 - ((uintptr_t)(c + off) & 4095))
		(void)c[off];
}

void wl_to_host(const struct wl *w, const void *p, size_t bytes)
{
	if (!bytes)
		return;
	/* The kernels first: a prefetch or a read must not pass them. */
	check(w, cudaDeviceSynchronize(), "cudaDeviceSynchronize", "before reading results");
	switch (w->mem) {
	case WL_MEM_EXPLICIT:
		check(w, cudaMemcpy((void *)p, wl_dev(w, p), bytes, cudaMemcpyDeviceToHost),
		      "cudaMemcpy", "to the host");
		break;
	case WL_MEM_PREFETCH:
		check(w, cudaMemPrefetchAsync(p, bytes, cudaCpuDeviceId, 0), "cudaMemPrefetchAsync",
		      "to the host");
		check(w, cudaDeviceSynchronize(), "cudaDeviceSynchronize", "after a prefetch");
		break;
	case WL_MEM_MANAGED:
	case WL_MEM_ADVISE:
		touch(p, bytes);
		break;
	}
}

void wl_advise(const struct wl *w, const void *p, size_t bytes, enum wl_advice advice)
{
	static const enum cudaMemoryAdvise cuda[] = {
	    [WL_READ_MOSTLY] = cudaMemAdviseSetReadMostly,
	    [WL_ACCESSED_BY_GPU] = cudaMemAdviseSetAccessedBy,
	    [WL_PREFER_HOST] = cudaMemAdviseSetPreferredLocation,
	};
	int device = advice == WL_PREFER_HOST ? cudaCpuDeviceId : 0;

	if (w->mem == WL_MEM_ADVISE && bytes)
		check(w, cudaMemAdvise(p, bytes, cuda[advice], device), "cudaMemAdvise", "a hint");
}
