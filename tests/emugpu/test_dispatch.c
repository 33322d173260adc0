// SPDX-License-Identifier: MIT
/*
 * Description: CTAs start in the dispatch order asked for. With one SM of one
 * CTA slot (UVMEMU_SMS=1, UVMEMU_CTAS_PER_SM=1) the order in which CTAs start
 * is exactly the hand-out order: ascending, descending, or (switch) ascending
 * at launch 0, descending at launch 1, and so on.
 * usage: emugpu_dispatch asc|desc|switch (with UVMEMU_DISPATCH set alike)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emugpu.h"

#define LAUNCHES 5

static const char *order;

struct record_args {
	unsigned *next;	   /* position of the next CTA to start */
	unsigned *started; /* CTA linear index by start position */
};

EMU_KERNEL(record, struct record_args)
{
	unsigned cta = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;

	args->started[atomicAdd(args->next, 1u)] = cta;
	EMU_FOR_THREADS {
		/* Some work, so that a slow CTA would let another overtake it
		 * if there were two slots. */
		volatile unsigned spin = 0;

		for (unsigned i = 0; i < 1000; i++)
			spin += i;
		(void)spin;
	}
}

static void test_config(void **state)
{
	struct emu_info info;

	emu_get_info(&info);
	assert_int_equal(info.sms, 1);
	assert_int_equal(info.ctas_per_sm, 1);
	assert_int_equal(info.workers, 1);
	assert_string_equal(info.dispatch, order);
}

static void test_order(void **state)
{
	dim3 grid = {7, 3, 2};
	unsigned n = 7 * 3 * 2;
	unsigned next[LAUNCHES] = {0};
	unsigned *started = calloc((size_t)LAUNCHES * n, sizeof(unsigned));

	assert_non_null(started);
	for (int l = 0; l < LAUNCHES; l++)
		assert_int_equal(EMU_LAUNCH(record, grid, emu_dim3(4, 2, 1), 0, &next[l],
					    started + (size_t)l * n),
				 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	for (int l = 0; l < LAUNCHES; l++) {
		bool desc = strcmp(order, "desc") == 0 || (strcmp(order, "switch") == 0 && l % 2);

		assert_int_equal(next[l], n);
		for (unsigned i = 0; i < n; i++)
			assert_int_equal(started[(size_t)l * n + i], desc ? n - 1 - i : i);
	}
	free(started);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_config),
	    cmocka_unit_test(test_order),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s asc|desc|switch\n", argv[0]);
		return 2;
	}
	order = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
