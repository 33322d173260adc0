// SPDX-License-Identifier: MIT
/*
 * Description: blocks the GPU reaches where they are, under either backend.
 * Zero-copy (pin-host and the threshold policies) maps the block on the
 * device without moving it and stays coherent with CPU writes both ways;
 * under the threshold policies a far fault on a store migrates.
 * Under remap GPU loads and stores reach the host frames themselves (a store
 * lands in host memory, nothing migrates; remote bytes are sampled
 * estimates); under copy the device maps a copy charged in full, which takes
 * GPU stores and is written back (and charged back) when a CPU access or
 * sampling drops it, only if the GPU stored into it; nothing migrates under
 * either. With far faults as the only access
 * count, sampling unmaps REMOTE blocks every period so the next access
 * faults and counts, and a block read often enough reaches the threshold and
 * migrates; a far fault below the threshold maps the prefetcher's picks
 * around it REMOTE too. Read-mostly advice duplicates
 * and collapses on the first write from either side; preferred location and
 * accessed-by decide where faults land; explicit prefetches move data both
 * ways ahead of any fault; zero-copy host memory (cudaHostAlloc) is read
 * remotely. Data is checked everywhere. Written for either migration unit
 * (core_remote_*_4k): access counts, and the prefetcher's smallest region,
 * are per 64 KB basic block at both.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"

#define BYTES (1u << 20) /* 16 basic blocks of 64 KB */
#define WORDS (BYTES / sizeof(uint64_t))

static void fill(uint64_t *host, uint64_t salt)
{
	for (size_t i = 0; i < WORDS; i++)
		host[i] = i * 31 + salt;
}

static size_t check(const volatile uint64_t *p, uint64_t salt)
{
	size_t bad = 0;

	for (size_t i = 0; i < WORDS; i++)
		bad += p[i] != i * 31 + salt;
	return bad;
}

/* Starts the emulator with opts and one managed buffer filled with salt on
 * the host; returns its device view. */
static void *start_filled(struct th_emu *t, const char *const *opts, uint64_t salt, uint64_t **host)
{
	th_start(t, opts);
	*host = th_managed(t, BYTES);
	fill(*host, salt);
	return th_dev(t, *host);
}

/* Sampling that cannot strike during a test's exact counts. */
#define NO_SAMPLING "remote-sample-period=1000s"

/* Waits (at most 5 s) until sampling has unmapped every REMOTE block, so
 * that the next access to any of them faults. */
static void await_sampling(struct th_emu *t)
{
	for (int i = 0; i < 5000 && uvm_driver_remote_mapped(t->e->driver); i++)
		usleep(1000);
	assert_int_equal(uvm_driver_remote_mapped(t->e->driver), 0);
	assert_true(th_stats(t).sample_unmaps > 0);
}

static void test_pin_host_reads_remotely(void **state)
{
	static const char *const opts[] = {"migrate=pin-host", "link=unlimited", "fault-latency=0",
					   NO_SAMPLING, NULL};
	const uint64_t blocks = BYTES / UVM_BLOCK_SIZE;
	struct th_emu t;
	uint64_t *host, *dev;
	struct uvm_stats st;

	dev = start_filled(&t, opts, 1, &host);
	assert_int_equal(check(dev, 1), 0);
	st = th_stats(&t);
	assert_int_equal(st.bytes_h2d, 0);
	assert_int_equal(st.blocks_remote, blocks);
	/* A snapshot crosses in full; shared frames are charged per sample. */
	assert_int_equal(st.remote_bytes, th_shared_frames(&t) ? blocks * 4096 : BYTES);
	assert_int_equal(st.peak_device_bytes, 0); /* remote blocks are not device memory */
	/* The CPU writes: the GPU sees the new data. */
	fill(host, 2);
	assert_int_equal(check(dev, 2), 0);
	th_stop(&t);
}

