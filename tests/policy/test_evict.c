// SPDX-License-Identifier: MIT
/*
 * Description: each eviction policy's victims on hand-made histories, with
 * no driver and no threads (sim.c stands in for the driver's books and
 * observer calls). Every test pins the exact victim sequence: lru64k's
 * recency with touches and re-residency; tree's growing neighbourhood
 * (64 KB, 64 KB, 128 KB ... 1 MB over a full vablock), a sparse vablock
 * going whole and an allocation tail's cut tree; lfu's read-only-first
 * order with LRU among equal counts and counts read at pick time; reverse
 * against lru2m on one history; seq-local's vablock-by-vablock order, and
 * a vablock falling back when its newest block leaves; nru's four classes,
 * the launch clearing R and the clear when every block is referenced; cpc
 * alternating with launches, for eviction
 * and allocation both; opt from a
 * trace file the test writes, and its start-up errors. Then every policy the
 * --evict option accepts is held to the common rules: never the vablock
 * being serviced, nothing in use before the second pass, a DEVICE block in
 * every victim, and everything evictable in the end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sim.h"
#include "uvmemu_gmmu.h"

#define MB   (1ull << 20)
#define KB   (1ull << 10)
#define V(i) ((size_t)(i)*UVM_BLOCKS_PER_VABLOCK) /* first block of vablock i */

static char header_only[64]; /* a valid trace with no rows, for opt in the common tests */

/* Picks (two passes) and evicts n times; each victim must be want[i]. */
static void expect_victims(struct sim *m, const struct uvm_victim *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct uvm_evict_ctx ctx = sim_ctx(m);
		struct uvm_victim v;

		if (sim_pick2(m, &ctx, &v))
			fail_msg("%s: pick %zu found nothing, want {%zu, %zu}", m->ops->name, i,
				 want[i].first, want[i].n);
		if (v.first != want[i].first || v.n != want[i].n)
			fail_msg("%s: pick %zu is {%zu, %zu}, want {%zu, %zu}", m->ops->name, i,
				 v.first, v.n, want[i].first, want[i].n);
		sim_evict(m, &v);
	}
}

/* The same for single blocks. */
static void expect_blocks(struct sim *m, const size_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_victims(m, &(struct uvm_victim){want[i], 1}, 1);
}

static void expect_none(struct sim *m)
{
	struct uvm_evict_ctx ctx = sim_ctx(m);
	struct uvm_victim v;

	if (sim_pick2(m, &ctx, &v) == 0)
		fail_msg("%s: picked {%zu, %zu} with nothing evictable", m->ops->name, v.first,
			 v.n);
}

/* ------------------------------------------------------------ lru64k */

static void test_lru64k_order(void **state)
{
	static const size_t first[] = {40};
	static const size_t rest[] = {1, 2, 4, 5, 6, 7, 3, 0, 40};
	struct sim m;

	sim_start(&m, "lru64k", 4 * MB, NULL);
	sim_in(&m, 40);
	sim_in(&m, 3);
	sim_in(&m, 1);
	sim_in(&m, 0);
	sim_in(&m, 2);
	sim_in_run(&m, 4, 4);
	sim_touch(&m, 3, false); /* recency: a touch moves a block to the newest end */
	sim_touch(&m, 0, true);
	expect_blocks(&m, first, 1);
	sim_in(&m, 40); /* back on the device: now the newest */
	expect_blocks(&m, rest, sizeof(rest) / sizeof(rest[0]));
	expect_none(&m);
	sim_stop(&m);
}

/* -------------------------------------------------------------- tree */

/* A full vablock evicted in address order: the granularity grows as each
 * victim leaves a bigger node less than half resident. */
static void test_tree_full_vablock(void **state)
{
	static const struct uvm_victim want[] = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}};
	static const size_t evicted[] = {1, 1, 2, 4, 8, 16};
	struct sim m;

	sim_start(&m, "tree", 2 * MB, NULL);
	sim_in_run(&m, 0, 32);
	for (size_t i = 0; i < 6; i++) {
		struct uvm_evict_ctx ctx = sim_ctx(&m);
		struct uvm_victim v;

		assert_int_equal(sim_pick2(&m, &ctx, &v), 0);
		assert_int_equal(v.first, want[i].first);
		assert_int_equal(v.n, want[i].n);
		assert_int_equal(sim_evict(&m, &v), evicted[i]);
	}
	assert_int_equal(sim_on_device(&m), 0);
	sim_stop(&m);
}

/* Touches reorder the LRU leaves: the right half goes first, growing, then
 * the left half's first victim finds the root below half and takes it all. */
static void test_tree_touch_order(void **state)
{
	static const struct uvm_victim want[] = {{16, 1}, {16, 2},  {16, 4},
						 {16, 8}, {16, 16}, {0, 32}};
	struct sim m;

	sim_start(&m, "tree", 2 * MB, NULL);
	sim_in_run(&m, 0, 32);
	for (size_t b = 0; b < 16; b++)
		sim_touch(&m, b, false);
	expect_victims(&m, want, 6);
	assert_int_equal(sim_on_device(&m), 0);
	sim_stop(&m);
}

