// SPDX-License-Identifier: MIT
/*
 * Description: the data reuse rate per launch (CPC's metric) on launches
 * whose answer is known. The first launch finds nothing resident: rate 0,
 * exactly, under either backend. Under remap, a launch that touches every
 * resident block again hits every probe: rate 1; one that also brings in as
 * many new blocks as half the resident ones: rate 2/3. Probes leave the data
 * and the residency books intact. Under the copy backend, without accessors,
 * a launch with resident blocks is unknown (rate -1, source "none").
 * --reuse-probes bounds the blocks probed per launch; 0, the default, turns
 * probing off (rate unknown where data was resident).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness.h"
#include "reuse.h"

#define BLOCK_WORDS (UVM_BLOCK_SIZE / sizeof(uint64_t))

static void begin(struct th_emu *t, uint64_t index)
{
	struct uvmemu_launch l = {.kernel = "reuse", .grid = {1, 1, 1}, .block = {1, 1, 1}};

	assert_int_equal(uvm_emu_kernel_begin(t->e, index, &l), 0);
}

struct end_arg {
	struct uvm_reuse *reuse;
	struct uvm_reuse_launch r;
};

static void end_on_driver(void *arg)
{
	struct end_arg *a = arg;

	uvm_reuse_end(a->reuse, &a->r);
}

/* The launch's figures, as kernels.csv would have them (the measurement is
 * the driver thread's, as at a launch's end). */
static struct uvm_reuse_launch end(struct th_emu *t)
{
	struct end_arg a = {.reuse = &t->e->reuse};

	uvm_driver_call(t->e->driver, end_on_driver, &a);
	return a.r;
}

/* One word per block, read and incremented from the device side. */
static void touch(uint64_t *dev, size_t blocks)
{
	for (size_t b = 0; b < blocks; b++)
		dev[b * BLOCK_WORDS]++;
}

static void test_reuse_of_known_launches(void **state)
{
	static const char *const opts[] = {"link=unlimited", "fault-latency=0", "reuse-probes=4M",
					   NULL};
	struct th_emu t;
	uint64_t *a, *b;
	struct uvm_reuse_launch r;

	th_start(&t, opts);
	a = th_managed(&t, 64 * UVM_BLOCK_SIZE);
	b = th_managed(&t, 32 * UVM_BLOCK_SIZE);
	begin(&t, 0);
	touch(th_dev(&t, a), 64);
	r = end(&t);
	assert_int_equal(r.source, UVM_REUSE_FAULTS);
	assert_int_equal(r.touched, 64);
	assert_int_equal(r.reused, 0);
	assert_true(r.rate == 0);

	begin(&t, 1);
	touch(th_dev(&t, a), 64);
	r = end(&t);
	if (!th_shared_frames(&t)) {
		/* Private device frames cannot be probed without losing them. */
		assert_int_equal(r.source, UVM_REUSE_NONE);
		assert_true(r.rate < 0);
		th_stop(&t);
		return;
	}
	assert_int_equal(r.source, UVM_REUSE_PROBES);
	assert_true(r.probes > 0);
	assert_int_equal(r.probe_hits, r.probes);
	assert_int_equal(r.reused, 64);
	assert_true(r.rate == 1);

	begin(&t, 2);
	touch(th_dev(&t, a), 64);
	touch(th_dev(&t, b), 32);
	r = end(&t);
	assert_int_equal(r.probe_hits, r.probes);
	assert_int_equal(r.touched, 96);
	assert_int_equal(r.reused, 64);

	/* The probes moved nothing: every word is where it was counted. */
	for (size_t i = 0; i < 64; i++)
		assert_int_equal(a[i * BLOCK_WORDS], 3);
	for (size_t i = 0; i < 32; i++)
		assert_int_equal(b[i * BLOCK_WORDS], 1);
	assert_true(th_stats(&t).probe_faults >= r.probes);
	th_stop(&t);
}

/* --reuse-probes bounds the probes per launch; 0 turns them off, and the rate
 * of a launch that found data resident is then unknown. */
static void run_with_budget(const char *budget, uint64_t most)
{
	const char *const opts[] = {"link=unlimited", "fault-latency=0", budget, NULL};
	struct th_emu t;
	uint64_t *a;
	struct uvm_reuse_launch r;

	th_start(&t, opts);
	a = th_managed(&t, 64 * UVM_BLOCK_SIZE);
	begin(&t, 0);
	touch(th_dev(&t, a), 64);
	end(&t);
	begin(&t, 1);
	touch(th_dev(&t, a), 64);
	r = end(&t);
	if (th_shared_frames(&t)) {
		assert_true(r.probes <= most);
		assert_int_equal(th_stats(&t).probe_faults, r.probes);
		if (most) {
			assert_int_equal(r.source, UVM_REUSE_PROBES);
			assert_true(r.probes > 0);
			assert_true(r.rate == 1);
		} else {
			assert_int_equal(r.source, UVM_REUSE_NONE);
			assert_true(r.rate < 0);
		}
	}
	for (size_t i = 0; i < 64; i++)
		assert_int_equal(a[i * BLOCK_WORDS], 2);
	th_stop(&t);
}

static void test_reuse_probe_budget(void **state)
{
	run_with_budget("reuse-probes=0", 0);
	run_with_budget("reuse-probes=128K", (128u << 10) / UVM_BLOCK_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reuse_of_known_launches),
	    cmocka_unit_test(test_reuse_probe_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
