// SPDX-License-Identifier: MIT
/*
 * Description: while GPU-side threads stream over three times the device
 * memory, a sampler reads the device view's resident set from
 * /proc/self/smaps; it never exceeds the device capacity, proof that eviction
 * really frees frames (under remap: unmaps them from the device view), and
 * it does reach most of it, proof that the sampler saw the device in use. The
 * same holds when half the data is read-duplicated (read-mostly advice):
 * DEVICE and DUPLICATED blocks together stay within capacity. Freeing the
 * allocation returns every frame.
 *
 * smaps walks the page tables without a snapshot: read while the driver swaps
 * a victim for a new block, one walk could count both. The sampler therefore
 * reads between two of the driver's batches (uvm_driver_call).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <cmocka.h>

#include "harness.h"

#define DEVICE_MEM (8ull << 20)
#define FOOTPRINT  (24ull << 20)

struct run {
	struct th_emu *t;
	uint64_t *dev;
	const uint64_t *ro; /* read-mostly data the writers also read, or NULL */
	size_t n;
	_Atomic int writers_finished; /* of the three */
	uint64_t max_rss, samples;
};

static void sample(void *arg)
{
	struct run *r = arg;
	uint64_t rss = th_device_rss(r->t);

	if (rss > r->max_rss)
		r->max_rss = rss;
	r->samples++;
}

static void worker(int i, void *arg)
{
	struct run *r = arg;

	if (i == 0) {
		/* The sampler. */
		struct timespec ms = {0, 500000};

		while (atomic_load(&r->writers_finished) < 3) {
			uvm_driver_call(r->t->e->driver, sample, r);
			nanosleep(&ms, NULL);
		}
		return;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = (size_t)(i - 1) * 8192; k < r->n; k += 3 * 8192)
			for (size_t w = k; w < k + 8192 && w < r->n; w++)
				r->dev[w] += r->ro ? r->ro[w] : (uint64_t)w;
	atomic_fetch_add(&r->writers_finished, 1);
}

static void test_rss_bounded_by_capacity(void **state)
{
	static const char *const opts[] = {"device-mem=8M", "link=unlimited", "fault-latency=0",
					   NULL};
	struct th_emu t;
	struct run r = {.t = &t};
	struct stat sb;
	uint64_t *host;

	th_start(&t, opts);
	host = th_managed(&t, FOOTPRINT);
	r.dev = th_dev(&t, host);
	r.n = FOOTPRINT / sizeof(uint64_t);
	th_parallel(4, worker, &r);
	printf("device rss: max %llu bytes over %llu samples (capacity %llu)\n",
	       (unsigned long long)r.max_rss, (unsigned long long)r.samples,
	       (unsigned long long)DEVICE_MEM);
	assert_true(r.samples > 0);
	assert_true(r.max_rss <= DEVICE_MEM);
	assert_true(r.max_rss >= DEVICE_MEM / 2);
	assert_true(th_stats(&t).blocks_evicted > 0);

	/* Free returns everything: no device frames, no host frames. */
	assert_int_equal(uvm_emu_free(t.e, UVM_PTR_MANAGED, host), 0);
	assert_int_equal(th_device_rss(&t), 0);
	assert_int_equal(fstat(t.e->arena.memfd, &sb), 0);
	assert_int_equal(sb.st_blocks, 0);
	th_stop(&t);
}

static void test_rss_bounded_with_duplicates(void **state)
{
	static const char *const opts[] = {"device-mem=8M", "link=unlimited", "fault-latency=0",
					   NULL};
	struct th_emu t;
	struct run r = {.t = &t};
	uint64_t *host, *ro;

	th_start(&t, opts);
	host = th_managed(&t, FOOTPRINT / 2);
	ro = th_managed(&t, FOOTPRINT / 2);
	r.n = FOOTPRINT / 2 / sizeof(uint64_t);
	for (size_t w = 0; w < r.n; w++)
		ro[w] = 3 * w;
	assert_int_equal(uvm_emu_advise(t.e, ro, FOOTPRINT / 2, cudaMemAdviseSetReadMostly, 0), 0);
	r.dev = th_dev(&t, host);
	r.ro = th_dev(&t, ro);
	th_parallel(4, worker, &r);
	printf("device rss with duplicates: max %llu bytes over %llu samples (capacity %llu)\n",
	       (unsigned long long)r.max_rss, (unsigned long long)r.samples,
	       (unsigned long long)DEVICE_MEM);
	assert_true(r.samples > 0);
	assert_true(r.max_rss <= DEVICE_MEM);
	assert_true(th_stats(&t).blocks_duplicated > 0);
	assert_true(th_stats(&t).blocks_evicted > 0);
	for (size_t w = 0; w < r.n; w++)
		assert_int_equal(host[w], 2 * 3 * w);
	th_stop(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rss_bounded_by_capacity),
	    cmocka_unit_test(test_rss_bounded_with_duplicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
