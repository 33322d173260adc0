// SPDX-License-Identifier: MIT
/*
 * Description: GPU-side threads write a pattern over a managed footprint of
 * 1.5x device memory through the device view; the host then reads every word
 * back intact. Eviction must have happened (blocks_evicted > 0) and moved data
 * device to host (bytes_d2h > 0); the device never held more than its capacity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

/* The same, with the write-back racing random victim choice. */
static void test_pattern_survives_random_eviction(void **state)
{
	static const char *const opts[] = {"device-mem=8M", "evict=random", "link=unlimited",
					   "fault-latency=0", NULL};
	struct th_emu t;
	uint64_t *host;
	struct job j;
	size_t bad = 0;

	th_start(&t, opts);
	host = th_managed(&t, FOOTPRINT);
	j = (struct job){th_dev(&t, host), FOOTPRINT / sizeof(uint64_t)};
	th_parallel(THREADS, gpu_write, &j);
	/* A second GPU pass reads what the first wrote, from evicted blocks too. */
	for (size_t i = 0; i < j.n; i += 512)
		bad += j.dev[i] != pattern(i);
	for (size_t i = 0; i < j.n; i++)
		bad += host[i] != pattern(i);
	assert_int_equal(bad, 0);
	assert_true(th_stats(&t).blocks_evicted > 0);
	th_stop(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pattern_survives_eviction),
	    cmocka_unit_test(test_pattern_survives_random_eviction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
