// SPDX-License-Identifier: MIT
/*
 * Description: the link throttle under --clock real (the model clock waits
 * for nothing: test_gpu_clock.c checks what it computes). Moving N bytes host
 * to device through far faults takes at least N / bandwidth (the dilated
 * bandwidth when a dilation is set), and the wait shows as throttle time.
 * Checked as a lower bound with a margin: the model promises operations never
 * finish early.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "clock.h"
#include "harness.h"

#define BYTES (16u << 20)

static double move(const char *const *opts, struct uvm_stats *st)
{
	struct th_emu t;
	uint8_t *host, *dev;
	uint64_t t0, sum = 0, batches0;

	th_start(&t, opts);
	host = th_managed(&t, BYTES);
	for (size_t i = 0; i < BYTES; i++)
		host[i] = (uint8_t)((i >> 12) | 1); /* the pages read below are not zero */
	dev = th_dev(&t, host);
	/* The host's writes above fault too: only the device's batches are
	 * timed below. */
	batches0 = th_stats(&t).batches;
	t0 = uvm_now_ns();
	for (size_t i = 0; i < BYTES; i += 4096)
		sum += dev[i];
	*st = th_stats(&t);
	st->batches -= batches0;
	th_stop(&t);
	assert_true(sum > 0);
	return (double)(uvm_now_ns() - t0) / 1e9;
}

static void test_transfer_not_faster_than_link(void **state)
{
	static const char *const opts[] = {"clock=real", "link-bw=100M", "fault-latency=0", NULL};
	struct uvm_stats st;
	double s = move(opts, &st), floor = (double)BYTES / 100e6;

	printf("16 MiB over a 100 MB/s link: %.3f s (model floor %.3f s)\n", s, floor);
	assert_int_equal(st.bytes_h2d, BYTES);
	assert_true(s >= 0.95 * floor);
	assert_true(st.ns.throttle > 0);
}

static void test_dilation_scales_bandwidth(void **state)
{
	static const char *const opts[] = {"clock=real", "link-bw=400M", "dilation=4",
					   "fault-latency=0", NULL};
	struct uvm_stats st;
	double s = move(opts, &st), floor = (double)BYTES / (400e6 / 4);

	printf("16 MiB over 400 MB/s at dilation 4: %.3f s (model floor %.3f s)\n", s, floor);
	assert_true(s >= 0.95 * floor);
}

static void test_fault_latency_per_batch(void **state)
{
	static const char *const opts[] = {"clock=real", "link=unlimited", "fault-latency=2ms",
					   NULL};
	struct uvm_stats st;
	double s = move(opts, &st);

	/* One thread faults sequentially: every batch pays the latency. */
	printf("%llu batches at 2 ms each: %.3f s\n", (unsigned long long)st.batches, s);
	assert_true(st.batches > 0);
	assert_true(s >= 0.95 * (double)st.batches * 2e-3);
	assert_true(st.ns.fault_latency > 0);
}

/* The injected stages are what the model planned, whatever the host's
 * scheduler did: a wake-up past the deadline is late_wake's, so the planned
 * waits never add up to more than the link's time plus each batch's latency.
 * (Before late_wake, the throttle held the lateness too.) */
static void test_planned_waits_within_model(void **state)
{
	static const char *const opts[] = {"clock=real", "link-bw=100M", "link-latency=1us",
					   "fault-latency=50us", NULL};
	struct uvm_stats st;
	double s = move(opts, &st);
	double planned = (double)(st.ns.throttle + st.ns.fault_latency) / 1e9;
	double model = (double)BYTES / 100e6 + (double)st.batches * (1e-6 + 50e-6);

	printf("planned waits %.3f s, late wakes %.3f s (%llu batches), model at most %.3f s, "
	       "run %.3f s\n",
	       planned, (double)st.ns.late_wake / 1e9, (unsigned long long)st.late_wakes, model, s);
	assert_true(planned <= model * 1.001 + 1e-4);
	assert_true(st.late_wakes <= st.modelled_batches);
}

/* uvm_wait_until never returns early, sleeping or spinning. */
static void test_wait_until_never_early(void **state)
{
	static const uint64_t waits_ns[] = {0, 1000, 30000, 79000, 81000, 200000, 2000000};

	for (size_t i = 0; i < sizeof(waits_ns) / sizeof(waits_ns[0]); i++) {
		for (int rep = 0; rep < 20; rep++) {
			uint64_t deadline = uvm_now_ns() + waits_ns[i];

			uvm_wait_until(deadline);
			assert_true(uvm_now_ns() >= deadline);
		}
	}
	assert_non_null(uvm_clock_precise_thread());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_transfer_not_faster_than_link),
	    cmocka_unit_test(test_dilation_scales_bandwidth),
	    cmocka_unit_test(test_fault_latency_per_batch),
	    cmocka_unit_test(test_planned_waits_within_model),
	    cmocka_unit_test(test_wait_until_never_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
