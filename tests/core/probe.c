// SPDX-License-Identifier: MIT
/*
 * probe [--footprint MB] [--pinned MB] - a minimal emulated program for the
 * core's script tests: allocates managed memory (and, with --pinned, device
 * memory by cudaMalloc, as programs with scratch arrays do), initialises it on the host, runs
 * one "kernel" (two threads writing through the device view, bracketed by the
 * executor hooks, each a worker on the model clock: a CTA on a slot of its
 * own, its warps 32 words wide), checks the result on the host and reports
 * the verdict.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uvmemu.h"

struct half {
	uint32_t *dev;
	size_t lo, hi;
};

static void *kernel(void *arg)
{
	struct half *h = arg;
	const struct uvmemu_slot *slot = uvmemu_worker_register(0, 0);

	uvmemu_run_begin(1);
	for (size_t i = h->lo; i < h->hi; i++) {
		h->dev[i] = h->dev[i] * 3 + 1;
		if (slot && (i + 1) % UVMEMU_WARP_SIZE == 0 &&
		    (atomic_load(&slot->attention) & UVMEMU_ATTN_WARP))
			uvmemu_warp_end();
	}
	if (slot && atomic_load(&slot->attention))
		uvmemu_barrier();
	uvmemu_run_end(1);
	return NULL;
}

int main(int argc, char **argv)
{
	size_t bytes = 16u << 20, n;
	struct uvmemu_launch l = {
	    .kernel = "probe", .grid = {2, 1, 1}, .block = {1, 1, 1}, .slots = 2, .cores = 2};
	struct half h[2];
	pthread_t t[2];
	uint32_t *m;
	size_t bad = 0;
	uint64_t idx;
	void *scratch = NULL;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 == argc) {
			fprintf(stderr, "probe: option '%s' needs a value\n", argv[i]);
			return 2;
		} else if (strcmp(argv[i], "--footprint") == 0) {
			bytes = strtoull(argv[i + 1], NULL, 0) << 20;
		} else if (strcmp(argv[i], "--pinned") == 0) {
			if (cudaMalloc(&scratch, strtoull(argv[i + 1], NULL, 0) << 20) !=
			    cudaSuccess) {
				fprintf(stderr, "probe: cudaMalloc failed\n");
				return 1;
			}
		} else {
			fprintf(stderr,
				"probe: unknown option '%s' (--footprint MB, --pinned MB)\n",
				argv[i]);
			return 2;
		}
	}
	n = bytes / sizeof(uint32_t);
	if (cudaMallocManaged((void **)&m, bytes, cudaMemAttachGlobal) != cudaSuccess) {
		fprintf(stderr, "probe: cudaMallocManaged failed\n");
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		m[i] = (uint32_t)i;
	l.host_ns = uvmemu_host_time();
	idx = uvmemu_kernel_begin(&l);
	for (int k = 0; k < 2; k++) {
		h[k] = (struct half){uvmemu_device_ptr(m), k * n / 2, (k + 1) * n / 2};
		pthread_create(&t[k], NULL, kernel, &h[k]);
	}
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	uvmemu_kernel_end(idx);
	for (size_t i = 0; i < n; i++)
		bad += m[i] != (uint32_t)i * 3 + 1;
	uvmemu_set_verify(bad ? UVMEMU_VERIFY_FAIL : UVMEMU_VERIFY_PASS);
	printf("probe: %zu bytes, verify %s\n", bytes, bad ? "FAIL" : "pass");
	cudaFree(m);
	cudaFree(scratch);
	return bad != 0;
}
