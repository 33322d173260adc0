// SPDX-License-Identifier: MIT
/*
 * Description: the prefetchers' extra sets on hand-made vablock states, with
 * no driver and no threads. Each case gives a vablock's valid, faulted and
 * resident blocks and a threshold, and pins the exact mask the prefetcher
 * returns: the tree prefetcher's strict "more than the threshold" (half a
 * vablock faulted pulls in nothing at 50 or 51; one block more pulls in the
 * rest), its walk to the largest qualifying ancestor, an allocation tail's
 * smaller tree (node ranges cut at the allocation's end), resident blocks
 * pushing a node over, stale faults starting no walk; vablock's whole
 * vablock; seq64k and none adding nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "policy.h"
#include "space.h"

#define ALL    0xffffffffu
#define BIT(i) (1u << (i))
/* Blocks [lo, hi) of a vablock as a mask (lo < 32), usable in initialisers. */
#define RUN(lo, hi) ((uint32_t)(((1ull << (hi)) - 1) & ~((1ull << (lo)) - 1)))

/* Glue: the cases are 32-bit words, one bit per block of a 32-block vablock;
 * the interface passes struct uvm_vbmask. */
_Static_assert(UVM_BLOCKS_PER_VABLOCK == 32, "the cases are written for 32-block vablocks");

static struct uvm_vbmask mask_of(uint32_t bits)
{
	struct uvm_vbmask m = uvm_vbmask_zero();

	for (unsigned i = 0; i < 32; i++)
		if (bits >> i & 1)
			uvm_vbmask_set(&m, i);
	return m;
}

static uint32_t bits_of(struct uvm_vbmask m)
{
	uint32_t bits = 0;

	uvm_vbmask_for_each(i, m)
		bits |= 1u << i;
	return bits;
}

struct pcase {
	const char *what;
	unsigned nvalid;
	uint32_t faulted, resident;
	unsigned threshold;
	uint32_t want;
};

static const struct pcase tree_cases[] = {
    /* Half a vablock faulted: the root holds exactly 50%, which is not
     * MORE than 50 (nor 51); every smaller node over the faults is full. */
    {"half faulted, threshold 51", 32, RUN(0, 16), 0, 51, 0},
    {"half faulted, threshold 50", 32, RUN(0, 16), 0, 50, 0},
    /* Every other block: each node exactly half occupied, nothing fires. */
    {"alternate blocks faulted, threshold 50", 32, 0x55555555u, 0, 50, 0},
    /* One more block tips the root: the rest of the vablock comes. */
    {"17 of 32 faulted, threshold 51", 32, RUN(0, 17), 0, 51, RUN(17, 32)},
    {"17 of 32 faulted, threshold 50", 32, RUN(0, 17), 0, 50, RUN(17, 32)},
    /* 17/32 = 53.1%: the threshold is honoured either side of it. */
    {"17 of 32 faulted, threshold 53", 32, RUN(0, 17), 0, 53, RUN(17, 32)},
    {"17 of 32 faulted, threshold 54", 32, RUN(0, 17), 0, 54, 0},
    /* A single fault in an empty vablock: its pair is only half full. */
    {"single fault, threshold 51", 32, BIT(5), 0, 51, 0},
    {"single fault, threshold 50", 32, BIT(5), 0, 50, 0},
    /* Resident blocks count as occupied: 8 resident + 1 fault = 9/16 of
     * the left half; the root (9/32) stays below. */
    {"resident push a node over", 32, BIT(8), RUN(0, 8), 51, RUN(9, 16)},
    /* Resident 15 + fault = a full left half (no extra there) and exactly
     * half the vablock at the root: nothing. */
    {"resident fill a node exactly", 32, BIT(15), RUN(0, 15), 51, 0},
    /* From leaf 31 the nodes [30,32) .. [16,32) hold 1 block each and fail;
     * the root holds 17/32 and wins: the largest qualifying ancestor. */
    {"largest ancestor across failing levels", 32, BIT(31), RUN(0, 16), 51, RUN(16, 31)},
    /* Two separate faulted groups: the union of their regions. */
    {"two groups", 32, RUN(0, 3) | RUN(29, 32), 0, 51, BIT(3) | BIT(28)},
    /* Stale fault on resident block 0 starts no walk (from it, [0,4) would
     * be 3/4 and bring block 3); block 20's walk finds nothing. */
    {"stale fault starts no walk", 32, BIT(0) | BIT(20), RUN(0, 3), 51, 0},
    /* An allocation tail of 256 KB: a 4-leaf tree. */
    {"tail of 4, two faulted", 4, RUN(0, 2), 0, 51, 0},
    {"tail of 4, two faulted, threshold 50", 4, RUN(0, 2), 0, 50, 0},
    {"tail of 4, three faulted", 4, RUN(0, 3), 0, 51, BIT(3)},
    {"tail of 4, one faulted, two resident", 4, BIT(0), RUN(1, 3), 51, BIT(3)},
    {"tail of 4, last block faulted", 4, BIT(3), 0, 51, 0},
    /* A tail of 3: the node over it has 3 leaves, not 4, so 2 of them are
     * 67% and the third comes; nothing past the allocation's end. */
    {"tail of 3, two faulted", 3, RUN(0, 2), 0, 51, BIT(2)},
    /* A tail of 5 (8-leaf tree cut at 5): [4,8) is just leaf 4. */
    {"tail of 5, blocks 0-2 faulted", 5, RUN(0, 3), 0, 51, BIT(3) | BIT(4)},
    {"tail of 1", 1, BIT(0), 0, 50, 0},
};

