// SPDX-License-Identifier: MIT
/*
 * Description: GPU-side threads write a pattern over a managed footprint of
 * 1.5x device memory through the device view; the host then reads every word
 * back intact. Eviction must have happened (blocks_evicted > 0) and moved data
 * device to host (bytes_d2h > 0); the device never held more than its capacity.
 * So too, with a second GPU pass over every word, under random, NRU and
 * Sequential-local victims and under ETC's proactive eviction.
 * ETC's proactive eviction evicts exactly the blocks its rule says, ahead
 * of need, on a sequence of one fault per batch, and never the vablock the
 * batch before it just filled.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "harness.h"

#define DEVICE_MEM (8u << 20)
#define FOOTPRINT  (12u << 20)
#define THREADS	   4

struct job {
	uint64_t *dev;
	size_t n;
};

static uint64_t pattern(size_t i)
{
	return (uint64_t)i * 0x9e3779b97f4a7c15ull ^ 0x5a5a;
}

/* Interleaved 64 KB chunks, so every thread sweeps the whole footprint and
 * faults from several threads meet in batches. */
static void gpu_write(int t, void *arg)
{
	struct job *j = arg;
	size_t chunk = (64u << 10) / sizeof(uint64_t);

	for (size_t c = (size_t)t * chunk; c < j->n; c += THREADS * chunk)
		for (size_t i = c; i < c + chunk && i < j->n; i++)
			j->dev[i] = pattern(i);
}

static void test_pattern_survives_eviction(void **state)
{
	static const char *const opts[] = {"device-mem=8M", "link=unlimited", "fault-latency=0",
					   NULL};
	struct th_emu t;
	struct uvm_stats st;
	uint64_t *host;
	struct job j;
	size_t bad = 0;

	th_start(&t, opts);
	host = th_managed(&t, FOOTPRINT);
	j = (struct job){th_dev(&t, host), FOOTPRINT / sizeof(uint64_t)};
	th_parallel(THREADS, gpu_write, &j);
	for (size_t i = 0; i < j.n; i++)
		bad += host[i] != pattern(i);
	st = th_stats(&t);
	assert_int_equal(bad, 0);
	assert_true(st.blocks_evicted > 0);
	assert_true(st.bytes_d2h > 0);
	assert_true(st.gpu_faults > 0);
	assert_true(st.peak_device_bytes <= DEVICE_MEM);
	th_stop(&t);
}

/*
 * The same under victim policy EVICT (and ETC's reserve when given), with
 * the write-back racing the victim choice: a second GPU pass reads every
 * word the first wrote, from evicted blocks too, and the host reads them
 * all after it. A policy that hands the driver a block it must not evict,
 * or the same block twice, loses words here.
 */
static void pattern_survives(const char *evict, const char *reserve)
{
	char ev[64], pe[64];
	const char *opts[] = {"device-mem=8M",	  "link=unlimited", "fault-latency=0", ev,
			      reserve ? pe : NULL, NULL};
	struct th_emu t;
	uint64_t *host;
	struct job j;
	size_t bad = 0;

	snprintf(ev, sizeof(ev), "evict=%s", evict);
	snprintf(pe, sizeof(pe), "proactive-evict=%s", reserve ? reserve : "0");
	th_start(&t, opts);
	host = th_managed(&t, FOOTPRINT);
	j = (struct job){th_dev(&t, host), FOOTPRINT / sizeof(uint64_t)};
	th_parallel(THREADS, gpu_write, &j);
	for (size_t i = 0; i < j.n; i++)
		bad += j.dev[i] != pattern(i);
	for (size_t i = 0; i < j.n; i++)
		bad += host[i] != pattern(i);
	assert_int_equal(bad, 0);
	assert_true(th_stats(&t).blocks_evicted > 0);
	if (reserve)
		assert_true(th_stats(&t).blocks_proactive_evicted > 0);
	assert_true(th_stats(&t).peak_device_bytes <= DEVICE_MEM);
	th_stop(&t);
}

