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
 * block once per warp per access, charge loads and stores from
 * REMOTE blocks once per distinct 32-byte sector per warp while reading the device view, mark
 * stored-to blocks written, and ask for a halving when a counter nears saturation; exact counts
 * for a kernel whose warps touch known blocks, with divergent threads, a long per-thread loop
 * and a barrier; that one-warp CTAs run back to back on a worker count once each; that
 * remote sectors cross in one transaction per 128-byte line; and that atomics count once
 * and are charged both ways, and with measure_only are only charged.
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
static _Atomic uint64_t remote_bytes, remote_stored, remote_xacts[2];
static _Atomic unsigned halvings;
static int gmmu_ctx; /* what the callbacks must be passed */

static void remote_access(void *ctx, uintptr_t dev_addr, size_t bytes, unsigned xacts, bool store)
{
	assert_ptr_equal(ctx, &gmmu_ctx);
	if (dev_addr >= (uintptr_t)device_view + REMOTE * UVMEMU_BLOCK_SIZE &&
	    dev_addr < (uintptr_t)device_view + (REMOTE + 1) * UVMEMU_BLOCK_SIZE) {
		atomic_fetch_add(store ? &remote_stored : &remote_bytes, bytes);
		atomic_fetch_add(&remote_xacts[store], xacts);
	}
}

static void halve(void *ctx)
{
	assert_ptr_equal(ctx, &gmmu_ctx);
	atomic_fetch_add(&halvings, 1);
}

static struct uvmemu_gmmu gmmu_table;

const struct uvmemu_gmmu *uvmemu_gmmu_get(void)
{
	struct uvmemu_gmmu *gp = &gmmu_table;

	gp->dev_lo = (uintptr_t)device_view;
	gp->dev_hi = (uintptr_t)device_view + SIZE;
	gp->block_shift = UVMEMU_BLOCK_SHIFT;
	gp->dma_offset = (intptr_t)((uintptr_t)host_view - (uintptr_t)device_view);
	gp->counters = counters;
	gp->state = block_state;
	gp->ctx = &gmmu_ctx;
	gp->remote_access = remote_access;
	gp->halve = halve;
	return gp;
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

#define STRIDE	      64 /* bytes between two loads: each is one 32-byte sector */
#define LOADS	      (UVMEMU_BLOCK_SIZE / STRIDE)
#define WARPS_PER_CTA (LOADS / 32)

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
		 * it holds the block's copy (a migration frees the host frames,
		 * so reading those could race); only the charge differs. */
		assert_int_equal(out[i], 0x20000000u | (uint32_t)word);
	}
	/* Once per warp: each warp's loads lie in one block; the ten stores
	 * are one warp's second access. */
	assert_int_equal(atomic_load(&counters[0]), WARPS_PER_CTA);
	assert_int_equal(atomic_load(&counters[1]), WARPS_PER_CTA + 1);
	assert_int_equal(atomic_load(&counters[REMOTE]), WARPS_PER_CTA);
	assert_int_equal(atomic_load(&counters[3]),
			 (2u << UVMEMU_COUNTER_TRIPS_SHIFT) |
			     (UVMEMU_COUNTER_HALVE_AT - 1 + WARPS_PER_CTA));
	assert_int_equal(atomic_load(&halvings), 1);
	/* Each thread's load is in a sector of its own, two to a 128-byte line:
	 * a line is one transaction. */
	assert_int_equal(atomic_load(&remote_bytes), (uint64_t)LOADS * 32);
	assert_int_equal(atomic_load(&remote_xacts[0]), (uint64_t)LOADS / 2);
	/* Stores went to the device view and marked their block written. */
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(((uint32_t *)(device_view + UVMEMU_BLOCK_SIZE + 4))[i], i);
	assert_true(atomic_load(&block_state[1]) & UVMEMU_GMMU_WRITTEN);
	assert_false(atomic_load(&block_state[0]) & UVMEMU_GMMU_WRITTEN);
	free(out);
}

