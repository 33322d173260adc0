// SPDX-License-Identifier: MIT
/*
 * Description: the device view and the GMMU accessors. Natively both are
 * empty, so this program supplies its own: a "host view" buffer H whose
 * device view is a second buffer D, a live allocation that covers H but its
 * last page, and a GMMU table over D with one block marked REMOTE (its loads
 * go to H, "host data"). It checks that a launch translates every 8-byte word
 * of the arguments that points into the live allocation and nothing else (a
 * word in H's last page, outside any allocation, stays as it is), that EMU_DEV translates pointers
 * read from memory, and (built with EMUGPU_GMMU) that ld_global/st_global count accesses per 64 KB
 * block, charge loads from REMOTE blocks as 32-byte sectors while reading the device view (where a
 * REMOTE block has its read-only copy), mark stored-to blocks written, and ask for a halving when a
 * counter nears saturation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emugpu.h"

#define BLOCKS 4
#define SIZE   (BLOCKS * UVMEMU_BLOCK_SIZE)
#define REMOTE 2 /* the block whose loads go to host data */

static _Alignas(UVMEMU_BLOCK_SIZE) unsigned char host_view[SIZE];
static _Alignas(UVMEMU_BLOCK_SIZE) unsigned char device_view[SIZE];

void uvmemu_get_view_map(struct uvmemu_view_map *map)
{
	map->host_lo = (uintptr_t)host_view;
	map->host_hi = (uintptr_t)host_view + SIZE;
	map->device_offset = (intptr_t)((uintptr_t)device_view - (uintptr_t)host_view);
}

/* The live allocation: all of H but its last page. */
bool uvmemu_has_device_view(const void *p)
{
	return (uintptr_t)p >= (uintptr_t)host_view &&
	       (uintptr_t)p < (uintptr_t)host_view + SIZE - UVMEMU_PAGE_SIZE;
}

static _Atomic uint32_t counters[BLOCKS];
static _Atomic uint8_t block_state[BLOCKS] = {[REMOTE] = UVMEMU_GMMU_REMOTE};
static _Atomic uint64_t remote_bytes;
static _Atomic unsigned halvings;

static void remote_read(uintptr_t dev_addr, size_t bytes)
{
	if (dev_addr >= (uintptr_t)device_view + REMOTE * UVMEMU_BLOCK_SIZE &&
	    dev_addr < (uintptr_t)device_view + (REMOTE + 1) * UVMEMU_BLOCK_SIZE)
		atomic_fetch_add(&remote_bytes, bytes);
}

static void halve(void)
{
	atomic_fetch_add(&halvings, 1);
}

const struct uvmemu_gmmu *uvmemu_gmmu_get(void)
{
	static struct uvmemu_gmmu g;

	g.dev_lo = (uintptr_t)device_view;
	g.dev_hi = (uintptr_t)device_view + SIZE;
	g.dma_offset = (intptr_t)((uintptr_t)host_view - (uintptr_t)device_view);
	g.counters = counters;
	g.state = block_state;
	g.remote_read = remote_read;
	g.halve = halve;
	return &g;
}

struct views_args {
	float *p;	   /* in H: translated */
	uint64_t word;	   /* an integer that lies in H: translated too */
	uint64_t *outside; /* not in H: unchanged */
	uint32_t pair[2];  /* one 8-byte word, not in H: unchanged */
	float **table;	   /* in H, holds host-view pointers */
	uint64_t gap;	   /* in H, in no live allocation: unchanged */
};

EMU_KERNEL(look, struct views_args)
{
	EMU_FOR_THREADS {
		float *q;

		args->outside[0] = (uint64_t)(uintptr_t)args->p;
		args->outside[1] = args->word;
		args->outside[2] = (uint64_t)(uintptr_t)args->outside;
		args->outside[3] = (uint64_t)args->pair[0] << 32 | args->pair[1];
		args->outside[4] = (uint64_t)(uintptr_t)args->table;
		q = EMU_DEV(args->table[0]);
		args->outside[5] = (uint64_t)(uintptr_t)q;
		args->outside[6] = args->gap;
		*q = 5.0f;
		args->p[0] = 7.0f;
	}
}

