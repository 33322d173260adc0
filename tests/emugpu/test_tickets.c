// SPDX-License-Identifier: MIT
/*
 * Description: a kernel's CTA tickets (emu-gpu/src/tickets.c). Split into
 * shares, every ticket is handed out exactly once: each taker runs its own
 * share in order before it steals; a taker asking for dispatch order (own 0)
 * gets the lowest tickets left; shares never outnumber tickets; and takers
 * racing on four threads still hand out each ticket once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tickets.h"

static struct eg_tickets tk;

/* Takes one hand-out and checks it is [want_first, want_end). */
static void expect_take(unsigned own, uint32_t size, uint64_t want_first, uint64_t want_end)
{
	uint64_t first = ~0ull, end = ~0ull;

	assert_true(eg_tickets_take(&tk, own, size, &first, &end));
	assert_int_equal(first, want_first);
	assert_int_equal(end, want_end);
}

static void test_own_share_first_then_steal(void **state)
{
	uint64_t first, end;

	(void)state;
	eg_tickets_split(&tk, 10, 2); /* shares [0, 5) and [5, 10) */
	assert_int_equal(tk.nshares, 2);
	expect_take(1, 2, 5, 7);
	expect_take(0, 1, 0, 1);
	expect_take(1, 2, 7, 9);
	expect_take(1, 2, 9, 10); /* cut at its share's end */
	expect_take(1, 3, 1, 4);  /* its share is done: steals share 0 */
	assert_true(eg_tickets_left(&tk));
	expect_take(0, 3, 4, 5);
	assert_false(eg_tickets_left(&tk));
	assert_false(eg_tickets_take(&tk, 0, 1, &first, &end));
	assert_false(eg_tickets_take(&tk, 1, 1, &first, &end));
}

/* A faulting kernel's takers pass own 0: lowest share first, in order. */
static void test_dispatch_order_from_lowest_share(void **state)
{
	(void)state;
	eg_tickets_split(&tk, 9, 3); /* [0, 3) [3, 6) [6, 9) */
	expect_take(2, 1, 6, 7);     /* a main worker's first CTA, ahead */
	expect_take(0, 2, 0, 2);
	expect_take(0, 2, 2, 3);
	expect_take(0, 2, 3, 5);
	expect_take(0, 2, 5, 6);
	expect_take(0, 4, 7, 9);
	assert_false(eg_tickets_left(&tk));
}

static void test_one_share_is_the_grid(void **state)
{
	(void)state;
	eg_tickets_split(&tk, 1000, 1);
	assert_int_equal(tk.nshares, 1);
	expect_take(3, 256, 0, 256); /* any taker: the one share */
	expect_take(0, 1000, 256, 1000);
	assert_false(eg_tickets_left(&tk));
}

static void test_share_count_limits(void **state)
{
	(void)state;
	eg_tickets_split(&tk, 3, 8); /* never more shares than tickets */
	assert_int_equal(tk.nshares, 3);
	for (unsigned i = 0; i < 3; i++)
		expect_take(i, 5, i, i + 1);
	eg_tickets_split(&tk, 0, 4); /* an empty grid: one empty share */
	assert_int_equal(tk.nshares, 1);
	assert_false(eg_tickets_left(&tk));
	eg_tickets_split(&tk, 1u << 20, 1000);
	assert_int_equal(tk.nshares, EG_MAX_SHARES);
	/* equal shares, contiguous, covering the grid */
	for (unsigned i = 0; i < EG_MAX_SHARES; i++) {
		assert_int_equal(tk.share[i].end - atomic_load(&tk.share[i].next),
				 (1u << 20) / EG_MAX_SHARES);
		if (i)
			assert_int_equal(atomic_load(&tk.share[i].next), tk.share[i - 1].end);
	}
	assert_int_equal(tk.share[EG_MAX_SHARES - 1].end, 1u << 20);
}

#define RACE_TICKETS 200003u
#define RACE_THREADS 4

static _Atomic unsigned char taken[RACE_TICKETS];

struct taker {
	unsigned own;
	bool dispatch_order; /* as a faulting kernel's takers */
};

static void *race(void *arg)
{
	const struct taker *t = arg;
	uint64_t first, end;
	uint32_t size = 1;

	while (eg_tickets_take(&tk, t->dispatch_order ? 0 : t->own, size, &first, &end)) {
		for (uint64_t i = first; i < end; i++)
			atomic_fetch_add(&taken[i], 1);
		size = size < 64 ? size * 2 : 1; /* hand-out sizes change, as in worker.c */
	}
	return NULL;
}

static void test_racing_takers_take_each_ticket_once(void **state)
{
	pthread_t th[RACE_THREADS];
	struct taker t[RACE_THREADS];

	(void)state;
	for (int round = 0; round < 4; round++) {
		memset(taken, 0, sizeof(taken));
		eg_tickets_split(&tk, RACE_TICKETS, round % 2 ? 1 : 3);
		for (unsigned i = 0; i < RACE_THREADS; i++) {
			t[i] = (struct taker){i, round >= 2 && i % 2};
			assert_int_equal(pthread_create(&th[i], NULL, race, &t[i]), 0);
		}
		for (unsigned i = 0; i < RACE_THREADS; i++)
			pthread_join(th[i], NULL);
		for (unsigned i = 0; i < RACE_TICKETS; i++)
			if (atomic_load(&taken[i]) != 1)
				fail_msg("round %d: ticket %u handed out %u times", round, i,
					 atomic_load(&taken[i]));
		assert_false(eg_tickets_left(&tk));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_own_share_first_then_steal),
	    cmocka_unit_test(test_dispatch_order_from_lowest_share),
	    cmocka_unit_test(test_one_share_is_the_grid),
	    cmocka_unit_test(test_share_count_limits),
	    cmocka_unit_test(test_racing_takers_take_each_ticket_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
