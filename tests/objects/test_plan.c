// SPDX-License-Identifier: MIT
/*
 * Description: the object planner's plans are exact for a crafted profile
 * and capacity, with no emulator and no threads. Four objects over four
 * launches (a cfd-like pattern: A with high global locality, B reused two
 * launches on, C reused later than B, D touched sparsely); capacity 8
 * blocks, then 7 and unlimited. For every scheme and launch the test pins
 * which objects go to the device and in what order, which are mapped
 * partially and by how much, which stay remote or on demand, and which are
 * evicted, in order (copy: every launch's objects copied in whole after
 * everything copied in before is copied out; prefetch: every launch's
 * objects whole; host: all remote; lru: least recently used objects make
 * room; rlm: regional locality, evicting across kernels; glm: global
 * locality, never replacing higher GL; rdm: next reuse time, partial
 * mapping, GL breaking ties). The profile's text form reads back what was
 * written, and malformed files give "FILE:LINE: reason".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "plan.h"
#include "profile.h"

#define B ((uint64_t)UVMEMU_BLOCK_SIZE) /* one block of the unit built (64 KB or 4 KB) */

enum { A, BO, C, D }; /* object indices (= allocation ids) */

/*
 * A (4 blocks), B (4), C (2), D (6 blocks less 100 bytes: footprint 6).
 *   launch 0 k0: A (4 blocks touched, 40 accesses), B (4, 10)
 *   launch 1 k1: A (4, 40), C (2, 30)
 *   launch 2 k2: B (4, 10), D (1 block: density 1/6, 5)
 *   launch 3 k1: A (4, 40), C (2, 30)
 * GL: A 120, C 60, B 20, D 5. Reuse: A 1, 2, -; B 2, -; C 2, -; D -.
 */
static void cfd_like(struct uvm_objprof *p)
{
	static const struct {
		uint64_t launch;
		uint32_t obj;
		uint64_t touched, accesses;
	} uses[] = {
	    {0, A, 4 * B, 40},	{0, BO, 4 * B, 10}, {1, A, 4 * B, 40}, {1, C, 2 * B, 30},
	    {2, BO, 4 * B, 10}, {2, D, B, 5},	    {3, A, 4 * B, 40}, {3, C, 2 * B, 30},
	};

	uvm_objprof_init(p);
	assert_int_equal(uvm_objprof_add_object(p, A, 4 * B, "A"), 0);
	assert_int_equal(uvm_objprof_add_object(p, BO, 4 * B, "B"), 0);
	assert_int_equal(uvm_objprof_add_object(p, C, 2 * B, "C"), 0);
	assert_int_equal(uvm_objprof_add_object(p, D, 6 * B - 100, "D"), 0);
	assert_int_equal(uvm_objprof_add_launch(p, "k0"), 0);
	assert_int_equal(uvm_objprof_add_launch(p, "k1"), 0);
	assert_int_equal(uvm_objprof_add_launch(p, "k2"), 0);
	assert_int_equal(uvm_objprof_add_launch(p, "k1"), 0);
	for (size_t i = 0; i < sizeof(uses) / sizeof(uses[0]); i++)
		assert_int_equal(uvm_objprof_add_use(p, uses[i].launch, uses[i].obj,
						     uses[i].touched, uses[i].accesses),
				 0);
	assert_int_equal(uvm_objprof_finish(p, NULL), 0);
}

/* A launch's expected plan: entries as "A device 4" (blocks), evictions as "B". */
struct want {
	const char *entry[4];
	const char *evicted[4];
};

static const char *const names[] = {"A", "B", "C", "D"};

static void check(const struct uvm_objplan *got, const struct want *w, const char *scheme)
{
	char buf[64];
	size_t n = 0, e = 0;

	while (n < 4 && w->entry[n])
		n++;
	while (e < 4 && w->evicted[e])
		e++;
	if (got->n != n)
		fail_msg("%s launch %llu: %zu entries, want %zu", scheme,
			 (unsigned long long)got->launch, got->n, n);
	for (size_t i = 0; i < n; i++) {
		const struct uvm_objplan_entry *en = &got->entry[i];

		assert_true(en->dev_bytes % B == 0);
		snprintf(buf, sizeof(buf), "%s %s %llu", names[en->obj],
			 uvm_objplace_name(en->place), (unsigned long long)(en->dev_bytes / B));
		if (strcmp(buf, w->entry[i]) != 0)
			fail_msg("%s launch %llu entry %zu: '%s', want '%s'", scheme,
				 (unsigned long long)got->launch, i, buf, w->entry[i]);
	}
	if (got->nevicted != e)
		fail_msg("%s launch %llu: %zu evicted, want %zu", scheme,
			 (unsigned long long)got->launch, got->nevicted, e);
	for (size_t i = 0; i < e; i++)
		if (strcmp(names[got->evicted[i]], w->evicted[i]) != 0)
			fail_msg("%s launch %llu: eviction %zu is %s, want %s", scheme,
				 (unsigned long long)got->launch, i, names[got->evicted[i]],
				 w->evicted[i]);
}

