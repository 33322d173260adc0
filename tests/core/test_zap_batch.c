// SPDX-License-Identifier: MIT
/*
 * Description: batched zaps (uvm_uffd_zapv: one process_madvise over several
 * runs where the kernel has it) leave no view mapped that the state says is
 * unmapped. A prefetch to the device of a vablock whose HOST blocks form 16
 * runs zaps their host view in one batch: a CPU read of each block then still
 * faults and brings that block (alone: --prefetch none) back. An eviction of
 * a victim whose DEVICE blocks form 16 runs zaps their device view in one
 * batch: a GPU read of each then still faults and brings it back. A CPU
 * fault on a DEVICE block brings back what the tree prefetcher picks around
 * it (exact counts for a sequential read of a vablock, and a region with a
 * hole: two runs in one batched zap). Data survives every way. Written for
 * either migration unit (core_zap_batch_*_4k): a vablock's blocks, and the
 * 64 KB basic blocks the tree prefetcher fills first at 4 KB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness.h"

#define BLOCKS	  UVM_BLOCKS_PER_VABLOCK /* one vablock */
#define PER_BLOCK (UVM_BLOCK_SIZE / sizeof(uint32_t))
#define STEP	  (PER_BLOCK / 16) /* words between the GPU's stores in a block */
#define BASIC	  UVM_BLOCKS_PER_BASIC
#define PER_BASIC (BASIC * PER_BLOCK)

static void test_cpu_read_faults_after_batched_host_zap(void **state_)
{
	static const char *const opts[] = {"device-mem=16M", "link=unlimited", "fault-latency=0",
					   "prefetch=none", NULL};
	struct th_emu t;
	uint32_t *host, *dev;

	th_start(&t, opts);
	host = th_managed(&t, BLOCKS * UVM_BLOCK_SIZE);
	dev = th_dev(&t, host);
	for (size_t i = 0; i < BLOCKS * PER_BLOCK; i++)
		host[i] = (uint32_t)(i * 3 + 7); /* all HOST */
	/* The odd blocks go to the device one fault at a time... */
	for (size_t b = 1; b < BLOCKS; b += 2)
		assert_int_equal(dev[b * PER_BLOCK], (uint32_t)(b * PER_BLOCK * 3 + 7));
	for (size_t b = 0; b < BLOCKS; b++)
		assert_int_equal(th_block_state(&t, &host[b * PER_BLOCK]),
				 b % 2 ? UVM_DEVICE : UVM_HOST);
	/* ...then the even runs in one prefetch: one batched host zap. */
	assert_int_equal(uvm_emu_prefetch(t.e, host, BLOCKS * UVM_BLOCK_SIZE, 0), 0);
	uvm_emu_synchronize(t.e);
	for (size_t b = 0; b < BLOCKS; b++)
		assert_int_equal(th_block_state(&t, &host[b * PER_BLOCK]), UVM_DEVICE);
	/* Each CPU read faults: its block, and only it, comes back. */
	for (size_t b = 0; b < BLOCKS; b++) {
		uint64_t faults = th_stats(&t).cpu_faults;

		assert_int_equal(host[b * PER_BLOCK + 5], (uint32_t)((b * PER_BLOCK + 5) * 3 + 7));
		assert_true(th_stats(&t).cpu_faults > faults);
		assert_int_equal(th_block_state(&t, &host[b * PER_BLOCK]), UVM_HOST);
		if (b + 1 < BLOCKS)
			assert_int_equal(th_block_state(&t, &host[(b + 1) * PER_BLOCK]),
					 UVM_DEVICE);
	}
	th_stop(&t);
}

static void test_gpu_read_faults_after_batched_device_zap(void **state_)
{
	/* One vablock of device memory: the second allocation evicts the first. */
	static const char *const opts[] = {"device-mem=2M", "link=unlimited", "fault-latency=0",
					   "prefetch=none", NULL};
	struct th_emu t;
	uint32_t *a, *da, *b2, *db;

	th_start(&t, opts);
	a = th_managed(&t, BLOCKS * UVM_BLOCK_SIZE);
	b2 = th_managed(&t, BLOCKS * UVM_BLOCK_SIZE);
	da = th_dev(&t, a);
	db = th_dev(&t, b2);
	/* The GPU writes the odd blocks of a: BLOCKS / 2 DEVICE runs. */
	for (size_t b = 1; b < BLOCKS; b += 2)
		for (size_t i = 0; i < PER_BLOCK; i += STEP)
			da[b * PER_BLOCK + i] = (uint32_t)(b * 1000 + i);
	/* The GPU fills b2: a is the victim, its runs zapped in one batch. */
	for (size_t i = 0; i < BLOCKS * PER_BLOCK; i += 1024)
		db[i] = (uint32_t)i;
	assert_true(th_stats(&t).blocks_evicted >= BLOCKS / 2);
	for (size_t b = 1; b < BLOCKS; b += 2)
		assert_int_equal(th_block_state(&t, &a[b * PER_BLOCK]), UVM_HOST);
	/* Each GPU read of a's blocks faults and brings it back. */
	for (size_t b = 1; b < BLOCKS; b += 2) {
		uint64_t in = th_stats(&t).blocks_h2d;

		assert_int_equal(da[b * PER_BLOCK + STEP], (uint32_t)(b * 1000 + STEP));
		assert_int_equal(th_stats(&t).blocks_h2d, in + 1);
		assert_int_equal(th_block_state(&t, &a[b * PER_BLOCK]), UVM_DEVICE);
	}
	th_stop(&t);
}