/* A sparsely populated vablock: its least recent block takes the whole
 * vablock's resident blocks with it; the next (full) vablock goes by 64 KB. */
static void test_tree_sparse_vablock(void **state)
{
	struct sim m;
	struct uvm_evict_ctx ctx;
	struct uvm_victim v;

	sim_start(&m, "tree", 4 * MB, NULL);
	sim_in_run(&m, 0, 8);
	sim_in_run(&m, V(1), 32);
	ctx = sim_ctx(&m);
	assert_int_equal(sim_pick2(&m, &ctx, &v), 0);
	assert_int_equal(v.first, 0);
	assert_int_equal(v.n, 32);
	assert_int_equal(sim_evict(&m, &v), 8);
	expect_victims(&m, &(struct uvm_victim){V(1), 1}, 1);
	sim_stop(&m);
}

/* An allocation tail of 5 blocks (320 KB): an 8-leaf tree cut at 5. After
 * blocks 32 and 33 go, [32,37) holds 3 of 5 leaves - not below half - so 33
 * goes alone (with an uncut node of 8 it would have taken the whole tail);
 * when 34 goes, [32,36) holds 1 of 4 and [32,37) 2 of 5: the tail goes. */
static void test_tree_allocation_tail(void **state)
{
	static const struct uvm_victim want[] = {{V(1), 1}, {V(1), 2}, {V(1), 5}};
	struct sim m;

	sim_start(&m, "tree", 2 * MB + 320 * KB, NULL);
	assert_int_equal(m.s.vablock[1].nvalid, 5);
	sim_in_run(&m, V(1), 5);
	expect_victims(&m, want, 3);
	assert_int_equal(sim_on_device(&m), 0);
	sim_stop(&m);
}

/* --------------------------------------------------------------- lfu */

static void set_count(struct sim *m, size_t b, uint32_t word)
{
	atomic_store_explicit(&m->s.counters[b], word, memory_order_relaxed);
}

static void test_lfu_order(void **state)
{
	static const size_t first[] = {7};
	static const size_t rest[] = {6, 4, 0, 5, 1, 3, 2};
	struct sim m;

	sim_start(&m, "lfu", 2 * MB, NULL);
	sim_in_run(&m, 0, 8);
	/* Written by a write fault that migrated them (the driver sets the
	 * flag after the move, without a touch). */
	m.s.block[2].flags |= UVM_BF_WRITTEN;
	m.s.block[3].flags |= UVM_BF_WRITTEN;
	set_count(&m, 0, 5);
	set_count(&m, 1, 2);
	set_count(&m, 2, 2);
	set_count(&m, 3, 0);
	set_count(&m, 4, 2);
	set_count(&m, 5, 9);
	set_count(&m, 6, 2);
	set_count(&m, 7, 31u << 27 | 1); /* round trips (high bits) are not accesses */
	sim_touch(&m, 4, false);	 /* LRU order now 0 1 2 3 5 6 7 4 */
	/* Read-only first, fewest accesses first: 7 (1). */
	expect_blocks(&m, first, 1);
	/* Counts are read at pick time: block 1 climbs past the others. Then
	 * the 2s in LRU order (6, then 4, touched last), 5, 9, 50, and the
	 * written blocks last whatever their counts: 3 (0), 2 (2). */
	set_count(&m, 1, 50);
	expect_blocks(&m, rest, sizeof(rest) / sizeof(rest[0]));
	expect_none(&m);
	sim_stop(&m);
}

/* With no counts at all (GMMU accessors and fault counting off), lfu is
 * read-only-first LRU. */
static void test_lfu_no_counts(void **state)
{
	static const size_t want[] = {1, 3, 0, 2};
	struct sim m;

	sim_start(&m, "lfu", 2 * MB, NULL);
	sim_in_run(&m, 0, 4);
	sim_touch(&m, 0, true); /* a write fault on a resident block: written, newest */
	sim_touch(&m, 2, true);
	expect_blocks(&m, want, 4);
	sim_stop(&m);
}

/* Written by the GPU since it became resident: a write fault, or a store
 * GMMU accessors counted (lfu's rule). */
static bool written(const struct uvm_space *s, size_t b)
{
	return (s->block[b].flags & UVM_BF_WRITTEN) ||
	       (atomic_load_explicit(&s->gmmu_state[b], memory_order_relaxed) &
		UVMEMU_GMMU_WRITTEN);
}

/*
 * lfu keeps a heap of lower bounds instead of walking every block per
 * victim. Against the rule itself (the smallest key now, the least recent
 * among equals), over a long random history of arrivals, touches (reads
 * and writes), counts that grow, written bits set behind its back,
 * halvings and evictions, at the 128 blocks of 8 MB: every pick is the
 * rule's.
 */