/* Plans every launch of the cfd-like profile and checks each against want[]. */
static void run_scheme(enum uvm_objects_choice s, uint64_t capacity, const struct want *want)
{
	struct uvm_objprof p;
	struct uvm_objplanner pl;

	cfd_like(&p);
	assert_int_equal(uvm_objplanner_init(&pl, &p, s, capacity, 0.5), 0);
	for (uint64_t l = 0; l < p.nlaunch; l++) {
		struct uvm_objplan plan;

		assert_int_equal(uvm_objplanner_launch(&pl, l, &plan), 0);
		check(&plan, &want[l], uvm_objscheme_name(s));
		/* The baselines place without the capacity (the driver evicts). */
		assert_true(pl.used <= capacity || capacity == 0 || s == UVM_OBJ_COPY ||
			    s == UVM_OBJ_PREFETCH);
		uvm_objplan_free(&plan);
	}
	/* Past the profile's end: nothing to do. */
	{
		struct uvm_objplan plan;

		assert_int_equal(uvm_objplanner_launch(&pl, p.nlaunch, &plan), 0);
		assert_int_equal(plan.n, 0);
		uvm_objplan_free(&plan);
	}
	uvm_objplanner_destroy(&pl);
	uvm_objprof_free(&p);
}

static void test_profile_derived(void **state)
{
	struct uvm_objprof p;

	(void)state;
	cfd_like(&p);
	assert_int_equal(p.nuse, 8);
	assert_int_equal(p.obj[A].accesses, 120);
	assert_int_equal(p.obj[C].accesses, 60);
	/* launch 0: A reused at 1, B at 2; launch 1: A at 3, C at 3; launch 3: none */
	assert_int_equal(p.use[0].reuse, 1);
	assert_int_equal(p.use[1].reuse, 2);
	assert_int_equal(p.use[2].reuse, 2);
	assert_int_equal(p.use[3].reuse, 2);
	assert_true(p.use[4].reuse == UVM_OBJPROF_NEVER && p.use[5].reuse == UVM_OBJPROF_NEVER);
	assert_true(fabs(p.use[5].density - (double)B / (double)(6 * B - 100)) < 1e-5);
	uvm_objprof_free(&p);
}

/* An object takes whole migration units of the library built: at 4 KB a
 * small object costs one page, not a 64 KB block. */
static void test_footprint_unit(void **state)
{
	(void)state;
	assert_int_equal(uvm_objplan_footprint(0), 0);
	assert_int_equal(uvm_objplan_footprint(1), B);
	assert_int_equal(uvm_objplan_footprint(100), B);
	assert_int_equal(uvm_objplan_footprint(B), B);
	assert_int_equal(uvm_objplan_footprint(6 * B - 100), 6 * B);
	assert_int_equal(uvm_objplan_footprint(B + 1), 2 * B);
}

/* Explicit copies: each launch's objects copied in whole, after everything
 * an earlier launch copied in has been copied out, this launch's own
 * included (A goes out and in again at launch 1); density and capacity do
 * not enter (D whole at launch 2, 10 blocks in 8). */
static void test_copy(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B device 4"}, {NULL}},
	    {{"A device 4", "C device 2"}, {"A", "B"}},
	    {{"B device 4", "D device 6"}, {"A", "C"}},
	    {{"A device 4", "C device 2"}, {"B", "D"}},
	};

	(void)state;
	run_scheme(UVM_OBJ_COPY, 8 * B, w);
}

/* Prefetch everything: each launch's objects whole, nothing planned out
 * (what the device already holds is not moved again; the driver evicts
 * when they do not fit). */
static void test_prefetch(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B device 4"}, {NULL}},
	    {{"A device 4", "C device 2"}, {NULL}},
	    {{"B device 4", "D device 6"}, {NULL}},
	    {{"A device 4", "C device 2"}, {NULL}},
	};

	(void)state;
	run_scheme(UVM_OBJ_PREFETCH, 8 * B, w);
}

static void test_host(void **state)
{
	static const struct want w[] = {
	    {{"A remote 0", "B remote 0"}, {NULL}},
	    {{"A remote 0", "C remote 0"}, {NULL}},
	    {{"B remote 0", "D remote 0"}, {NULL}},
	    {{"A remote 0", "C remote 0"}, {NULL}},
	};

	(void)state;
	run_scheme(UVM_OBJ_HOST, 8 * B, w);
}