static void test_remote_stores(void **state)
{
	static const char *const opts[] = {"migrate=pin-host", "link=unlimited", "fault-latency=0",
					   NO_SAMPLING, NULL};
	const uint64_t blocks = BYTES / UVM_BLOCK_SIZE;
	struct th_emu t;
	uint64_t *host;
	volatile uint64_t *dev;
	struct uvm_stats st;

	dev = start_filled(&t, opts, 10, &host);
	assert_int_equal(check(dev, 10), 0);
	st = th_stats(&t);
	/* GPU stores to REMOTE blocks migrate nothing under either backend.
	 * Under remap they land in host memory; under copy in the device
	 * copy, which the CPU's touch of each block drops, writing it back
	 * (the bytes charged back to the link, as the copy was charged). */
	dev[0] = 7;
	dev[WORDS - 1] = 8;
	assert_int_equal(th_stats(&t).blocks_h2d, 0);
	assert_int_equal(th_stats(&t).gpu_faults, st.gpu_faults); /* no fault at all */
	assert_int_equal(host[0], 7);
	assert_int_equal(host[WORDS - 1], 8);
	st = th_stats(&t);
	assert_int_equal(st.blocks_h2d, 0);
	if (th_shared_frames(&t)) {
		assert_int_equal(st.blocks_remote_written_back, 0);
		assert_int_equal(uvm_driver_remote_blocks(t.e->driver), blocks);
	} else {
		assert_int_equal(st.blocks_remote_written_back, 2);
		assert_int_equal(st.remote_bytes, BYTES + 2 * UVM_BLOCK_SIZE);
		assert_int_equal(uvm_driver_remote_blocks(t.e->driver), blocks - 2);
	}
	/* A CPU write to a REMOTE block is seen by the next GPU load; a copy
	 * the GPU only read is dropped without writing back. */
	host[WORDS / 2] = 99;
	assert_int_equal(dev[WORDS / 2], 99);
	host[WORDS / 2] = WORDS / 2 * 31 + 10;
	host[0] = 10;
	host[WORDS - 1] = (WORDS - 1) * 31 + 10;
	assert_int_equal(check(host, 10), 0);
	assert_int_equal(check(dev, 10), 0);
	assert_int_equal(th_stats(&t).blocks_remote_written_back, th_shared_frames(&t) ? 0 : 2);
	th_stop(&t);
}

/*
 * The threshold policies migrate a block whose far fault is a store,
 * whatever its count (the adaptive-migration paper's simulator, in each of
 * its threshold modes); a load below the threshold maps it REMOTE, and a
 * later store to it takes no fault under either backend (the zero-copy
 * mapping, or the copy backend's device copy, takes stores).
 */
static void test_store_faults_migrate(void **state)
{
	static const char *const opts[] = {
	    "migrate=always", "ts=8", "prefetch=none", "link=unlimited", "fault-latency=0",
	    NO_SAMPLING,      NULL};
	const size_t per_basic = UVM_BASIC_SIZE / sizeof(uint64_t);
	struct th_emu t;
	uint64_t *host;
	volatile uint64_t *dev;
	struct uvm_stats st;

	dev = start_filled(&t, opts, 3, &host);
	assert_int_equal(dev[1], 1 * 31 + 3);
	st = th_stats(&t);
	assert_int_equal(st.blocks_h2d, 0);
	assert_true(st.blocks_remote > 0);
	/* A store is the first touch of basic block 4: it migrates. */
	dev[4 * per_basic + 1] = 55;
	st = th_stats(&t);
	assert_true(st.blocks_h2d > 0);
	assert_int_equal(host[4 * per_basic + 1], 55);
	/* A store to the block read remotely takes no fault and moves nothing
	 * (under copy it lands in the device copy, which the CPU's read drops
	 * and writes back). */
	dev[2] = 66;
	assert_int_equal(th_stats(&t).blocks_h2d, st.blocks_h2d);
	assert_int_equal(th_stats(&t).gpu_faults, st.gpu_faults);
	assert_int_equal(host[2], 66);
	assert_int_equal(th_stats(&t).blocks_remote_written_back, th_shared_frames(&t) ? 0 : 1);
	host[2] = 2 * 31 + 3;
	host[4 * per_basic + 1] = (4 * per_basic + 1) * 31 + 3;
	assert_int_equal(check(dev, 3), 0);
	assert_int_equal(check(host, 3), 0);
	th_stop(&t);
}

