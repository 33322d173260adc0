// SPDX-License-Identifier: MIT
/*
 * Description: the vablock mask type (vbmask.h) against a plain array of
 * booleans: set, clear and test of each block, runs [lo, hi) at and across
 * word boundaries, and/or/andnot/equal, count, first/next/next-clear, and the
 * two iterators (every set block in order; every maximal run of set blocks),
 * including a loop body that changes the mask it iterates and one that
 * breaks. Built once at the real size (space.h: blocks per vablock) and once
 * per size in VBMASK_TEST_BITS (a 4 KB unit's 512 blocks, and 100: a last
 * word only partly used), so the logic across 64-bit words runs although
 * today's vablock fits in one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#ifdef VBMASK_TEST_BITS
#define UVM_VBMASK_BITS VBMASK_TEST_BITS
#include "vbmask.h"
#else
#include "space.h"
_Static_assert(UVM_VBMASK_BITS == UVM_VABLOCK_SIZE / UVM_BLOCK_SIZE,
	       "a mask has a bit per block of a vablock");
#endif

#define NBITS UVM_VBMASK_BITS

/* The reference: one bool per block. */
struct ref {
	bool b[NBITS];
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random mask and its reference; `density` in 1/8ths, so runs occur. */
static struct uvm_vbmask random_mask(struct ref *r, unsigned density)
{
	struct uvm_vbmask m = uvm_vbmask_zero();