static void test_pattern_survives_random_eviction(void **state)
{
	(void)state;
	pattern_survives("random", NULL);
}

/* UVMMU's comparators (Fig. 5). */
static void test_pattern_survives_nru_eviction(void **state)
{
	(void)state;
	pattern_survives("nru", NULL);
}

static void test_pattern_survives_seq_local_eviction(void **state)
{
	(void)state;
	pattern_survives("seq-local", NULL);
}

/* ETC's proactive eviction: write-backs no fault waits for. */
static void test_pattern_survives_proactive_eviction(void **state)
{
	(void)state;
	pattern_survives("lru2m", "64K");
}

/* One GPU thread touches one word of each migration unit (64 KB, or 4 KB
 * in the 4 KB build) in address order, so that every batch holds one
 * fault of one unit. */
static void gpu_touch(int t, void *arg)
{
	struct job *j = arg;

	(void)t;
	for (size_t off = 0; off < j->n * sizeof(uint64_t); off += UVMEMU_BLOCK_SIZE)
		((volatile uint64_t *)j->dev)[off / sizeof(uint64_t)] = pattern(off);
}

/* The sequential touch with --proactive-evict RESERVE on GPU `gpu` of
 * gpu + 1: the blocks the device evicted and, of those, the blocks evicted
 * ahead of need. */
static void proactive_run(const char *reserve, unsigned gpu, uint64_t *evicted, uint64_t *proactive)
{
	char opt[64], gpus[32];
	const char *opts[] = {"device-mem=8M",	"prefetch=none",   "evict=lru2m", opt,
			      "link=unlimited", "fault-latency=0", gpus,	  NULL};
	struct th_emu t;
	struct uvm_stats st;
	uint64_t *host;
	struct job j;
	size_t bad = 0;

	snprintf(opt, sizeof(opt), "proactive-evict=%s", reserve);
	snprintf(gpus, sizeof(gpus), "gpus=%u", gpu + 1);
	th_start(&t, opts);
	host = th_managed(&t, FOOTPRINT);
	j = (struct job){th_dev_g(&t, host, gpu), FOOTPRINT / sizeof(uint64_t)};
	th_parallel(1, gpu_touch, &j);
	st = th_stats(&t);
	for (size_t off = 0; off < FOOTPRINT; off += UVMEMU_BLOCK_SIZE)
		bad += host[off / sizeof(uint64_t)] != pattern(off);
	assert_int_equal(bad, 0);
	assert_true(st.peak_device_bytes <= DEVICE_MEM);
	*evicted = st.blocks_evicted;
	*proactive = st.blocks_proactive_evicted;
	th_stop(&t);
}

/*
 * ETC's proactive eviction (--proactive-evict), on 192 blocks in order
 * through a device of 128 (4 vablocks), lru2m victims. On demand: block 128
 * evicts vablock 0, block 160 vablock 1: 64 blocks. Keeping 64 KB free:
 * nothing until memory has been full (the first 128 blocks fill it, and no
 * eviction follows them); block 128 evicts vablock 0 on demand, and after
 * the batches that take the last free block (159 and 191) the driver evicts
 * vablocks 1 and 2 ahead of need: 96 blocks, 64 of them proactively.
 */
static void test_proactive_eviction(void **state)
{
	/* The counts below are 64 KB blocks; a 4 KB build counts 16 units in
	 * each, and its reserves are the same bytes, so the same vablocks go. */
	const uint64_t u = (64u << 10) / UVMEMU_BLOCK_SIZE;
	uint64_t evicted, proactive;

	proactive_run("0", 0, &evicted, &proactive);
	assert_int_equal(evicted, 64 * u);
	assert_int_equal(proactive, 0);
	proactive_run("64K", 0, &evicted, &proactive);
	assert_int_equal(evicted, 96 * u);
	assert_int_equal(proactive, 64 * u);
	/* A reserve of a vablock and a block (33): after block 128's batch
	 * 31 blocks are free, so vablock 1 goes at once; then whenever fewer
	 * than 33 are free, after blocks 159 and 191 (vablocks 2 and 3). */
	proactive_run("2112K", 0, &evicted, &proactive);
	assert_int_equal(evicted, 128 * u);
	assert_int_equal(proactive, 96 * u);
}