static void test_sampled_counts_reach_threshold(void **state)
{
	static const char *const opts[] = {
	    "migrate=always", "ts=3", "prefetch=none", "link=unlimited", "fault-latency=0",
	    NO_SAMPLING,      NULL};
	/* One access per access counter (a 64 KB basic block), to its first
	 * block: at 4 KB that block alone moves (no prefetch). */
	const uint64_t blocks = BYTES / UVM_BASIC_SIZE;
	struct th_emu t;
	uint64_t *host;
	volatile uint64_t *dev;

	dev = start_filled(&t, opts, 3, &host);
	/* The first access faults (count 1) and maps the blocks remotely; a
	 * sampling pass unmaps them; the second access faults again and counts
	 * (a sampled fault); the third reaches t_s = 3 and the block migrates.
	 * The passes run between rounds, on demand: a timed pass could strike
	 * between a fault's mapping and its thread's retry (which a loaded
	 * machine can delay past any period) and count that access twice. */
	for (int round = 1; round <= 3; round++) {
		if (round > 1) {
			uvm_driver_sample(t.e->driver);
			assert_int_equal(uvm_driver_remote_mapped(t.e->driver), 0);
		}
		for (size_t w = 0; w < WORDS; w += UVM_BASIC_SIZE / sizeof(uint64_t))
			assert_int_equal(dev[w], w * 31 + 3);
		assert_int_equal(th_stats(&t).blocks_h2d, round < 3 ? 0 : blocks);
	}
	/* The second and third accesses are sampled faults, not far faults; the
	 * third's migration is a counter migration, as with GMMU accessors. */
	assert_int_equal(th_stats(&t).remote_samples, 2 * blocks);
	assert_int_equal(th_stats(&t).blocks_counter_migrated, blocks);
	assert_int_equal(th_stats(&t).gpu_faults, blocks); /* the first accesses */
	assert_int_equal(uvm_driver_remote_blocks(t.e->driver), 0);
	assert_int_equal(check(dev, 3), 0);
	assert_int_equal(check(host, 3), 0);
	th_stop(&t);
}

/*
 * A far fault below the threshold (t_s = 8, count 1) maps its block REMOTE,
 * and the tree prefetcher's picks around it are mapped REMOTE with it:
 * basic blocks 0 and 1 are REMOTE when basic block 2 faults, so {0..3} is
 * 3/4 occupied and basic block 3 comes along (at 4 KB each fault also brings
 * the rest of its basic block). It stays REMOTE (nothing migrates), its
 * first access takes no fault, and loads and stores from either side see
 * the same data.
 */
static void test_remote_neighbours(void **state)
{
	static const char *const opts[] = {
	    "migrate=always", "ts=8", "prefetch=tree", "link=unlimited", "fault-latency=0",
	    NO_SAMPLING,      NULL};
	const size_t per_block = UVM_BASIC_SIZE / sizeof(uint64_t), basic = UVM_BLOCKS_PER_BASIC;
	struct th_emu t;
	uint64_t *host;
	volatile uint64_t *dev;

	dev = start_filled(&t, opts, 5, &host);
	for (size_t b = 0; b < 3; b++)
		assert_int_equal(dev[b * per_block + 1], b * per_block * 31 + 31 + 5);
	assert_int_equal(th_stats(&t).blocks_remote_prefetched, 3 * (basic - 1) + basic);
	assert_int_equal(th_stats(&t).blocks_remote, 4 * basic);
	assert_int_equal(uvm_driver_remote_blocks(t.e->driver), 4 * basic);
	assert_int_equal(th_stats(&t).blocks_h2d, 0);
	/* Basic block 3 was mapped with 2: reading it maps nothing more. */
	assert_int_equal(dev[3 * per_block + 2], (3 * per_block + 2) * 31 + 5);
	assert_int_equal(th_stats(&t).blocks_remote, 4 * basic);
	/* A CPU store to it is seen by the GPU, and a GPU store by the CPU;
	 * nothing migrates. */
	host[3 * per_block + 3] = 77;
	assert_int_equal(dev[3 * per_block + 3], 77);
	dev[3 * per_block + 4] = 78;
	assert_int_equal(host[3 * per_block + 4], 78);
	assert_int_equal(th_stats(&t).blocks_h2d, 0);
	assert_int_equal(th_stats(&t).blocks_remote_written_back, th_shared_frames(&t) ? 0 : 1);
	host[3 * per_block + 3] = (3 * per_block + 3) * 31 + 5;
	host[3 * per_block + 4] = (3 * per_block + 4) * 31 + 5;
	assert_int_equal(check(dev, 5), 0);
	assert_int_equal(check(host, 5), 0);
	th_stop(&t);
}

static void test_read_mostly_duplicates(void **state)
{
	static const char *const opts[] = {"link=unlimited", "fault-latency=0", NULL};
	struct th_emu t;
	uint64_t *host, *dev;
	struct uvm_stats st;

	dev = start_filled(&t, opts, 4, &host);
	assert_int_equal(uvm_emu_advise(t.e, host, BYTES, cudaMemAdviseSetReadMostly, 0), 0);
	assert_int_equal(check(dev, 4), 0);
	st = th_stats(&t);
	assert_int_equal(st.blocks_duplicated, BYTES / UVM_BLOCK_SIZE);
	assert_int_equal(st.peak_device_bytes, BYTES); /* duplicates are device memory */
	/* Both sides read their own copy; a CPU write collapses to the host. */
	assert_int_equal(check(host, 4), 0);
	host[1] = 99;
	assert_int_equal(dev[1], 99);
	/* A GPU write collapses to the device. */
	dev[WORDS - 1] = 42;
	assert_int_equal(host[WORDS - 1], 42);
	th_stop(&t);
}