static void test_lfu_heap_is_the_rule(void **state)
{
	enum { NB = 128 };
	static uint64_t when[NB]; /* 0: not resident */
	uint64_t now = 0, seed = 12345;
	unsigned picks = 0;
	struct sim m;

	(void)state;
	memset(when, 0, sizeof(when));
	sim_start(&m, "lfu", 8 * MB, NULL);
	for (int step = 0; step < 20000; step++) {
		size_t b;
		unsigned op;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		op = (unsigned)(seed >> 33) % 100;
		b = (size_t)(seed >> 45) % NB;
		if (op < 30) {
			if (!when[b]) {
				sim_in(&m, b);
				when[b] = ++now;
			}
		} else if (op < 45) {
			if (when[b]) {
				sim_touch(&m, b, op < 35);
				when[b] = ++now;
			}
		} else if (op < 65) {
			set_count(&m, b,
				  uvm_counter_accesses(&m.s, b) + 1 + (uint32_t)(seed >> 60));
		} else if (op < 68) {
			if (when[b])
				m.s.block[b].flags |= UVM_BF_WRITTEN;
		} else if (op < 69) {
			uvm_counters_halve(&m.s, true, false);
		} else {
			struct uvm_evict_ctx ctx = sim_ctx(&m);
			struct uvm_victim v;
			size_t want = NB;
			uint64_t wk = UINT64_MAX;

			for (size_t x = 0; x < NB; x++) {
				uint64_t k;

				if (!when[x])
					continue;
				k = (uint64_t)written(&m.s, x) << 32 |
				    uvm_counter_accesses(&m.s, x);
				if (k < wk || (k == wk && when[x] < when[want])) {
					want = x;
					wk = k;
				}
			}
			if (want == NB) {
				assert_int_not_equal(sim_pick2(&m, &ctx, &v), 0);
				continue;
			}
			assert_int_equal(sim_pick2(&m, &ctx, &v), 0);
			if (v.first != want || v.n != 1)
				fail_msg("step %d: lfu picked {%zu, %zu}, the rule %zu", step,
					 v.first, v.n, want);
			sim_evict(&m, &v);
			when[want] = 0;
			picks++;
		}
	}
	printf("lfu: %u picks over 20000 random steps, each the rule's\n", picks);
	assert_true(picks > 1000);
	sim_stop(&m);
}

/* --------------------------------------------------------- seq-local */

/* Vablock 0 holds the oldest block but was used last: Sequential-local takes
 * vablock 1's block first, where lru64k would take 0's oldest. Then vablock
 * 0's blocks, least recent first. */
static void test_seq_local_vablock_first(void **state)
{
	static const size_t want[] = {V(1), V(0) + 2, V(0)};
	struct sim m;

	sim_start(&m, "seq-local", 4 * MB, NULL);
	sim_in(&m, V(0));
	sim_in(&m, V(1));
	sim_in(&m, V(0) + 2);
	expect_blocks(&m, want, 1);
	/* A touch makes a block the newest of its vablock: 0 is now newer than 2. */
	sim_touch(&m, V(0), false);
	expect_blocks(&m, want + 1, 2);
	expect_none(&m);
	sim_stop(&m);
}

/* A vablock's recency is its newest block's: when that block leaves (here a
 * CPU fault takes it back), the vablock falls back behind the one it had
 * passed, and its oldest block goes first. */
static void test_seq_local_key_falls(void **state)
{
	static const size_t want[] = {V(0), V(1), V(1) + 1};
	struct sim m;

	sim_start(&m, "seq-local", 8 * MB, NULL);
	/* Stamps 1-5; the order by key is then 2 (3), 1 (4), 0 (5). */
	sim_in(&m, V(0));
	sim_in(&m, V(1));
	sim_in(&m, V(2));
	sim_in(&m, V(1) + 1);
	sim_in(&m, V(0) + 1);
	/* 0's newest block leaves: its key falls to 1. */
	sim_evict(&m, &(struct uvm_victim){V(0) + 1, 1});
	/* Order now 0 (1), 2 (3), 1 (4). */
	expect_blocks(&m, want, 1);
	expect_blocks(&m, (const size_t[]){V(2)}, 1);
	expect_blocks(&m, want + 1, 2);
	expect_none(&m);
	sim_stop(&m);
}

/* ---------------------------------------------------------------- nru */

/* Picks n victims; each must be one of want[0..n) (a class's members come in
 * a random order), and each only once. */