static void test_argument_translation(void **state)
{
	uintptr_t h = (uintptr_t)host_view, d = (uintptr_t)device_view;
	uint64_t outside[7] = {0};
	float **table_h = (float **)(host_view + 1024), **table_d = (float **)(device_view + 1024);

	/* The table holds a host-view pointer; the device view sees the same data. */
	table_h[0] = (float *)(host_view + 2048);
	table_d[0] = table_h[0];
	assert_int_equal(EMU_LAUNCH(look, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0,
				    (float *)(host_view + 64), h + 8, outside,
				    {0x12345678u, 0x9abcdef0u}, table_h, h + SIZE - 8),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_true(outside[0] == d + 64);
	assert_true(outside[1] == d + 8);
	assert_true(outside[2] == (uintptr_t)outside);
	assert_true(outside[3] == 0x123456789abcdef0ull);
	assert_true(outside[4] == d + 1024);
	assert_true(outside[5] == d + 2048);
	assert_true(outside[6] == h + SIZE - 8);
	/* The kernel wrote through the device view only. */
	assert_true(*(float *)(device_view + 64) == 7.0f);
	assert_true(*(float *)(device_view + 2048) == 5.0f);
	assert_true(*(float *)(host_view + 64) == 0.0f);
	assert_true(*(float *)(host_view + 2048) == 0.0f);
}

#define STRIDE 64 /* bytes between two loads: each is one 32-byte sector */
#define LOADS  (UVMEMU_BLOCK_SIZE / STRIDE)

struct gmmu_args {
	const uint32_t *in; /* host view of the whole range */
	uint32_t *out;	    /* one per load, outside the range */
	uint32_t *store;    /* in block 1, between the words loaded */
};

EMU_KERNEL(gmmu_walk, struct gmmu_args)
{
	EMU_FOR_THREADS {
		unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

		args->out[i] = ld_global(&args->in[(size_t)i * (STRIDE / sizeof(uint32_t))]);
		if (i < 10)
			st_global(&args->store[i], i);
	}
}

static void test_gmmu_accessors(void **state)
{
	uint32_t *in_h = (uint32_t *)host_view, *in_d = (uint32_t *)device_view;
	size_t n = (size_t)BLOCKS * LOADS;
	uint32_t *out = calloc(n, sizeof(uint32_t));

	assert_non_null(out);
	for (size_t i = 0; i < SIZE / sizeof(uint32_t); i++) {
		in_h[i] = 0x10000000u | (uint32_t)i; /* host data */
		in_d[i] = 0x20000000u | (uint32_t)i; /* device data */
	}
	/* The next access to block 3 brings its count to the halving mark. */
	atomic_store(&counters[3],
		     (2u << UVMEMU_COUNTER_TRIPS_SHIFT) | (UVMEMU_COUNTER_HALVE_AT - 1));
	assert_int_equal(EMU_LAUNCH(gmmu_walk, emu_dim3(BLOCKS, 1, 1), emu_dim3(LOADS, 1, 1), 0,
				    in_h, out, (uint32_t *)(host_view + UVMEMU_BLOCK_SIZE + 4)),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	for (size_t i = 0; i < n; i++) {
		size_t word = i * (STRIDE / sizeof(uint32_t));
		/* Every load reads the device view, REMOTE block included: there
		 * it holds the read-only copy (a migration frees the host frames,
		 * so reading those could race); only the charge differs. */
		assert_int_equal(out[i], 0x20000000u | (uint32_t)word);
	}
	assert_int_equal(atomic_load(&counters[0]), LOADS);
	assert_int_equal(atomic_load(&counters[1]), LOADS + 10);
	assert_int_equal(atomic_load(&counters[REMOTE]), LOADS);
	assert_int_equal(atomic_load(&counters[3]), (2u << UVMEMU_COUNTER_TRIPS_SHIFT) |
							(UVMEMU_COUNTER_HALVE_AT - 1 + LOADS));
	assert_int_equal(atomic_load(&halvings), 1);
	assert_int_equal(atomic_load(&remote_bytes), (uint64_t)LOADS * 32);
	/* Stores went to the device view and marked their block written. */
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(((uint32_t *)(device_view + UVMEMU_BLOCK_SIZE + 4))[i], i);
	assert_true(atomic_load(&block_state[1]) & UVMEMU_GMMU_WRITTEN);
	assert_false(atomic_load(&block_state[0]) & UVMEMU_GMMU_WRITTEN);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_argument_translation),
	    cmocka_unit_test(test_gmmu_accessors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