/*
 * Per-warp counting. CTAs of 16 x 4 threads hold two warps each (x fastest:
 * rows 0-1 and rows 2-3); three CTAs make six warps, w = 2 * blockIdx.x +
 * row / 2. The first thread loop makes, per thread:
 *   access 0: a word of block {0, 1, 3}[w % 3]  -> that block +1 per warp
 *   access 1: block 0 if its tid is even, else 1 -> blocks 0 and 1 +1 per warp
 *   accesses 2..101: block 0, 100 times         -> block 0 +100 per warp
 *   access 102: block 3, only threads with x < 8 -> block 3 +1 per warp
 * (A divergent access before the loop would shift the loop's access indices
 * in half the warp's threads: the accessors pair k-th accesses.)
 * and the second (after the barrier):
 *   access 0: word tid % 32 of the REMOTE block -> +1, 4 sectors per warp
 *   access 1: a store to word 64 + 32 * blockIdx.x + tid / 2 of it
 *                                               -> +1, 2 sectors per warp
 */
#define WARP_CTAS  3
#define WARP_LOOPS 100
#define WORDS	   (UVMEMU_BLOCK_SIZE / sizeof(uint32_t))

struct warp_args {
	const uint32_t *in; /* host view of the whole range */
	uint32_t *sum;	    /* one per thread, outside the range */
	uint32_t *remote;   /* host view of the REMOTE block */
};

EMU_KERNEL(warp_walk, struct warp_args)
{
	static const unsigned first[3] = {0, 1, 3};

	EMU_FOR_THREADS {
		unsigned tid = emu_tid, w = 2 * blockIdx.x + tid / 32;
		unsigned g = blockIdx.x * 64 + tid;
		uint32_t sum = ld_global(&args->in[first[w % 3] * WORDS + tid]);

		sum += ld_global(&args->in[(tid & 1) * WORDS + tid]);
		for (unsigned j = 0; j < WARP_LOOPS; j++)
			sum += ld_global(&args->in[j * 64 + tid]);
		if (threadIdx.x < 8)
			sum += ld_global(&args->in[3 * WORDS + tid]);
		args->sum[g] = sum;
	}
	/* __syncthreads() */
	EMU_FOR_THREADS {
		unsigned tid = emu_tid;

		args->sum[blockIdx.x * 64 + tid] += ld_global(&args->remote[tid % 32]);
		st_global(&args->remote[64 + 32 * blockIdx.x + tid / 2], tid);
	}
}