static void test_preferred_location_and_accessed_by(void **state)
{
	static const char *const opts[] = {"link=unlimited", "fault-latency=0",
					   "remote-sample-period=1ms", NULL};
	struct th_emu t;
	uint64_t *a, *b, *c;
	struct uvm_stats st;

	th_start(&t, opts);
	a = th_managed(&t, BYTES);
	b = th_managed(&t, BYTES);
	c = th_managed(&t, BYTES);
	fill(a, 5);
	fill(b, 6);
	fill(c, 7);
	assert_int_equal(
	    uvm_emu_advise(t.e, a, BYTES, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId), 0);
	assert_int_equal(uvm_emu_advise(t.e, b, BYTES, cudaMemAdviseSetAccessedBy, 0), 0);
	assert_int_equal(uvm_emu_advise(t.e, c, BYTES, cudaMemAdviseSetPreferredLocation, 0), 0);
	assert_int_equal(check(th_dev(&t, a), 5), 0);
	assert_int_equal(check(th_dev(&t, b), 6), 0);
	assert_int_equal(check(th_dev(&t, c), 7), 0);
	st = th_stats(&t);
	/* a and b stay on the host, read remotely (sampling may have counted
	 * some twice by now); c moved. */
	assert_true(st.blocks_remote >= 2 * BYTES / UVM_BLOCK_SIZE);
	assert_int_equal(st.blocks_h2d, BYTES / UVM_BLOCK_SIZE);
	/* Unset: the next far fault migrates a's first 64 KB (the tree
	 * prefetcher's smallest region). A CPU write drops the copy backend's
	 * remote copy of block 0; under remap it lands in the shared frames,
	 * and block 0 faults again once sampling has unmapped it. */
	assert_int_equal(uvm_emu_advise(t.e, a, BYTES, cudaMemAdviseUnsetPreferredLocation, 0), 0);
	a[0] = 1;
	await_sampling(&t);
	assert_int_equal(((volatile uint64_t *)th_dev(&t, a))[0], 1);
	assert_int_equal(th_stats(&t).blocks_h2d, BYTES / UVM_BLOCK_SIZE + UVM_BLOCKS_PER_BASIC);
	th_stop(&t);
}

static void test_prefetch_both_ways(void **state)
{
	static const char *const opts[] = {"link=unlimited", "fault-latency=0", NULL};
	struct th_emu t;
	uint64_t *host, *dev;
	struct uvm_stats before, after;

	dev = start_filled(&t, opts, 8, &host);
	assert_int_equal(uvm_emu_prefetch(t.e, host, BYTES, 0), 0);
	assert_int_equal(uvm_emu_synchronize(t.e), 0);
	before = th_stats(&t);
	assert_int_equal(before.blocks_prefetch_api, BYTES / UVM_BLOCK_SIZE);
	assert_int_equal(before.bytes_h2d, BYTES);
	assert_int_equal(check(dev, 8), 0);
	after = th_stats(&t);
	assert_int_equal(after.gpu_faults, before.gpu_faults); /* nothing faulted */
	/* Back to the host: the CPU reads without faults. */
	assert_int_equal(uvm_emu_prefetch(t.e, dev, BYTES, cudaCpuDeviceId), 0);
	assert_int_equal(uvm_emu_synchronize(t.e), 0);
	assert_int_equal(check(host, 8), 0);
	assert_int_equal(th_stats(&t).cpu_faults, after.cpu_faults);
	assert_int_equal(th_stats(&t).bytes_d2h, BYTES);
	/* A range outside any allocation is refused. */
	assert_int_equal(uvm_emu_prefetch(t.e, host, 2 * BYTES, 0), -EINVAL);
	th_stop(&t);
}

static void test_zero_copy_host_memory(void **state)
{
	static const char *const opts[] = {"link=unlimited", "fault-latency=0", NO_SAMPLING, NULL};
	struct th_emu t;
	uint64_t *host, *dev;
	struct uvm_stats st;

	th_start(&t, opts);
	assert_int_equal(uvm_emu_alloc(t.e, UVM_PTR_HOST_PINNED, BYTES, (void **)&host), 0);
	assert_int_equal(uvm_emu_classify(t.e, host), UVM_PTR_HOST_PINNED);
	dev = th_dev(&t, host);
	fill(host, 9);
	assert_int_equal(check(dev, 9), 0);
	st = th_stats(&t);
	assert_int_equal(st.blocks_remote, BYTES / UVM_BLOCK_SIZE);
	assert_int_equal(st.bytes_h2d, 0);
	/* Zero-copy memory is no managed footprint. */
	assert_int_equal(atomic_load(&t.session.managed_bytes), 0);
	assert_int_equal(uvm_emu_free(t.e, UVM_PTR_HOST_PINNED, host), 0);
	th_stop(&t);
}