static void test_lru(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B device 4"}, {NULL}},
	    {{"A device 4", "C device 2"}, {"B"}},
	    /* D (density ignored: LRU transfers explicitly) does not fit even
	     * without C, so nothing is evicted for it */
	    {{"B device 4", "D remote 0"}, {"A"}},
	    {{"A device 4", "C device 2"}, {"B"}},
	};

	(void)state;
	run_scheme(UVM_OBJ_LRU, 8 * B, w);
}

static void test_rlm(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B device 4"}, {NULL}},
	    {{"A device 4", "C device 2"}, {"B"}},
	    /* B evicts C (lower RL) first, then D's touched block evicts A */
	    {{"B device 4", "D demand 1"}, {"C", "A"}},
	    {{"A device 4", "C device 2"}, {"D", "B"}},
	};

	(void)state;
	run_scheme(UVM_OBJ_RLM, 8 * B, w);
}

static void test_glm(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B device 4"}, {NULL}},
	    {{"A device 4", "C device 2"}, {"B"}},
	    /* B may not replace A or C (higher GL): remote; D's block fits */
	    {{"B remote 0", "D demand 1"}, {NULL}},
	    {{"A device 4", "C device 2"}, {NULL}},
	};

	(void)state;
	run_scheme(UVM_OBJ_GLM, 8 * B, w);
}

static void test_rdm(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B device 4"}, {NULL}},
	    /* C (next use 3) may not replace B (next use 2) */
	    {{"A device 4", "C remote 0"}, {NULL}},
	    {{"B device 4", "D remote 0"}, {NULL}},
	    /* B is never used again, C is: B goes (equal next use, lower GL) */
	    {{"A device 4", "C device 2"}, {"B"}},
	};

	(void)state;
	run_scheme(UVM_OBJ_RDM, 8 * B, w);
}

static void test_rdm_partial(void **state)
{
	static const struct want w[] = {
	    /* B straddles the capacity: its first 3 blocks are mapped */
	    {{"A device 4", "B partial 3"}, {NULL}},
	    {{"A device 4", "C remote 0"}, {NULL}},
	    /* B keeps its part; D does not fit */
	    {{"B partial 3", "D remote 0"}, {NULL}},
	    {{"A device 4", "C device 2"}, {"B"}},
	};

	(void)state;
	run_scheme(UVM_OBJ_RDM, 7 * B, w);
}

static void test_glm_no_partial(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B remote 0"}, {NULL}},
	    {{"A device 4", "C device 2"}, {NULL}},
	    {{"B remote 0", "D demand 1"}, {NULL}},
	    {{"A device 4", "C device 2"}, {NULL}},
	};

	(void)state;
	run_scheme(UVM_OBJ_GLM, 7 * B, w);
}

static void test_unlimited(void **state)
{
	static const struct want w[] = {
	    {{"A device 4", "B device 4"}, {NULL}},
	    {{"A device 4", "C device 2"}, {NULL}},
	    {{"B device 4", "D demand 1"}, {NULL}},
	    {{"A device 4", "C device 2"}, {NULL}},
	};

	(void)state;
	run_scheme(UVM_OBJ_RDM, 0, w);
}

/* RDM maps partially after evicting every object it may replace. */
static void test_rdm_partial_evicts(void **state)
{
	struct uvm_objprof p;
	struct uvm_objplanner pl;
	struct uvm_objplan plan;

	(void)state;
	uvm_objprof_init(&p);
	assert_int_equal(uvm_objprof_add_object(&p, 0, 2 * B, "P"), 0);
	assert_int_equal(uvm_objprof_add_object(&p, 1, 8 * B, "Q"), 0);
	for (int l = 0; l < 3; l++)
		assert_int_equal(uvm_objprof_add_launch(&p, "k"), 0);
	assert_int_equal(uvm_objprof_add_use(&p, 0, 0, 2 * B, 1), 0);
	assert_int_equal(uvm_objprof_add_use(&p, 1, 1, 8 * B, 1), 0);
	assert_int_equal(uvm_objprof_add_use(&p, 2, 1, 8 * B, 1), 0);
	assert_int_equal(uvm_objprof_finish(&p, NULL), 0);
	assert_int_equal(uvm_objplanner_init(&pl, &p, UVM_OBJ_RDM, 7 * B, 0.5), 0);
	assert_int_equal(uvm_objplanner_launch(&pl, 0, &plan), 0);
	assert_true(plan.n == 1 && plan.entry[0].place == UVM_PLACE_DEVICE && !plan.nevicted);
	uvm_objplan_free(&plan);
	/* Q (reused next launch) may replace P (never reused): P goes, and
	 * Q's first 7 blocks are mapped. */
	assert_int_equal(uvm_objplanner_launch(&pl, 1, &plan), 0);
	assert_true(plan.n == 1 && plan.entry[0].obj == 1);
	assert_int_equal(plan.entry[0].place, UVM_PLACE_PARTIAL);
	assert_int_equal(plan.entry[0].dev_bytes, 7 * B);
	assert_true(plan.nevicted == 1 && plan.evicted[0] == 0);
	uvm_objplan_free(&plan);
	uvm_objplanner_destroy(&pl);
	uvm_objprof_free(&p);
}