static uint32_t *gpu_filled_vablock(struct th_emu *t)
{
	uint32_t *host = th_managed(t, BLOCKS * UVM_BLOCK_SIZE), *dev = th_dev(t, host);

	for (size_t i = 0; i < BLOCKS * PER_BLOCK; i += 512)
		dev[i] = (uint32_t)(i ^ 0x5a5a);
	for (size_t b = 0; b < BLOCKS; b++)
		assert_int_equal(th_block_state(t, &host[b * PER_BLOCK]), UVM_DEVICE);
	return host;
}

static void test_cpu_fault_brings_back_the_tree_region(void **state_)
{
	static const char *const opts[] = {"device-mem=16M",	    "link=unlimited",
					   "fault-latency=0",	    "prefetch=tree",
					   "prefetch-threshold=51", NULL};
	struct th_emu t;
	uint32_t *host;
	uint64_t d2h;

	th_start(&t, opts);
	host = gpu_filled_vablock(&t);
	d2h = th_stats(&t).blocks_d2h;
	/* A sequential read: faults at basic blocks 0, 1, 2, 4, 8, 16 bring back
	 * 1 + 3 + 7 + 15 basic blocks more (each a region just over half on the
	 * host), and at 4 KB the rest of each faulted basic block: all but the
	 * six faulted blocks come as a prefetch. */
	for (size_t i = 0; i < BLOCKS * PER_BLOCK; i += 512)
		assert_int_equal(host[i], (uint32_t)(i ^ 0x5a5a));
	assert_int_equal(th_stats(&t).blocks_cpu_prefetched, BLOCKS - 6);
	assert_int_equal(th_stats(&t).blocks_d2h - d2h, BLOCKS);
	for (size_t b = 0; b < BLOCKS; b++)
		assert_int_equal(th_block_state(&t, &host[b * PER_BLOCK]), UVM_HOST);
	th_stop(&t);
}

static void test_cpu_fault_region_with_a_hole(void **state_)
{
	static const char *const opts[] = {"device-mem=16M",	    "link=unlimited",
					   "fault-latency=0",	    "prefetch=tree",
					   "prefetch-threshold=51", NULL};
	struct th_emu t;
	uint32_t *host;

	th_start(&t, opts);
	host = gpu_filled_vablock(&t);
	/* Basic blocks 0 and 2 come back alone (half of [0, 4) is not more
	 * than 51%; at 4 KB each fault brings the rest of its basic block)... */
	assert_int_equal(host[0], 0x5a5a);
	assert_int_equal(host[2 * PER_BASIC], (uint32_t)((2 * PER_BASIC) ^ 0x5a5a));
	assert_int_equal(th_stats(&t).blocks_cpu_prefetched, 2 * (BASIC - 1));
	assert_int_equal(th_block_state(&t, &host[3 * PER_BASIC]), UVM_DEVICE);
	/* ...then basic block 1 fills [0, 4) to 3/4: basic block 3 comes with
	 * it, two runs. */
	assert_int_equal(host[PER_BASIC], (uint32_t)(PER_BASIC ^ 0x5a5a));
	assert_int_equal(th_stats(&t).blocks_cpu_prefetched, 3 * (BASIC - 1) + BASIC);
	assert_int_equal(th_block_state(&t, &host[3 * PER_BASIC]), UVM_HOST);
	assert_int_equal(th_block_state(&t, &host[4 * PER_BASIC]), UVM_DEVICE);
	assert_int_equal(host[3 * PER_BASIC], (uint32_t)((3 * PER_BASIC) ^ 0x5a5a));
	/* Basic block 4 is still on the device: a CPU read faults for it. */
	assert_int_equal(host[4 * PER_BASIC], (uint32_t)((4 * PER_BASIC) ^ 0x5a5a));
	assert_int_equal(th_block_state(&t, &host[4 * PER_BASIC]), UVM_HOST);
	th_stop(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpu_read_faults_after_batched_host_zap),
	    cmocka_unit_test(test_gpu_read_faults_after_batched_device_zap),
	    cmocka_unit_test(test_cpu_fault_brings_back_the_tree_region),
	    cmocka_unit_test(test_cpu_fault_region_with_a_hole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