static struct uvm_space space;

static int setup(void **state)
{
	return uvm_space_init(&space, 64ull << 20);
}

static int teardown(void **state)
{
	uvm_space_destroy(&space);
	return 0;
}

static uint32_t run_pick(const char *name, unsigned threshold, unsigned nvalid, uint32_t faulted,
			 uint32_t resident)
{
	const struct uvm_prefetch_ops *ops = uvm_prefetch_find(name);
	struct uvm_config cfg;
	struct uvm_prefetch_ctx ctx = {&space, 3, mask_of(faulted), mask_of(resident),
				       mask_of(RUN(0, nvalid))};
	char err[UVM_ERRLEN], value[16];
	uint32_t got;
	void *p;

	assert_non_null(ops);
	uvm_config_defaults(&cfg);
	snprintf(value, sizeof(value), "%u", threshold);
	if (uvm_config_set(&cfg, "prefetch-threshold", value, "test", err, sizeof(err)))
		fail_msg("%s", err);
	p = ops->create(&space, &cfg);
	assert_non_null(p);
	got = bits_of(ops->pick(p, &ctx));
	ops->destroy(p);
	return got;
}

static void test_tree_cases(void **state)
{
	int bad = 0;

	for (size_t i = 0; i < sizeof(tree_cases) / sizeof(tree_cases[0]); i++) {
		const struct pcase *c = &tree_cases[i];
		uint32_t got = run_pick("tree", c->threshold, c->nvalid, c->faulted, c->resident);

		if (got != c->want) {
			print_error("tree: %s: got 0x%08x, want 0x%08x\n", c->what, got, c->want);
			bad++;
		}
		/* Whatever it returns stays inside the allocation and adds only
		 * blocks that are neither resident nor faulted. */
		assert_int_equal(got & ~RUN(0, c->nvalid), 0);
		assert_int_equal(got & (c->faulted | c->resident), 0);
	}
	assert_int_equal(bad, 0);
}

/* The default threshold is the driver's 51, read from the configuration. */
static void test_tree_default_threshold(void **state)
{
	const struct uvm_prefetch_ops *ops = uvm_prefetch_find("tree");
	struct uvm_config cfg;
	/* 17/32 = 53.1% > 51: the rest; a threshold of 54 would give nothing. */
	struct uvm_prefetch_ctx ctx = {&space, 0, mask_of(RUN(0, 17)), mask_of(0), mask_of(ALL)};
	void *p;

	uvm_config_defaults(&cfg);
	assert_int_equal(uvm_cfg_i(&cfg, UVM_OPT_prefetch_threshold), 51);
	p = ops->create(&space, &cfg);
	assert_int_equal(bits_of(ops->pick(p, &ctx)), RUN(17, 32));
	ops->destroy(p);
}

static void test_vablock(void **state)
{
	assert_int_equal(run_pick("vablock", 51, 32, BIT(4), 0), ALL & ~BIT(4));
	assert_int_equal(run_pick("vablock", 51, 32, BIT(4), RUN(0, 4)), RUN(5, 32));
	/* A tail of 3: only its valid blocks. */
	assert_int_equal(run_pick("vablock", 51, 3, BIT(1), BIT(0)), BIT(2));
	assert_int_equal(run_pick("vablock", 51, 1, BIT(0), 0), 0);
}

/* At the emulator's 64 KB unit, sequential-local adds nothing to a fault. */
static void test_seq64k_and_none(void **state)
{
	assert_int_equal(run_pick("seq64k", 51, 32, BIT(4), 0), 0);
	assert_int_equal(run_pick("seq64k", 51, 32, RUN(0, 17), RUN(20, 24)), 0);
	assert_int_equal(run_pick("none", 51, 32, RUN(0, 17), 0), 0);
}

/* Every name the option accepts is a registered prefetcher, and back. */
static void test_choices_registered(void **state)
{
	char names[256], *save = NULL;
	int n = 0;

	snprintf(names, sizeof(names), "%s", uvm_options[UVM_OPT_prefetch].choices);
	for (char *t = strtok_r(names, "|", &save); t; t = strtok_r(NULL, "|", &save), n++) {
		const struct uvm_prefetch_ops *ops = uvm_prefetch_find(t);

		assert_non_null(ops);
		assert_string_equal(ops->name, t);
		assert_non_null(ops->help);
	}
	assert_int_equal(n, 4);
	assert_null(uvm_prefetch_find("sequential"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tree_cases),
	    cmocka_unit_test(test_tree_default_threshold),
	    cmocka_unit_test(test_vablock),
	    cmocka_unit_test(test_seq64k_and_none),
	    cmocka_unit_test(test_choices_registered),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
