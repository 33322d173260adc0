// SPDX-License-Identifier: MIT
/*
 * Description: host threads write managed words while GPU-side threads
 * write other words of the same blocks, and device memory holds only half of
 * the data, so blocks migrate both ways and are evicted under both sides'
 * writes. Each word has one writer, which checks before every write that its
 * previous write is still there: a write lost by a migration (copy before
 * unmap) or by an eviction (copy back without write-protect) fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness.h"

#define FOOTPRINT (4u << 20)
#define WORDS	  (FOOTPRINT / sizeof(uint64_t))
#define HOSTS	  2
#define GPUS	  4
#define ROUNDS	  12
/* Whether lru2m's whole-device eviction happens in a pass depends on how the
 * CPU's pulls interleave with the GPU's faults; passes repeat until it has. */
#define MAX_PASSES 16
/* Each writer owns every STRIDE-th word from its offset: all writers meet in
 * every block. */
#define STRIDE (HOSTS + GPUS)

struct shared {
	uint64_t *host, *dev;
	int first, last; /* this pass's rounds */
	_Atomic size_t lost;
};

static uint64_t value(size_t word, int round)
{
	return ((uint64_t)round << 40) | word;
}

static void writer(int w, void *arg)
{
	struct shared *s = arg;
	/* Host writers use the host view, the others the device view. */
	uint64_t *mem = w < HOSTS ? s->host : s->dev;
	size_t lost = 0;

	for (int r = s->first; r <= s->last; r++) {
		for (size_t i = (size_t)w; i < WORDS; i += STRIDE) {
			uint64_t want = r == 1 ? 0 : value(i, r - 1);

			lost += mem[i] != want;
			mem[i] = value(i, r);
		}
	}
	atomic_fetch_add(&s->lost, lost);
}

static void run(const char *evict)
{
	const char *opts[] = {"device-mem=2M", "link=unlimited", "fault-latency=0", evict, NULL};
	struct th_emu t;
	struct shared s = {0};
	struct uvm_stats st;
	int pass = 0;

	th_start(&t, opts);
	s.host = th_managed(&t, FOOTPRINT);
	s.dev = th_dev(&t, s.host);
	do {
		size_t stale = 0;

		s.first = pass * ROUNDS + 1;
		s.last = ++pass * ROUNDS;
		th_parallel(HOSTS + GPUS, writer, &s);
		for (size_t i = 0; i < WORDS; i++)
			stale += s.host[i] != value(i, s.last);
		st = th_stats(&t);
		assert_int_equal(atomic_load(&s.lost), 0);
		assert_int_equal(stale, 0);
	} while (st.blocks_evicted == 0 && pass < MAX_PASSES);
	printf("%s: %d passes, cpu faults %llu, gpu faults %llu, evicted %llu blocks, d2h %llu "
	       "bytes\n",
	       evict, pass, (unsigned long long)st.cpu_faults, (unsigned long long)st.gpu_faults,
	       (unsigned long long)st.blocks_evicted, (unsigned long long)st.bytes_d2h);
	assert_true(st.cpu_faults > 0 && st.gpu_faults > 0);
	assert_true(st.blocks_evicted > 0);
	th_stop(&t);
}

static void test_no_write_lost_lru2m(void **state)
{
	run("evict=lru2m");
}

static void test_no_write_lost_random(void **state)
{
	run("evict=random");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_write_lost_lru2m),
	    cmocka_unit_test(test_no_write_lost_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