	for (unsigned i = 0; i < NBITS; i++) {
		r->b[i] = next_random() % 8 < density;
		if (r->b[i])
			uvm_vbmask_set(&m, i);
	}
	return m;
}

static void check_same(struct uvm_vbmask m, const struct ref *r)
{
	unsigned n = 0, first = NBITS;

	for (unsigned i = 0; i < NBITS; i++) {
		if (uvm_vbmask_test(m, i) != r->b[i])
			fail_msg("block %u: mask %d, reference %d", i, uvm_vbmask_test(m, i),
				 r->b[i]);
		if (r->b[i] && first == NBITS)
			first = i;
		n += r->b[i];
	}
	assert_int_equal(uvm_vbmask_count(m), n);
	assert_int_equal(uvm_vbmask_first(m), first);
	assert_int_equal(uvm_vbmask_empty(m), n == 0);
	/* Nothing past the last block is ever set. */
	for (unsigned i = NBITS; i < UVM_VBMASK_WORDS * 64; i++)
		assert_false(m.w[i / 64] >> (i % 64) & 1);
}

static void test_zero(void **state)
{
	struct ref r = {{false}};
	struct uvm_vbmask z = uvm_vbmask_zero();

	check_same(z, &r);
	assert_int_equal(uvm_vbmask_next(z, 0), NBITS);
	assert_int_equal(uvm_vbmask_next_clear(z, 0), 0);
	assert_int_equal(uvm_vbmask_next_clear(z, NBITS - 1), NBITS - 1);
}

static void test_each_block(void **state)
{
	for (unsigned i = 0; i < NBITS; i++) {
		struct ref r = {{false}};
		struct uvm_vbmask m = uvm_vbmask_zero();

		uvm_vbmask_set(&m, i);
		r.b[i] = true;
		check_same(m, &r);
		assert_int_equal(uvm_vbmask_next(m, i), i);
		assert_int_equal(uvm_vbmask_next(m, i + 1), NBITS);
		assert_int_equal(uvm_vbmask_next_clear(m, i), i + 1 < NBITS ? i + 1 : NBITS);
		assert_true(uvm_vbmask_equal(m, uvm_vbmask_run(i, i + 1)));
		uvm_vbmask_set(&m, i); /* setting twice changes nothing */
		check_same(m, &r);
		uvm_vbmask_clear(&m, i);
		assert_true(uvm_vbmask_empty(m));
		uvm_vbmask_clear(&m, i);
		assert_true(uvm_vbmask_empty(m));
	}
}

/* Run ends where words meet and at the mask's ends, in every pairing. */
static const unsigned edges[] = {0,   1,   2,	31,  32,  33,  63,  64,	 65,  99,  100, 127,
				 128, 129, 255, 256, 257, 447, 448, 449, 510, 511, 512};

static void test_runs(void **state)
{
	size_t n = sizeof(edges) / sizeof(edges[0]);

	for (size_t a = 0; a < n && edges[a] <= NBITS; a++) {
		for (size_t b = a; b < n && edges[b] <= NBITS; b++) {
			unsigned lo = edges[a], hi = edges[b];
			struct uvm_vbmask m = uvm_vbmask_run(lo, hi), grown = uvm_vbmask_run(0, 1);
			struct ref r = {{false}};

			for (unsigned i = lo; i < hi; i++)
				r.b[i] = true;
			check_same(m, &r);
			if (lo < hi) {
				assert_int_equal(uvm_vbmask_next_clear(m, lo), hi);
				assert_int_equal(uvm_vbmask_next(m, hi), NBITS);
			}
			/* set_run adds to what is there. */
			uvm_vbmask_set_run(&grown, lo, hi);
			r.b[0] = true;
			check_same(grown, &r);
		}
	}
}

static void test_combinations(void **state)
{
	for (int round = 0; round < 200; round++) {
		struct ref ra, rb, rand_, ror, rnot;
		struct uvm_vbmask a = random_mask(&ra, (unsigned)round % 8);
		struct uvm_vbmask b = random_mask(&rb, 4);

		for (unsigned i = 0; i < NBITS; i++) {
			rand_.b[i] = ra.b[i] && rb.b[i];
			ror.b[i] = ra.b[i] || rb.b[i];
			rnot.b[i] = ra.b[i] && !rb.b[i];
		}
		check_same(uvm_vbmask_and(a, b), &rand_);
		check_same(uvm_vbmask_or(a, b), &ror);
		check_same(uvm_vbmask_andnot(a, b), &rnot);
		assert_int_equal(uvm_vbmask_equal(a, b), memcmp(&ra, &rb, sizeof(ra)) == 0);
		assert_true(uvm_vbmask_equal(
		    a, uvm_vbmask_or(uvm_vbmask_and(a, b), uvm_vbmask_andnot(a, b))));
	}
	/* Masks that differ in one block only, in each word. */
	for (unsigned i = 0; i < NBITS; i += 37) {
		struct uvm_vbmask a = uvm_vbmask_run(0, NBITS), b = a;

		uvm_vbmask_clear(&b, i);
		assert_false(uvm_vbmask_equal(a, b));
		assert_int_equal(uvm_vbmask_count(b), NBITS - 1);
		assert_int_equal(uvm_vbmask_next_clear(b, 0), i);
	}
}

static void test_for_each(void **state)
{
	for (int round = 0; round < 200; round++) {
		struct ref r, seen = {{false}};
		struct uvm_vbmask m = random_mask(&r, (unsigned)round % 8);
		unsigned last = 0, visits = 0;

		uvm_vbmask_for_each(i, m) {
			assert_true(r.b[i]);
			assert_true(visits == 0 || i > last);
			seen.b[i] = true;
			last = i;
			visits++;
			/* The mask was read before the first block: emptying
			 * the variable does not end the loop. */
			m = uvm_vbmask_zero();
		}
		assert_memory_equal(&seen, &r, sizeof(r));
	}
}

static void test_for_each_break(void **state)
{
	struct uvm_vbmask m = uvm_vbmask_run(NBITS / 2, NBITS);
	unsigned visits = 0, at = NBITS;

	uvm_vbmask_for_each(i, m) {
		visits++;
		if (i == NBITS - 2) {
			at = i;
			break;
		}
	}
	assert_int_equal(at, NBITS - 2);
	assert_int_equal(visits, NBITS - 2 - NBITS / 2 + 1);
}

static void test_for_each_run(void **state)
{
	for (int round = 0; round < 200; round++) {
		struct ref r, seen = {{false}};
		struct uvm_vbmask m = random_mask(&r, (unsigned)round % 8);
		unsigned end = 0, runs = 0;

		if (round == 0) { /* one run across every word, to the last block */
			m = uvm_vbmask_run(1, NBITS);
			for (unsigned i = 0; i < NBITS; i++)
				r.b[i] = i > 0;
		}
		uvm_vbmask_for_each_run(lo, hi, m) {
			/* Maximal and in order: a clear block before and after. */
			assert_true(lo < hi && hi <= NBITS);
			assert_true(runs == 0 || lo > end);
			assert_true(lo == 0 || !r.b[lo - 1]);
			assert_true(hi == NBITS || !r.b[hi]);
			for (unsigned i = lo; i < hi; i++) {
				assert_true(r.b[i]);
				seen.b[i] = true;
			}
			end = hi;
			runs++;
		}
		assert_memory_equal(&seen, &r, sizeof(r));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zero),	 cmocka_unit_test(test_each_block),
	    cmocka_unit_test(test_runs),	 cmocka_unit_test(test_combinations),
	    cmocka_unit_test(test_for_each),	 cmocka_unit_test(test_for_each_break),
	    cmocka_unit_test(test_for_each_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
