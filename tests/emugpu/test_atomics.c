// SPDX-License-Identifier: MIT
/*
 * Description: atomicAdd, atomicMin, atomicCAS and atomicExch are exact under
 * contention on int, unsigned, float, long long, unsigned long long and
 * double: every thread of the grid hits the same word, on more workers than
 * cores, so threads are preempted in the middle of compare-and-swap loops.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "emugpu.h"

#define GRID   64
#define BLOCK  256
#define TOTAL  (GRID * BLOCK) /* < 2^24: float sums of ones stay exact */
#define REPEAT 4	      /* operations per thread on each word */

struct words {
	int i;
	unsigned u;
	float f;
	long long ll;
	unsigned long long ull;
	double d;
};

struct atomics_args {
	struct words *add, *min, *cas, *exch;
	/* How often each value came back from an exchange, per type. */
	unsigned *seen_i, *seen_u, *seen_f, *seen_ll, *seen_ull, *seen_d;
};

/* A value per thread and repetition: distinct, from 1 to TOTAL * REPEAT. */
static unsigned ident(unsigned g, unsigned r)
{
	return g * REPEAT + r + 1;
}

/* Increments through compare-and-swap, retrying on interference. */
#define CAS_INCREMENT(p, T)                                                                        \
	do {                                                                                       \
		T old_ = 0; /* a guess: the first CAS returns the real value */                    \
		T got_;                                                                            \
		while ((got_ = atomicCAS((p), old_, (T)(old_ + 1))) != old_)                       \
			old_ = got_;                                                               \
	} while (0)

EMU_KERNEL(hammer, struct atomics_args)
{
	EMU_FOR_THREADS {
		unsigned g = blockIdx.x * blockDim.x + threadIdx.x;

		for (unsigned r = 0; r < REPEAT; r++) {
			unsigned id = ident(g, r);

			atomicAdd(&args->add->i, 1);
			atomicAdd(&args->add->u, 3u);
			atomicAdd(&args->add->f, 1.0f);
			atomicAdd(&args->add->ll, 1ll << 33);
			atomicAdd(&args->add->ull, 5ull);
			atomicAdd(&args->add->d, 0.5);

			/* Minima: -id, TOTAL*REPEAT - id, ... all distinct. */
			atomicMin(&args->min->i, -(int)id);
			atomicMin(&args->min->u, TOTAL * REPEAT + 1 - id);
			atomicMin(&args->min->f, (float)id);
			atomicMin(&args->min->ll, -((long long)id << 32));
			atomicMin(&args->min->ull, (unsigned long long)id << 32);
			atomicMin(&args->min->d, -(double)id / 4);

			CAS_INCREMENT(&args->cas->i, int);
			CAS_INCREMENT(&args->cas->u, unsigned);
			CAS_INCREMENT(&args->cas->f, float);
			CAS_INCREMENT(&args->cas->ll, long long);
			CAS_INCREMENT(&args->cas->ull, unsigned long long);
			CAS_INCREMENT(&args->cas->d, double);

			atomicAdd(&args->seen_i[atomicExch(&args->exch->i, (int)id)], 1u);
			atomicAdd(&args->seen_u[atomicExch(&args->exch->u, id)], 1u);
			atomicAdd(&args->seen_f[(unsigned)atomicExch(&args->exch->f, (float)id)],
				  1u);
			atomicAdd(
			    &args->seen_ll[atomicExch(&args->exch->ll, (long long)id << 32) >> 32],
			    1u);
			atomicAdd(&args->seen_ull[atomicExch(&args->exch->ull,
							     (unsigned long long)id * 3) /
						  3],
				  1u);
			atomicAdd(&args->seen_d[(unsigned)atomicExch(&args->exch->d, (double)id)],
				  1u);
		}
	}
}

/* Exchanges lose nothing: each value (0, the initial one, and every id) came
 * back exactly once, except the one left in the word. */
static void check_seen(const unsigned *seen, unsigned long long last)
{
	for (unsigned v = 0; v <= TOTAL * REPEAT; v++)
		assert_int_equal(seen[v], v == last ? 0 : 1);
}

static void test_atomics_under_contention(void **state)
{
	struct words add = {0}, cas = {0}, exch = {0};
	struct words min = {0, ~0u, 1e30f, 0, ~0ull, 0};
	size_t n = TOTAL * REPEAT + 1;
	unsigned *seen[6];

	for (int i = 0; i < 6; i++) {
		seen[i] = calloc(n, sizeof(unsigned));
		assert_non_null(seen[i]);
	}
	assert_int_equal(EMU_LAUNCH(hammer, emu_dim3(GRID, 1, 1), emu_dim3(BLOCK, 1, 1), 0, &add,
				    &min, &cas, &exch, seen[0], seen[1], seen[2], seen[3], seen[4],
				    seen[5]),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);

	assert_int_equal(add.i, TOTAL * REPEAT);
	assert_int_equal(add.u, 3u * TOTAL * REPEAT);
	assert_true(add.f == (float)(TOTAL * REPEAT));
	assert_true(add.ll == (long long)TOTAL * REPEAT << 33);
	assert_true(add.ull == 5ull * TOTAL * REPEAT);
	assert_true(add.d == 0.5 * TOTAL * REPEAT);

	assert_int_equal(min.i, -(TOTAL * REPEAT));
	assert_int_equal(min.u, 1u);
	assert_true(min.f == 1.0f);
	assert_true(min.ll == -((long long)TOTAL * REPEAT << 32));
	assert_true(min.ull == 1ull << 32);
	assert_true(min.d == -(double)(TOTAL * REPEAT) / 4);

	assert_int_equal(cas.i, TOTAL * REPEAT);
	assert_int_equal(cas.u, TOTAL * REPEAT);
	assert_true(cas.f == (float)(TOTAL * REPEAT));
	assert_true(cas.ll == TOTAL * REPEAT);
	assert_true(cas.ull == TOTAL * REPEAT);
	assert_true(cas.d == TOTAL * REPEAT);

	check_seen(seen[0], (unsigned long long)exch.i);
	check_seen(seen[1], exch.u);
	check_seen(seen[2], (unsigned long long)exch.f);
	check_seen(seen[3], (unsigned long long)(exch.ll >> 32));
	check_seen(seen[4], exch.ull / 3);
	check_seen(seen[5], (unsigned long long)exch.d);
	for (int i = 0; i < 6; i++)
		free(seen[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_atomics_under_contention),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