static void expect_set(struct sim *m, const size_t *want, size_t n)
{
	bool seen[64] = {false};

	for (size_t i = 0; i < n; i++) {
		struct uvm_evict_ctx ctx = sim_ctx(m);
		struct uvm_victim v;
		size_t j = 0;

		if (sim_pick2(m, &ctx, &v))
			fail_msg("%s: pick %zu found nothing", m->ops->name, i);
		assert_int_equal(v.n, 1);
		while (j < n && want[j] != v.first)
			j++;
		if (j == n || seen[j])
			fail_msg("%s: pick %zu is block %zu, not one of this class left",
				 m->ops->name, i, v.first);
		seen[j] = true;
		sim_evict(m, &v);
	}
}

/* The four classes, lowest first: not referenced since the launch and
 * clean (0, 4-7), not referenced but written (3), referenced and clean (1),
 * referenced and written (2); a block the prefetcher brought and nothing
 * used since is not referenced (5). */
static void test_nru_classes(void **state)
{
	static const size_t class0[] = {0, 4, 5, 6, 7};
	struct sim m;

	sim_start(&m, "nru", 2 * MB, NULL);
	sim_in_run(&m, 0, 8); /* all referenced: they were just used */
	sim_launch(&m);	      /* a launch clears every R */
	sim_touch(&m, 1, false);
	sim_touch(&m, 2, true);
	sim_touch(&m, 5, false);
	m.s.block[5].flags |= UVM_BF_PREFETCHED; /* as if prefetched, not used */
	m.s.block[3].flags |= UVM_BF_WRITTEN;	 /* a write fault migrated it */
	expect_set(&m, class0, 5);
	expect_blocks(&m, (const size_t[]){3, 1, 2}, 3);
	expect_none(&m);
	sim_stop(&m);
}

/* When every resident block is referenced, the pick takes a clean one (the
 * lowest class left) and clears every R: what comes in after it is then
 * the most recent, kept behind the written block that came before it. */
static void test_nru_clears_when_all_referenced(void **state)
{
	static const size_t clean[] = {0, 2, 3};
	struct sim m;
	struct uvm_evict_ctx ctx;
	struct uvm_victim v;
	size_t first, rest[2], k = 0;

	sim_start(&m, "nru", 2 * MB, NULL);
	sim_in_run(&m, 0, 4);
	sim_touch(&m, 1, true);
	ctx = sim_ctx(&m);
	assert_int_equal(sim_pick2(&m, &ctx, &v), 0);
	first = v.first;
	assert_true(first == 0 || first == 2 || first == 3);
	sim_evict(&m, &v);
	sim_in(&m, 8); /* referenced, clean: class 2 */
	for (size_t i = 0; i < 3; i++)
		if (clean[i] != first)
			rest[k++] = clean[i];
	expect_set(&m, rest, 2); /* class 0 since the clear */
	expect_blocks(&m, (const size_t[]){1, 8}, 2);
	expect_none(&m);
	sim_stop(&m);
}

/* ---------------------------------------------------- reverse, lru2m */

/*
 * Vablocks become resident in the order 2, 0, 3, 1; 2 and 0 are then fully
 * populated, 3 and 1 not. Age order takes the oldest full first, reverse
 * the newest full first; partial ones follow in the same direction.
 */
static void age_history(struct sim *m)
{
	sim_in(m, V(2));
	sim_in(m, V(0));
	sim_in(m, V(3));
	sim_in(m, V(1));
	sim_in_run(m, V(2) + 1, 31);
	sim_in_run(m, V(0) + 1, 31);
	sim_in_run(m, V(3) + 1, 2);
	sim_in(m, V(1) + 5);
}

static void test_lru2m_order(void **state)
{
	static const struct uvm_victim want[] = {{V(2), 32}, {V(0), 32}, {V(3), 32}, {V(1), 32}};
	struct sim m;

	sim_start(&m, "lru2m", 8 * MB, NULL);
	age_history(&m);
	expect_victims(&m, want, 4);
	expect_none(&m);
	sim_stop(&m);
}

/*
 * lfu2m sorts the same age list by the access counters: full vablocks first
 * (0 with 1 access a block before 2 with 5, against lru2m's 2 then 0), then
 * partial ones, read-only first: 1 (9 accesses) before 3, which holds a
 * block written by a write fault though it has no accesses.
 */
static void test_lfu2m_order(void **state)
{
	static const struct uvm_victim want[] = {{V(0), 32}, {V(2), 32}, {V(1), 32}, {V(3), 32}};
	struct sim m;

	sim_start(&m, "lfu2m", 8 * MB, NULL);
	age_history(&m);
	for (size_t i = 0; i < 32; i++) {
		set_count(&m, V(2) + i, 5);
		set_count(&m, V(0) + i, 1);
	}
	set_count(&m, V(1) + 5, 9);
	m.s.block[V(3) + 1].flags |= UVM_BF_WRITTEN;
	expect_victims(&m, want, 4);
	expect_none(&m);
	sim_stop(&m);
}

