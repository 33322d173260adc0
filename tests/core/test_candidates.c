// SPDX-License-Identifier: MIT
/*
 * Description: UVMMU's destination candidate queue (candidates.h). It never
 * hands out a frame twice (every frame held belongs to exactly one block, in
 * both tables), refills up to 64 ready frames only once it is below its low
 * mark of 32, counts a stall when a take finds it empty, hands out no frame
 * above the device capacity, and gives a victim's frame to the next taker.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "candidates.h"
#include "testing.h"

#define FRAMES 256u

/* Every held frame is one block's and every block's frame is held by it. */
static void check_tables(const struct uvm_cq *q, size_t nblocks)
{
	uint8_t *seen = calloc(q->nframes, 1);

	assert_non_null(seen);
	for (size_t b = 0; b < nblocks; b++) {
		uint32_t f = uvm_cq_frame_of(q, b);

		if (f == UVM_CQ_NONE)
			continue;
		assert_true(f < q->limit);
		assert_int_equal(seen[f], 0); /* no frame twice */
		seen[f] = 1;
		assert_int_equal(uvm_cq_block_of(q, f), b);
	}
	for (unsigned i = 0; i < q->n; i++) {
		assert_int_equal(seen[q->queue[i]], 0); /* a queued frame is nobody's */
		assert_int_equal(uvm_cq_block_of(q, q->queue[i]), UVM_CQ_NONE);
		seen[q->queue[i]] = 1;
	}
	free(seen);
}

static void test_refills_below_low_mark(void **state)
{
	struct uvm_cq q;

	(void)state;
	assert_int_equal(uvm_cq_init(&q, FRAMES, FRAMES), 0);
	assert_int_equal(uvm_cq_refill(&q), UVM_CQ_SIZE);
	assert_int_equal(q.n, UVM_CQ_SIZE);
	assert_int_equal(q.refills, 1);
	/* Down to the low mark: no refill yet. */
	for (size_t b = 0; b < UVM_CQ_SIZE - UVM_CQ_LOW; b++)
		assert_true(uvm_cq_take(&q, b) != UVM_CQ_NONE);
	assert_int_equal(q.n, UVM_CQ_LOW);
	assert_int_equal(uvm_cq_refill(&q), 0);
	assert_int_equal(q.refills, 1);
	/* One below it: the refill tops the queue up to 64. */
	assert_true(uvm_cq_take(&q, UVM_CQ_SIZE - UVM_CQ_LOW) != UVM_CQ_NONE);
	assert_int_equal(q.n, UVM_CQ_LOW - 1);
	assert_int_equal(uvm_cq_refill(&q), UVM_CQ_SIZE - UVM_CQ_LOW + 1);
	assert_int_equal(q.n, UVM_CQ_SIZE);
	assert_int_equal(q.refills, 2);
	assert_int_equal(q.stalls, 0);
	check_tables(&q, FRAMES);
	uvm_cq_destroy(&q);
}

static void test_never_twice(void **state)
{
	struct uvm_cq q;

	(void)state;
	assert_int_equal(uvm_cq_init(&q, FRAMES, FRAMES), 0);
	/* Every frame taken, with refills only when a take finds none. */
	for (size_t b = 0; b < FRAMES; b++)
		assert_true(uvm_cq_take(&q, b) != UVM_CQ_NONE);
	assert_int_equal(q.stalls, FRAMES / UVM_CQ_SIZE);
	check_tables(&q, FRAMES);
	/* Full: nothing more to give. */
	uvm_cq_release(&q, 17);
	uvm_cq_release(&q, 200);
	check_tables(&q, FRAMES);
	assert_true(uvm_cq_take(&q, 17) != UVM_CQ_NONE);
	assert_true(uvm_cq_take(&q, 200) != UVM_CQ_NONE);
	check_tables(&q, FRAMES);
	/* A block that holds a frame keeps it. */
	assert_int_equal(uvm_cq_take(&q, 17), uvm_cq_frame_of(&q, 17));
	/* Random churn never breaks the tables. */
	srand(1);
	for (int i = 0; i < 20000; i++) {
		size_t b = (size_t)rand() % FRAMES;

		if (uvm_cq_frame_of(&q, b) == UVM_CQ_NONE)
			assert_true(uvm_cq_take(&q, b) != UVM_CQ_NONE);
		else
			uvm_cq_release(&q, b);
		if (i % 97 == 0)
			uvm_cq_refill(&q);
		if (i % 1000 == 0)
			check_tables(&q, FRAMES);
	}
	check_tables(&q, FRAMES);
	uvm_cq_destroy(&q);
}

static void test_swap_takes_victims_frame(void **state)
{
	struct uvm_cq q;
	uint32_t f;

	(void)state;
	assert_int_equal(uvm_cq_init(&q, 2 * FRAMES, FRAMES), 0);
	for (size_t b = 0; b < FRAMES; b++)
		assert_true(uvm_cq_take(&q, b) != UVM_CQ_NONE);
	assert_int_equal(uvm_cq_take(&q, FRAMES), UVM_CQ_NONE); /* full */
	f = uvm_cq_frame_of(&q, 42);
	uvm_cq_release(&q, 42); /* the victim */
	assert_int_equal(uvm_cq_take(&q, FRAMES), f);
	check_tables(&q, 2 * FRAMES);
	uvm_cq_destroy(&q);
}

static void test_capacity_limit(void **state)
{
	struct uvm_cq q;

	(void)state;
	assert_int_equal(uvm_cq_init(&q, FRAMES, 100), 0);
	for (size_t b = 0; b < 100; b++)
		assert_true(uvm_cq_take(&q, b) < 100);
	assert_int_equal(uvm_cq_take(&q, 100), UVM_CQ_NONE);
	check_tables(&q, FRAMES);
	uvm_cq_destroy(&q);
	/* Lowered: queued frames above the new limit are not handed out. */
	assert_int_equal(uvm_cq_init(&q, FRAMES, FRAMES), 0);
	uvm_cq_refill(&q);
	uvm_cq_set_limit(&q, 40);
	for (size_t b = 0; b < 40; b++)
		assert_true(uvm_cq_take(&q, b) < 40);
	assert_int_equal(uvm_cq_take(&q, 40), UVM_CQ_NONE);
	check_tables(&q, FRAMES);
	/* Raised again: the frames above the old limit are found. */
	uvm_cq_set_limit(&q, 100);
	for (size_t b = 40; b < 100; b++)
		assert_true(uvm_cq_take(&q, b) < 100);
	assert_int_equal(uvm_cq_take(&q, 100), UVM_CQ_NONE);
	check_tables(&q, FRAMES);
	uvm_cq_destroy(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_refills_below_low_mark),
	    cmocka_unit_test(test_never_twice),
	    cmocka_unit_test(test_swap_takes_victims_frame),
	    cmocka_unit_test(test_capacity_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
