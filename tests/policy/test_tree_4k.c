// SPDX-License-Identifier: MIT
/*
 * Description: the tree prefetcher at a 4 KB migration unit (--page-size
 * 4k), driven through the real residency module as the driver drives it:
 * each batch's faulted pages and the prefetcher's picks become
 * device-resident, and the next batch's tree sees them. A sequential walk
 * through a vablock faults exactly six pages (0, 16, 32, 64, 128, 256) and
 * prefetches exactly the rest of each faulted 64 KB basic block (the
 * driver's big-page upgrade) plus the subtree the density rule gives (128 KB
 * of nothing, then 256 KB, 512 KB, 1 MB and the whole vablock). Then the
 * cases only 4 KB leaves can tell: two faults in one basic block upgrade it
 * once; a stale fault starts no walk; an allocation's tail cuts the basic
 * block and the tree; a root at 257 of 512 pages fires at threshold 50 and
 * not at the driver's 51; a node exactly at the threshold is not taken;
 * seq64k and none. Eviction stays at lru2m's unit: the whole vablock's 512
 * pages leave together.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sim.h"

_Static_assert(UVM_BLOCK_SHIFT == 12, "built against the 4 KB unit's libraries");
_Static_assert(UVM_BLOCKS_PER_VABLOCK == 512 && UVM_BLOCKS_PER_BASIC == 16,
	       "512 pages a vablock, 16 a basic block");

#define PAGES 512u

struct run {
	struct sim m;
	const struct uvm_prefetch_ops *ops;
	void *p;
	unsigned nvalid;
	uint64_t faults, prefetched;
};

static void start(struct run *r, const char *prefetch, unsigned nvalid, unsigned threshold)
{
	char thr[32];
	const char *const opts[] = {thr, NULL};

	snprintf(thr, sizeof(thr), "prefetch-threshold=%u", threshold);
	sim_start(&r->m, "lru2m", (uint64_t)nvalid << UVM_BLOCK_SHIFT, opts);
	r->ops = uvm_prefetch_find(prefetch);
	assert_non_null(r->ops);
	r->p = r->ops->create(&r->m.s, &r->m.cfg);
	assert_non_null(r->p);
	r->nvalid = nvalid;
	r->faults = r->prefetched = 0;
}

static void stop(struct run *r)
{
	r->ops->destroy(r->p);
	sim_stop(&r->m);
}

static struct uvm_vbmask run_of(unsigned lo, unsigned hi)
{
	return uvm_vbmask_run(lo, hi);
}

/* One batch of GPU faults on pages `faulted` of vablock 0, serviced as the
 * driver does: the prefetcher picks from the residency module's books, then
 * faulted and picked pages not yet there become resident. Returns the pick. */
static struct uvm_vbmask batch(struct run *r, struct uvm_vbmask faulted)
{
	struct uvm_prefetch_ctx ctx = {&r->m.s, 0, faulted, uvm_vablock_device_mask(&r->m.s, 0),
				       uvm_vbmask_run(0, r->nvalid)};
	struct uvm_vbmask pick = r->ops->pick(r->p, &ctx);
	char err[256];

	assert_true(uvm_vbmask_empty(uvm_vbmask_and(pick, ctx.resident)));
	assert_true(uvm_vbmask_empty(uvm_vbmask_and(pick, faulted)));
	uvm_vbmask_for_each(i, uvm_vbmask_andnot(faulted, ctx.resident)) {
		uvm_res_move(&r->m.r, i, 1, UVM_DEVICE, UVM_RES_MIGRATE);
		r->faults++;
	}
	uvm_vbmask_for_each(i, pick) {
		uvm_res_move(&r->m.r, i, 1, UVM_DEVICE, UVM_RES_MIGRATE);
		uvm_res_prefetched(&r->m.r, i);
		r->prefetched++;
	}
	if (uvm_res_check(&r->m.r, err, sizeof(err)))
		fail_msg("residency: %s", err);
	return pick;
}