static void run_warp_walk(uint32_t *sum)
{
	assert_int_equal(EMU_LAUNCH(warp_walk, emu_dim3(WARP_CTAS, 1, 1), emu_dim3(16, 4, 1), 0,
				    (const uint32_t *)host_view, sum,
				    (uint32_t *)(host_view + REMOTE * UVMEMU_BLOCK_SIZE)),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
}

/* What the accessors charged to the link, zeroed between launches. */
static void reset_remote(void)
{
	atomic_store(&remote_bytes, 0);
	atomic_store(&remote_stored, 0);
	atomic_store(&remote_xacts[0], 0);
	atomic_store(&remote_xacts[1], 0);
}

/* No access counted yet, block REMOTE the one remote block, nothing charged. */
static void reset_table(void)
{
	for (unsigned b = 0; b < BLOCKS; b++) {
		atomic_store(&counters[b], 0);
		atomic_store(&block_state[b], b == REMOTE ? UVMEMU_GMMU_REMOTE : 0);
	}
	reset_remote();
}

static void test_gmmu_counts_per_warp(void **state)
{
	const unsigned warps = 2 * WARP_CTAS;
	uint32_t *dev = (uint32_t *)device_view, sum[WARP_CTAS * 64];

	for (size_t i = 0; i < SIZE / sizeof(uint32_t); i++)
		dev[i] = (uint32_t)i;
	reset_table();
	run_warp_walk(sum);
	assert_int_equal(atomic_load(&counters[0]), warps / 3 + warps + WARP_LOOPS * warps);
	assert_int_equal(atomic_load(&counters[1]), warps / 3 + warps);
	assert_int_equal(atomic_load(&counters[3]), warps / 3 + warps);
	assert_int_equal(atomic_load(&counters[REMOTE]), 2 * warps);
	assert_int_equal(atomic_load(&remote_bytes), warps * 4 * 32);
	assert_int_equal(atomic_load(&remote_stored), warps * 2 * 32);
	/* Each warp's load and store lie in one 128-byte line each. */
	assert_int_equal(atomic_load(&remote_xacts[0]), warps);
	assert_int_equal(atomic_load(&remote_xacts[1]), warps);
	/* The accessors only count: the kernel read and wrote what plain code would. */
	for (unsigned c = 0; c < WARP_CTAS; c++)
		for (unsigned tid = 0; tid < 64; tid++) {
			static const unsigned first[3] = {0, 1, 3};
			unsigned w = 2 * c + tid / 32;
			uint32_t want = (uint32_t)(first[w % 3] * WORDS + tid) +
					(uint32_t)((tid & 1) * WORDS + tid) +
					(uint32_t)(REMOTE * WORDS + tid % 32);

			if (tid % 16 < 8)
				want += (uint32_t)(3 * WORDS + tid);
			for (unsigned j = 0; j < WARP_LOOPS; j++)
				want += j * 64 + tid;
			assert_int_equal(sum[c * 64 + tid], want);
		}
	assert_int_equal(dev[REMOTE * WORDS + 64 + 31], 63);
}

/* One-warp CTAs: each thread loop of every CTA is one warp access, even when a
 * worker runs CTAs back to back and each begins with warp 0 of thread loop 0. */
#define ONE_WARP_CTAS 64

EMU_KERNEL(one_warp_touch, struct warp_args)
{
	EMU_FOR_THREADS {
		args->sum[blockIdx.x * 32 + emu_tid] = ld_global(&args->in[emu_tid]);
	}
}

static void test_gmmu_one_warp_ctas(void **state)
{
	static uint32_t sum[ONE_WARP_CTAS * 32];

	(void)state;
	reset_table();
	assert_int_equal(EMU_LAUNCH(one_warp_touch, emu_dim3(ONE_WARP_CTAS, 1, 1),
				    emu_dim3(32, 1, 1), 0, (const uint32_t *)host_view, sum,
				    (uint32_t *)NULL),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(atomic_load(&counters[0]), ONE_WARP_CTAS);
	for (unsigned i = 0; i < ONE_WARP_CTAS * 32; i++)
		assert_int_equal(sum[i], ((const uint32_t *)device_view)[i % 32]);
}

/*
 * Atomics are accesses too: one warp of 32 threads adds to 32 scattered
 * words of the REMOTE block (a sector and a line each), counted once per
 * warp as a store and charged both ways (request and completion); with
 * measure_only the charge is all that happens: no count, no written bit.
 */
EMU_KERNEL(remote_atomics, struct warp_args)
{
	EMU_FOR_THREADS {
		atomicAdd(&args->remote[emu_tid * 64], 1u);
	}
}

static void run_remote_atomics(bool measure_only)
{
	uint32_t *dev = (uint32_t *)(device_view + REMOTE * UVMEMU_BLOCK_SIZE);

	reset_table();
	dev[0] = dev[31 * 64] = 0;
	gmmu_table.measure_only = measure_only;
	assert_int_equal(EMU_LAUNCH(remote_atomics, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0,
				    (const uint32_t *)NULL, (uint32_t *)NULL,
				    (uint32_t *)(host_view + REMOTE * UVMEMU_BLOCK_SIZE)),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	gmmu_table.measure_only = false;
	assert_int_equal(dev[0], 1);
	assert_int_equal(dev[31 * 64], 1);
	assert_int_equal(atomic_load(&remote_bytes), 32 * 32);
	assert_int_equal(atomic_load(&remote_stored), 32 * 32);
	assert_int_equal(atomic_load(&remote_xacts[0]), 32);
	assert_int_equal(atomic_load(&remote_xacts[1]), 32);
}

static void test_gmmu_atomics(void **state)
{
	(void)state;
	run_remote_atomics(false);
	assert_int_equal(atomic_load(&counters[REMOTE]), 1);
	assert_true(atomic_load(&block_state[REMOTE]) & UVMEMU_GMMU_WRITTEN);
	run_remote_atomics(true);
	assert_int_equal(atomic_load(&counters[REMOTE]), 0);
	assert_false(atomic_load(&block_state[REMOTE]) & UVMEMU_GMMU_WRITTEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_argument_translation), cmocka_unit_test(test_gmmu_accessors),
	    cmocka_unit_test(test_gmmu_counts_per_warp), cmocka_unit_test(test_gmmu_one_warp_ctas),
	    cmocka_unit_test(test_gmmu_atomics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