static void test_reverse_order(void **state)
{
	static const struct uvm_victim want[] = {{V(0), 32}, {V(2), 32}, {V(1), 32}, {V(3), 32}};
	struct sim m;

	sim_start(&m, "reverse", 8 * MB, NULL);
	age_history(&m);
	expect_victims(&m, want, 4);
	expect_none(&m);
	sim_stop(&m);
}

/* Accesses do not reorder vablocks (a touch of 2 leaves 0 the newest full
 * one); re-residency after a full eviction makes a vablock the newest. */
static void test_reverse_touch_and_return(void **state)
{
	struct sim m;

	sim_start(&m, "reverse", 8 * MB, NULL);
	age_history(&m);
	sim_touch(&m, V(2) + 4, true);
	expect_victims(&m, &(struct uvm_victim){V(0), 32}, 1);
	sim_in_run(&m, V(0), 32); /* order now 2 3 1 0 */
	expect_victims(&m, (const struct uvm_victim[]){{V(0), 32}, {V(2), 32}}, 2);
	sim_in_run(&m, V(0), 32); /* order now 3 1 0 */
	expect_victims(&m, (const struct uvm_victim[]){{V(0), 32}, {V(1), 32}, {V(3), 32}}, 3);
	expect_none(&m);
	sim_stop(&m);
}

/* --------------------------------------------------------------- cpc */

static void test_cpc_alternates(void **state)
{
	struct sim m;

	sim_start(&m, "cpc", 8 * MB, NULL);
	age_history(&m);
	/* Before any launch: age order, like launch 0. */
	{
		struct uvm_evict_ctx ctx = sim_ctx(&m);
		struct uvm_victim v;

		assert_int_equal(sim_pick2(&m, &ctx, &v), 0);
		assert_int_equal(v.first, V(2));
	}
	sim_launch(&m); /* launch 0: oldest full */
	expect_victims(&m, &(struct uvm_victim){V(2), 32}, 1);
	sim_launch(&m); /* launch 1: newest first, for every pick of the launch */
	expect_victims(&m, (struct uvm_victim[]){{V(0), 32}, {V(1), 32}}, 2);
	sim_launch(&m); /* launch 2: oldest again */
	sim_in_run(&m, V(0), 32);
	expect_victims(&m, (struct uvm_victim[]){{V(0), 32}, {V(3), 32}}, 2);
	sim_stop(&m);
}

/* Allocation switches with eviction: what an odd launch brings in joins at
 * the head, behind the older vablocks it evicts from the tail; the next (even)
 * launch evicts from the head, starting with what the odd launch brought in
 * last. */
static void cpc_history(struct sim *m)
{
	sim_launch(m); /* launch 0: joins at the tail */
	sim_in_run(m, V(0), 32);
	sim_in_run(m, V(1), 32);
	sim_launch(m); /* launch 1: joins at the head; the list is 3 2 0 1 */
	sim_in_run(m, V(2), 32);
	sim_in_run(m, V(3), 32);
}

static void test_cpc_switches_allocation(void **state)
{
	static const struct uvm_victim odd[] = {{V(1), 32}, {V(0), 32}, {V(2), 32}, {V(3), 32}};
	static const struct uvm_victim even[] = {{V(3), 32}, {V(2), 32}, {V(0), 32}, {V(1), 32}};
	struct sim m;

	sim_start(&m, "cpc", 8 * MB, NULL);
	cpc_history(&m);
	expect_victims(&m, odd, 4);
	sim_stop(&m);

	sim_start(&m, "cpc", 8 * MB, NULL);
	cpc_history(&m);
	sim_launch(&m); /* launch 2 */
	expect_victims(&m, even, 4);
	sim_stop(&m);
}

/* --------------------------------------------------------------- opt */