/* ------------------------------------------------------------ text form */

static char path[64];

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_text_round_trip(void **state)
{
	struct uvm_objprof p, q;
	char err[512];
	FILE *f;

	(void)state;
	cfd_like(&p);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(uvm_objprof_write(&p, f), 0);
	fclose(f);
	assert_int_equal(uvm_objprof_read(&q, path, err, sizeof(err)), 0);
	assert_int_equal(q.nobj, p.nobj);
	assert_int_equal(q.nlaunch, p.nlaunch);
	assert_int_equal(q.nuse, p.nuse);
	for (size_t i = 0; i < p.nuse; i++) {
		assert_int_equal(q.use[i].obj, p.use[i].obj);
		assert_int_equal(q.use[i].touched, p.use[i].touched);
		assert_int_equal(q.use[i].accesses, p.use[i].accesses);
		assert_int_equal(q.use[i].reuse, p.use[i].reuse);
	}
	assert_string_equal(q.launch[3].kernel, "k1");
	assert_int_equal(q.obj[D].bytes, 6 * B - 100);
	uvm_objprof_free(&p);
	uvm_objprof_free(&q);
}

/* Each malformed file must fail with "PATH:LINE: ..." containing `want`. */
static void expect_error(const char *text, int line, const char *want)
{
	struct uvm_objprof p;
	char err[512], prefix[96];

	write_file(text);
	if (uvm_objprof_read(&p, path, err, sizeof(err)) == 0)
		fail_msg("read a malformed profile: %s", text);
	snprintf(prefix, sizeof(prefix), "%s:%d: ", path, line);
	if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, want))
		fail_msg("error '%s', want '%s...%s'", err, prefix, want);
	assert_null(strchr(err, '\n'));
}

static void test_text_errors(void **state)
{
	(void)state;
	expect_error("hello\n", 1, "not an object profile");
	expect_error("uvmemu-objects 2\n", 1, "version 2");
	expect_error("uvmemu-objects 1\nobject 0 10\n", 2, "'object' takes 3 fields");
	expect_error("uvmemu-objects 1\nobject 0 0 a\n", 2, "not a positive number");
	expect_error("uvmemu-objects 1\nobject 1 10 a\nobject 0 10 b\n", 3, "ascending id");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 1 k\n", 3, "launch 0 was due");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 1 0 0 0 -\n", 4,
		     "no object line declares");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 0 11 0 1 -\n", 4,
		     "touched bytes");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 0 5 0 0.5\n", 4,
		     "'use' takes 6 fields");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 0 5 0 0.25 -\n", 4,
		     "density 0.250000, but 5 of 10 bytes is 0.500000");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 0 5 0 0.5 3\n"
		     "launch 1 k\nuse 1 0 5 0 0.5 -\n",
		     4, "reuse 3, but launch 1 uses it next");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 0 5 0 0.5 -\n"
		     "launch 1 k\nuse 1 0 5 0 0.5 -\n",
		     4, "reuse -, but launch 1 uses it next");
	expect_error("uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 0 5 0 0.5 -\nfoo 1\n", 5,
		     "unknown record 'foo'");
	expect_error("uvmemu-objects 1\nobject 0 10 a\n", 2, "no launches");
	expect_error("", 0, "empty");
}

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/objects-plan-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_profile_derived),
	    cmocka_unit_test(test_copy),
	    cmocka_unit_test(test_prefetch),
	    cmocka_unit_test(test_host),
	    cmocka_unit_test(test_lru),
	    cmocka_unit_test(test_rlm),
	    cmocka_unit_test(test_glm),
	    cmocka_unit_test(test_rdm),
	    cmocka_unit_test(test_rdm_partial),
	    cmocka_unit_test(test_glm_no_partial),
	    cmocka_unit_test(test_unlimited),
	    cmocka_unit_test(test_footprint_unit),
	    cmocka_unit_test(test_rdm_partial_evicts),
	    cmocka_unit_test(test_text_round_trip),
	    cmocka_unit_test(test_text_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