static void test_duplicates_evicted_under_pressure(void **state)
{
	static const char *const opts[] = {"device-mem=2M", "link=unlimited", "fault-latency=0",
					   NULL};
	struct th_emu t;
	uint64_t *ro, *rw;
	size_t n = (4u << 20) / sizeof(uint64_t);

	th_start(&t, opts);
	ro = th_managed(&t, 4u << 20);
	rw = th_managed(&t, 4u << 20);
	for (size_t i = 0; i < n; i++)
		ro[i] = rw[i] = i;
	assert_int_equal(uvm_emu_advise(t.e, ro, 4u << 20, cudaMemAdviseSetReadMostly, 0), 0);
	for (int pass = 0; pass < 2; pass++) {
		volatile uint64_t *dro = th_dev(&t, ro), *drw = th_dev(&t, rw);

		for (size_t i = 0; i < n; i += 512) {
			assert_int_equal(dro[i], i);
			drw[i] += dro[i];
		}
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rw[i], i % 512 ? i : 3 * i);
	assert_true(th_stats(&t).blocks_evicted > 0);
	th_stop(&t);
}

/* The kernel may unmap pages of shared frames behind the driver's back
 * (reclaim, DAMON's pageout): the next access must map them again, not fault
 * for ever, whether the block is DEVICE, REMOTE or DUPLICATED. */
static void test_pages_unmapped_behind_our_back(void **state)
{
	static const char *const opts[] = {"link=unlimited", "fault-latency=0", NO_SAMPLING, NULL};
	struct th_emu t;
	uint64_t *dev_data, *rem_data, *dup_data;
	const char *cap = getenv("UVMEMU_FAULT_CAPTURE");

	/* Under mprotect a protection is the mapping: reclaim dropping a page
	 * leaves it accessible (it refaults from the page cache in the
	 * kernel), so no mapping is lost behind the driver's back. */
	if (cap && strcmp(cap, "mprotect") == 0)
		skip();
	th_start(&t, opts);
	dev_data = th_managed(&t, BYTES);
	rem_data = th_managed(&t, BYTES);
	dup_data = th_managed(&t, BYTES);
	fill(dev_data, 11);
	fill(rem_data, 12);
	fill(dup_data, 13);
	assert_int_equal(uvm_emu_advise(t.e, rem_data, BYTES, cudaMemAdviseSetAccessedBy, 0), 0);
	assert_int_equal(uvm_emu_advise(t.e, dup_data, BYTES, cudaMemAdviseSetReadMostly, 0), 0);
	for (int round = 0; round < 2; round++) {
		uint64_t *p[] = {dev_data, rem_data, dup_data};

		for (int i = 0; i < 3; i++) {
			volatile uint64_t *d = th_dev(&t, p[i]);

			assert_int_equal(check(d, 11 + (uint64_t)i), 0);
			/* Pages out what the device view maps: reclaim unmaps shared
			 * pages even where it cannot free them. */
			if (madvise((void *)d, BYTES, MADV_PAGEOUT) && errno == EINVAL) {
				th_stop(&t);
				skip();
			}
		}
	}
	assert_int_equal(check(dev_data, 11), 0);
	/* Under remap those faults found pages unmapped behind the driver: no
	 * far faults. (Private device frames fault back in by themselves.) */
	if (th_shared_frames(&t))
		assert_true(th_stats(&t).refreshed_faults > 0);
	th_stop(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pin_host_reads_remotely),
	    cmocka_unit_test(test_remote_stores),
	    cmocka_unit_test(test_store_faults_migrate),
	    cmocka_unit_test(test_sampled_counts_reach_threshold),
	    cmocka_unit_test(test_remote_neighbours),
	    cmocka_unit_test(test_read_mostly_duplicates),
	    cmocka_unit_test(test_preferred_location_and_accessed_by),
	    cmocka_unit_test(test_prefetch_both_ways),
	    cmocka_unit_test(test_zero_copy_host_memory),
	    cmocka_unit_test(test_duplicates_evicted_under_pressure),
	    cmocka_unit_test(test_pages_unmapped_behind_our_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