/* With two GPUs, the one short of room is GPU 1 (GPU 0 holds nothing):
 * ETC keeps room on every GPU, so the same blocks go ahead of need. */
static void test_proactive_eviction_second_gpu(void **state)
{
	const uint64_t u = (64u << 10) / UVMEMU_BLOCK_SIZE;
	uint64_t evicted, proactive;

	(void)state;
	proactive_run("64K", 1, &evicted, &proactive);
	assert_int_equal(evicted, 96 * u);
	assert_int_equal(proactive, 64 * u);
}

/* Writes one word of each unit of the job's list, in its order. */
struct touch_list {
	uint64_t *dev;
	const size_t *unit;
	size_t n;
};

static void gpu_touch_list(int t, void *arg)
{
	const struct touch_list *l = arg;
	const size_t words = UVMEMU_BLOCK_SIZE / sizeof(uint64_t);

	(void)t;
	for (size_t i = 0; i < l->n; i++)
		((volatile uint64_t *)l->dev)[l->unit[i] * words] = pattern(l->unit[i]);
}

/*
 * Proactive eviction spares what the batch before it used: that batch's
 * faults have been replayed and touch their blocks next. Two vablocks of
 * device memory, a one-unit reserve, lru2m (full vablocks by age, the
 * oldest first). Vablock 0 fills and vablock 1 all but its last unit;
 * vablock 2's second unit evicts vablock 0 on demand, and vablock 2 fills.
 * Then vablock 1's last unit: it takes the last free frame, so the reserve
 * is short, and vablocks 1 (older) and 2 are both full. Evicting 1 would
 * throw out the unit just fetched and fault on it again (with workers in
 * turns, the driver always evicts before the worker's retry: the same
 * fault forever, spmv under --policy etc); 2 goes instead. Every unit
 * faults once.
 */
static void test_proactive_eviction_spares_the_batch(void **state)
{
	const size_t bpv = (2u << 20) / UVMEMU_BLOCK_SIZE;
	const char *opts[] = {
	    "device-mem=4M",  "prefetch=none",	 "evict=lru2m", "proactive-evict=4K",
	    "link=unlimited", "fault-latency=0", NULL};
	size_t *unit = calloc(3 * bpv, sizeof(*unit));
	struct th_emu t;
	struct uvm_stats st;
	struct touch_list l;
	uint64_t *host;
	size_t n = 0, bad = 0;

	(void)state;
	assert_non_null(unit);
	for (size_t u = 0; u < 3 * bpv; u++)
		if (u != 2 * bpv - 1)
			unit[n++] = u;
	unit[n++] = 2 * bpv - 1;
	th_start(&t, opts);
	host = th_managed(&t, 3 * bpv * UVMEMU_BLOCK_SIZE);
	l = (struct touch_list){th_dev(&t, host), unit, n};
	th_parallel(1, gpu_touch_list, &l);
	st = th_stats(&t);
	for (size_t u = 0; u < 3 * bpv; u++)
		bad += host[u * (UVMEMU_BLOCK_SIZE / sizeof(uint64_t))] != pattern(u);
	assert_int_equal(bad, 0);
	assert_int_equal(st.gpu_faults, 3 * bpv);
	assert_int_equal(st.blocks_proactive_evicted, bpv);
	th_stop(&t);
	free(unit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pattern_survives_eviction),
	    cmocka_unit_test(test_pattern_survives_random_eviction),
	    cmocka_unit_test(test_pattern_survives_nru_eviction),
	    cmocka_unit_test(test_pattern_survives_seq_local_eviction),
	    cmocka_unit_test(test_pattern_survives_proactive_eviction),
	    cmocka_unit_test(test_proactive_eviction),
	    cmocka_unit_test(test_proactive_eviction_second_gpu),
	    cmocka_unit_test(test_proactive_eviction_spares_the_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