static struct uvm_vbmask one(unsigned page)
{
	return uvm_vbmask_run(page, page + 1);
}

static void assert_mask(struct uvm_vbmask got, struct uvm_vbmask want)
{
	if (!uvm_vbmask_equal(got, want)) {
		for (unsigned w = 0; w < UVM_VBMASK_WORDS; w++)
			if (got.w[w] != want.w[w])
				print_error("word %u: got %016llx want %016llx\n", w,
					    (unsigned long long)got.w[w],
					    (unsigned long long)want.w[w]);
		fail();
	}
}

/* The first page a sequential walk touches that is not resident faults. */
static void test_sequential_walk(void **state)
{
	struct run r;
	struct {
		unsigned fault;
		unsigned lo, hi; /* the pick: [lo, hi) less the fault */
	} const steps[] = {
	    /* Its basic block; the 128 KB node above holds 16 of 32 pages:
	     * not MORE than 51%. */
	    {0, 0, 16},
	    /* [0, 32) is full, [0, 64) at 32/64 is not over: the basic block. */
	    {16, 16, 32},
	    /* [0, 64) at 48/64: the 256 KB subtree. */
	    {32, 32, 64},
	    {64, 64, 128},   /* [0, 128) at 80/128 */
	    {128, 128, 256}, /* [0, 256) at 144/256 */
	    {256, 256, 512}, /* the root at 272/512 = 53% */
	};

	start(&r, "tree", PAGES, 51);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct uvm_vbmask want = run_of(steps[i].lo, steps[i].hi);

		uvm_vbmask_clear(&want, steps[i].fault);
		/* Pages the last batch brought are there: touching them is no
		 * fault, so the walk's next fault is the step's. */
		for (unsigned p = 0; p < steps[i].fault; p++)
			assert_int_equal(r.m.s.block[p].state, UVM_DEVICE);
		assert_int_equal(r.m.s.block[steps[i].fault].state, UVM_EMPTY);
		assert_mask(batch(&r, one(steps[i].fault)), want);
	}
	assert_int_equal(r.faults, 6);
	assert_int_equal(r.prefetched, PAGES - 6);
	assert_int_equal(r.m.s.vablock[0].resident, PAGES);
	assert_int_equal(r.m.pool[0].used, PAGES);
	/* lru2m's victim is the vablock: all 512 pages leave at once. */
	{
		struct uvm_evict_ctx ctx = sim_ctx(&r.m);
		struct uvm_victim v;

		assert_int_equal(sim_pick2(&r.m, &ctx, &v), 0);
		assert_int_equal(v.first, 0);
		assert_int_equal(v.n, PAGES);
		assert_int_equal(sim_evict(&r.m, &v), PAGES);
		assert_int_equal(r.m.s.vablock[0].resident, 0);
	}
	/* Back from HOST: the same walk, the same picks. */
	r.faults = r.prefetched = 0;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		batch(&r, one(steps[i].fault));
	assert_int_equal(r.faults, 6);
	assert_int_equal(r.prefetched, PAGES - 6);
	stop(&r);
}

/* Two faults in one basic block and one in another, in one batch: each
 * basic block is filled once; the 128 KB node over the first two is full,
 * which pulls in nothing more (both its halves came with the upgrade). */
static void test_upgrade_once_per_basic_block(void **state)
{
	struct run r;
	struct uvm_vbmask faulted = uvm_vbmask_zero(), want;

	start(&r, "tree", PAGES, 51);
	uvm_vbmask_set(&faulted, 3);
	uvm_vbmask_set(&faulted, 9);
	uvm_vbmask_set(&faulted, 20);
	want = uvm_vbmask_andnot(run_of(0, 32), faulted);
	assert_mask(batch(&r, faulted), want);
	assert_int_equal(r.prefetched, 32 - 3);
	stop(&r);
}