static void write_file(char *path, size_t len, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/uvmemu-policy-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static const char trace[] = "# launch 0 touches everything; kernel names may hold commas\n"
			    "launch,kernel,alloc,block,accesses,source\n"
			    "0,init,1,0,10,faults\n"
			    "0,init,1,1,10,faults\n"
			    "0,init,1,2,10,gmmu\n"
			    "0,init,1,3,10,faults\n"
			    "0,init,1,4,10,faults\n"
			    "0,init,1,5,10,faults\n"
			    "1,k<int, 2>,1,1,3,faults\n"
			    "1,k<int, 2>,1,3,3,gmmu\n"
			    "1,k<int, 2>,1,3,3,faults\n"
			    "\n"
			    "2,step,1,0,1,faults\r\n"
			    "2,step,1,2,1,faults\n"
			    "3,step,1,5,1,faults\n"
			    "3,step,1,1,1,faults\n";

static void test_opt_order(void **state)
{
	/* At launch 1 the next uses are 0:2 1:1 2:2 3:1 4:never 5:3. */
	static const size_t at1[] = {4, 5, 0, 2, 1, 3};
	/* At launch 3: 1 and 5 are used now, the rest never again. */
	static const size_t at3[] = {0, 2, 3, 4, 1, 5};
	char path[64], opt[80];
	struct sim m;

	write_file(path, sizeof(path), trace);
	snprintf(opt, sizeof(opt), "opt-trace=%s", path);
	sim_start(&m, "opt", 2 * MB, (const char *const[]){opt, NULL});
	sim_launch(&m);
	sim_in_run(&m, 0, 6);
	sim_launch(&m);
	expect_blocks(&m, at1, 6);
	sim_launch(&m);
	sim_launch(&m);
	sim_in_run(&m, 0, 6);
	expect_blocks(&m, at3, 6);
	/* Past the trace's last launch nothing is used again: ties by LRU. */
	sim_launch(&m);
	sim_in_run(&m, 0, 3);
	sim_touch(&m, 0, false);
	expect_blocks(&m, (const size_t[]){1, 2, 0}, 3);
	sim_stop(&m);
	unlink(path);
}

/* create's message for a trace, or "" when it is accepted. */
static void opt_error(const char *value, char *err, size_t errlen)
{
	const struct uvm_evict_ops *ops = uvm_evict_find("opt");
	struct uvm_space s;
	struct sim cfg;
	void *p;

	assert_int_equal(uvm_space_init(&s, SIM_ARENA), 0);
	sim_config(&cfg, NULL);
	if (value) {
		char e[UVM_ERRLEN];

		assert_int_equal(uvm_config_set(&cfg.cfg, "opt-trace", value, "test", e, sizeof(e)),
				 0);
	}
	err[0] = '\0';
	p = ops->create(&s, &cfg.cfg, err, errlen);
	if (p)
		ops->destroy(p);
	else
		assert_true(err[0] != '\0');
	uvm_space_destroy(&s);
}

static void expect_error(const char *text, const char *needle)
{
	char path[64], err[UVM_ERRLEN];

	write_file(path, sizeof(path), text);
	opt_error(path, err, sizeof(err));
	unlink(path);
	if (!strstr(err, needle) || !strstr(err, path) || strchr(err, '\n'))
		fail_msg("trace %s: error '%s' should name the file and contain '%s'", text, err,
			 needle);
}

static void test_opt_errors(void **state)
{
	char err[UVM_ERRLEN];

	opt_error(NULL, err, sizeof(err));
	assert_non_null(strstr(err, "--opt-trace"));
	opt_error("/nonexistent/uvmemu-trace.csv", err, sizeof(err));
	assert_non_null(strstr(err, "/nonexistent/uvmemu-trace.csv"));
	assert_non_null(strstr(err, "No such file"));

	expect_error("", "no header line");
	expect_error("# only a comment\n", "no header line");
	expect_error("# c\nlaunch,block\n0,1\n", ":2: expected the header");
	expect_error("0,k,1,2,3,faults\n", ":1: expected the header");
	expect_error("launch,kernel,alloc,block,accesses,source\n0,k,1,x,3,faults\n",
		     ":2: not a row");
	expect_error("launch,kernel,alloc,block,accesses,source\n0,k,1,2,3,faults\n0,k,1,2,3,cpu\n",
		     ":3: not a row");
	expect_error("launch,kernel,alloc,block,accesses,source\n0,k,1,2,3\n", ":2: not a row");
	expect_error("launch,kernel,alloc,block,accesses,source\n-1,k,1,2,3,faults\n",
		     ":2: not a row");
	expect_error("launch,kernel,alloc,block,accesses,source\n0,k,1,99999999,3,faults\n",
		     ":2: block 99999999 is out of range");

	/* A header alone is a valid trace: nothing is ever used again. */
	opt_error(header_only, err, sizeof(err));
	assert_string_equal(err, "");
	/* A launch without a kernel name. */
	{
		char path[64];

		write_file(path, sizeof(path),
			   "launch,kernel,alloc,block,accesses,source\n0,,1,2,3,faults\n");
		opt_error(path, err, sizeof(err));
		unlink(path);
		assert_string_equal(err, "");
	}
}

/* ------------------------------------------- every registered policy */

static const char *const *evict_names(void)
{
	static char buf[256];
	static const char *names[32];
	char *save = NULL;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", uvm_options[UVM_OPT_evict].choices);
	for (char *t = strtok_r(buf, "|", &save); t && n < 31; t = strtok_r(NULL, "|", &save))
		names[n++] = t;
	names[n] = NULL;
	return names;
}

static void start_any(struct sim *m, const char *name)
{
	char opt[96];

	snprintf(opt, sizeof(opt), "opt-trace=%s", header_only);
	sim_start(m, name, 8 * MB, (const char *const[]){opt, NULL});
}

static void check_victim(const struct sim *m, const struct uvm_evict_ctx *ctx,
			 const struct uvm_victim *v, size_t want_vablock)
{
	size_t device = 0;

	for (size_t b = v->first; b < v->first + v->n; b++)
		device +=
		    m->s.block[b].state == UVM_DEVICE || m->s.block[b].state == UVM_DUPLICATED;
	if (device == 0 || uvm_vablock_of(v->first) != want_vablock ||
	    uvm_vablock_of(v->first + v->n - 1) != want_vablock)
		fail_msg("%s: victim {%zu, %zu} (%zu on the device), want one in vablock %zu",
			 m->ops->name, v->first, v->n, device, want_vablock);
}

/* Asserts the two passes: first finds `first_pass` (SIZE_MAX: nothing), the
 * second (when the first finds nothing) `second_pass`. */
static void expect_passes(struct sim *m, struct uvm_evict_ctx *ctx, size_t first_pass,
			  size_t second_pass)
{
	struct uvm_victim v;
	int rc;

	ctx->allow_in_use = false;
	rc = m->ops->pick(m->p, ctx, &v);
	if (first_pass == SIZE_MAX) {
		if (rc == 0)
			fail_msg("%s: first pass picked {%zu, %zu}, want nothing", m->ops->name,
				 v.first, v.n);
		assert_int_equal(rc, -ENOENT);
	} else {
		if (rc)
			fail_msg("%s: first pass found nothing", m->ops->name);
		check_victim(m, ctx, &v, first_pass);
		return;
	}
	ctx->allow_in_use = true;
	rc = m->ops->pick(m->p, ctx, &v);
	if (second_pass == SIZE_MAX) {
		if (rc == 0)
			fail_msg("%s: second pass picked {%zu, %zu}, want nothing", m->ops->name,
				 v.first, v.n);
		assert_int_equal(rc, -ENOENT);
	} else {
		if (rc)
			fail_msg("%s: second pass found nothing", m->ops->name);
		check_victim(m, ctx, &v, second_pass);
	}
}

static void test_rules_every_policy(void **state)
{
	for (const char *const *name = evict_names(); *name; name++) {
		struct sim m;
		struct uvm_evict_ctx ctx;

		/* Nothing resident. */
		start_any(&m, *name);
		ctx = sim_ctx(&m);
		expect_passes(&m, &ctx, SIZE_MAX, SIZE_MAX);

		/* Only the vablock being serviced holds anything. */
		sim_in_run(&m, V(0), 32);
		ctx = sim_ctx(&m);
		ctx.keep_vablock = 0;
		expect_passes(&m, &ctx, SIZE_MAX, SIZE_MAX);

		/* Only an in-use vablock: not before the second pass. */
		ctx = sim_ctx(&m);
		m.s.vablock[0].in_batch = ctx.batch;
		expect_passes(&m, &ctx, SIZE_MAX, 0);

		/* In use and kept: the second pass takes the in-use one. */
		sim_in_run(&m, V(1), 32);
		ctx = sim_ctx(&m);
		m.s.vablock[0].in_batch = ctx.batch;
		ctx.keep_vablock = 1;
		expect_passes(&m, &ctx, SIZE_MAX, 0);

		/* One in use, another free: the free one, in the first pass,
		 * whatever the order (1 is both newer and in use; then 0). */
		ctx = sim_ctx(&m);
		m.s.vablock[1].in_batch = ctx.batch;
		ctx.keep_vablock = 2;
		expect_passes(&m, &ctx, 0, SIZE_MAX);
		ctx = sim_ctx(&m);
		m.s.vablock[0].in_batch = ctx.batch;
		expect_passes(&m, &ctx, 1, SIZE_MAX);
		sim_stop(&m);
	}
}

/* A vablock whose device copies are all DUPLICATED (read-only copies with a
 * host copy) still holds device memory, which eviction frees by dropping the
 * device copies: every policy may name it, on its first pass since it is not
 * in use. */
static void test_duplicated_is_a_victim(void **state)
{
	for (const char *const *name = evict_names(); *name; name++) {
		struct sim m;
		struct uvm_evict_ctx ctx;

		start_any(&m, *name);
		for (size_t b = V(2); b < V(2) + 32; b++) {
			uvm_block_move(&m.s, b, UVM_HOST);
			uvm_block_move(&m.s, b, UVM_DUPLICATED);
			m.s.block[b].dups = 1; /* GPU 0's copy */
			m.s.vablock[2].resident++;
			m.ops->resident(m.p, b);
		}
		sim_in_run(&m, V(3), 32);
		ctx = sim_ctx(&m);
		m.s.vablock[3].in_batch = ctx.batch;
		expect_passes(&m, &ctx, 2, SIZE_MAX);
		sim_stop(&m);
	}
}

/* A mixed history (partial vablocks, touches, returns): picking until
 * nothing is left evicts every resident block, each victim valid. */
static void test_drain_every_policy(void **state)
{
	for (const char *const *name = evict_names(); *name; name++) {
		struct sim m;
		uint64_t x = 12345;
		size_t resident = 0, evicted = 0, rounds = 0;

		start_any(&m, *name);
		for (size_t b = 0; b < 4 * UVM_BLOCKS_PER_VABLOCK; b++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			if (x >> 62) {
				sim_in(&m, b);
				resident++;
			}
		}
		for (size_t b = 0; b < 4 * UVM_BLOCKS_PER_VABLOCK; b += 3)
			if (m.s.block[b].state == UVM_DEVICE)
				sim_touch(&m, b, b % 2);
		for (;;) {
			struct uvm_evict_ctx ctx = sim_ctx(&m);
			struct uvm_victim v;

			ctx.keep_vablock = 3;
			if (sim_pick2(&m, &ctx, &v))
				break;
			check_victim(&m, &ctx, &v, uvm_vablock_of(v.first));
			assert_true(uvm_vablock_of(v.first) != 3);
			evicted += sim_evict(&m, &v);
			assert_true(++rounds <= resident);
		}
		/* Everything but the kept vablock went. */
		for (size_t b = V(3); b < V(4); b++)
			evicted += m.s.block[b].state == UVM_DEVICE;
		assert_int_equal(evicted, resident);
		sim_stop(&m);
	}
}

static int group_setup(void **state)
{
	write_file(header_only, sizeof(header_only), "launch,kernel,alloc,block,accesses,source\n");
	return 0;
}

static int group_teardown(void **state)
{
	unlink(header_only);
	return 0;
}

/* Several GPUs: an instance per GPU hears its own GPU's copies only. */
static void gpu0_resident(void *p, size_t b)
{
	struct sim *m = p;

	if (uvm_res_event_gpu(&m->r) == 0)
		m->ops->resident(m->p, b);
}

static void gpu0_released(void *p, size_t b)
{
	struct sim *m = p;

	if (uvm_res_event_gpu(&m->r) == 0)
		m->ops->released(m->p, b);
}

/*
 * A vablock that leaves GPU 0 for GPU 1 and comes back joins GPU 0's age
 * order again at the newest end, although the vablock never stopped being
 * on some GPU: the order is per GPU. (Counted by every GPU's copies, it
 * stayed oldest, and every eviction from GPU 0 sent it back to GPU 1.)
 */
static void test_age_order_per_gpu(void **state)
{
	for (const char *const *name = (const char *const[]){"lru2m", "cpc", NULL}; *name; name++) {
		struct sim m;
		struct uvm_evict_ctx ctx;
		struct uvm_victim v;

		sim_start(&m, *name, 8 * MB, NULL);
		m.r.nobs = 0; /* the instance hears GPU 0 alone */
		uvm_res_observe(&m.r, &(struct uvm_res_observer){.p = &m,
								 .resident = gpu0_resident,
								 .released = gpu0_released});
		uvm_res_set_gpus(&m.r, 2);
		sim_in_run(&m, V(0), 32);
		sim_in_run(&m, V(1), 32);
		uvm_res_peer(&m.r, V(0), 32, 1, UVM_RES_EVICT);
		uvm_res_peer(&m.r, V(0), 32, 0, UVM_RES_MIGRATE);
		{
			char err[256];

			if (uvm_res_check(&m.r, err, sizeof(err)))
				fail_msg("residency: %s", err);
		}
		ctx = sim_ctx(&m);
		assert_int_equal(sim_pick2(&m, &ctx, &v), 0);
		if (v.first != V(1))
			fail_msg(
			    "%s: picked the vablock at block %zu, want %zu (the oldest on GPU 0)",
			    *name, v.first, (size_t)V(1));
		sim_stop(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lru64k_order),
	    cmocka_unit_test(test_tree_full_vablock),
	    cmocka_unit_test(test_tree_touch_order),
	    cmocka_unit_test(test_tree_sparse_vablock),
	    cmocka_unit_test(test_tree_allocation_tail),
	    cmocka_unit_test(test_lfu_order),
	    cmocka_unit_test(test_lfu_no_counts),
	    cmocka_unit_test(test_lfu_heap_is_the_rule),
	    cmocka_unit_test(test_seq_local_vablock_first),
	    cmocka_unit_test(test_seq_local_key_falls),
	    cmocka_unit_test(test_nru_classes),
	    cmocka_unit_test(test_nru_clears_when_all_referenced),
	    cmocka_unit_test(test_lru2m_order),
	    cmocka_unit_test(test_lfu2m_order),
	    cmocka_unit_test(test_reverse_order),
	    cmocka_unit_test(test_reverse_touch_and_return),
	    cmocka_unit_test(test_cpc_alternates),
	    cmocka_unit_test(test_cpc_switches_allocation),
	    cmocka_unit_test(test_opt_order),
	    cmocka_unit_test(test_opt_errors),
	    cmocka_unit_test(test_rules_every_policy),
	    cmocka_unit_test(test_duplicated_is_a_victim),
	    cmocka_unit_test(test_age_order_per_gpu),
	    cmocka_unit_test(test_drain_every_policy),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