/* A stale fault (its page already resident) starts no walk and upgrades
 * nothing, even in a basic block that is only partly resident. */
static void test_stale_fault_starts_no_walk(void **state)
{
	struct run r;

	start(&r, "tree", PAGES, 51);
	uvm_res_move(&r.m.r, 5, 1, UVM_DEVICE, UVM_RES_MIGRATE);
	assert_mask(batch(&r, one(5)), uvm_vbmask_zero());
	assert_int_equal(r.m.s.block[6].state, UVM_EMPTY);
	stop(&r);
}

/* An allocation of 100 pages: the tree has 128 leaves cut at 100, and the
 * last basic block [96, 100) is cut too. */
static void test_allocation_tail(void **state)
{
	struct run r;

	struct uvm_vbmask want = run_of(96, 100);

	start(&r, "tree", 100, 51);
	/* [96, 128) cut at 100 is full; [64, 100) holds 4 of 36. */
	uvm_vbmask_clear(&want, 97);
	assert_mask(batch(&r, one(97)), want);
	/* A fault in [80, 96): [64, 96) holds 16 of 32, not more than half,
	 * but [64, 128) cut at 100 holds 20 of 36 = 55%: the rest of it comes. */
	want = run_of(64, 96);
	uvm_vbmask_clear(&want, 80);
	assert_mask(batch(&r, one(80)), want);
	stop(&r);
}

/* 241 resident pages and a fault in the last basic block: the root holds
 * 257 of 512 pages, 50.2%, more than 50 but not more than the driver's 51.
 * A distinction 64 KB leaves (16 or 17 of 32) can never make. */
static void test_threshold_50_and_51(void **state)
{
	for (unsigned thr = 50; thr <= 51; thr++) {
		struct run r;
		struct uvm_vbmask want;

		start(&r, "tree", PAGES, thr);
		for (unsigned p = 0; p < 241; p++)
			uvm_res_move(&r.m.r, p, 1, UVM_DEVICE, UVM_RES_MIGRATE);
		want = thr == 50 ? run_of(241, PAGES) : run_of(496, PAGES);
		uvm_vbmask_clear(&want, 500);
		assert_mask(batch(&r, one(500)), want);
		stop(&r);
	}
}

/* A node exactly at the threshold is not taken: the rule is "more than".
 * One fault in an empty vablock at threshold 50: its basic block makes the
 * 128 KB node above it 16 of 32 pages, exactly half, so the basic block is
 * all that comes. */
static void test_exactly_at_threshold(void **state)
{
	struct run r;
	struct uvm_vbmask want = run_of(0, 16);

	start(&r, "tree", PAGES, 50);
	uvm_vbmask_clear(&want, 7);
	assert_mask(batch(&r, one(7)), want);
	stop(&r);
}

/* seq64k brings the faulting page's basic block; none brings nothing. */
static void test_seq64k_and_none(void **state)
{
	struct run r;
	struct uvm_vbmask want = run_of(32, 48);

	start(&r, "seq64k", PAGES, 51);
	uvm_vbmask_clear(&want, 40);
	assert_mask(batch(&r, one(40)), want);
	/* Its neighbour: the 128 KB node is half full, which seq64k ignores. */
	want = run_of(48, 64);
	uvm_vbmask_clear(&want, 50);
	assert_mask(batch(&r, one(50)), want);
	stop(&r);
	start(&r, "none", PAGES, 51);
	assert_mask(batch(&r, one(40)), uvm_vbmask_zero());
	stop(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sequential_walk),
	    cmocka_unit_test(test_upgrade_once_per_basic_block),
	    cmocka_unit_test(test_stale_fault_starts_no_walk),
	    cmocka_unit_test(test_allocation_tail),
	    cmocka_unit_test(test_threshold_50_and_51),
	    cmocka_unit_test(test_exactly_at_threshold),
	    cmocka_unit_test(test_seq64k_and_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
