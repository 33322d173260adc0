// SPDX-License-Identifier: MIT
/*
 * Description: --pin on (UVMEMU_PIN=on) binds every worker to one core: the
 * CPU set a CTA runs with is that core's, and on a machine with more than
 * two cores no worker runs on core 0, which is left to the driver.
 */
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "emugpu.h"

#define NCTA 256

struct where_args {
	int *ncpus; /* CPUs in the worker's set, per CTA */
	int *has_cpu0;
};

EMU_KERNEL(where, struct where_args)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set)) {
		args->ncpus[blockIdx.x] = -1;
		return;
	}
	args->ncpus[blockIdx.x] = CPU_COUNT(&set);
	args->has_cpu0[blockIdx.x] = CPU_ISSET(0, &set);
}

static void test_workers_pinned(void **state)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int ncpus[NCTA], has_cpu0[NCTA];
	struct emu_info info;

	assert_int_equal(
	    EMU_LAUNCH(where, emu_dim3(NCTA, 1, 1), emu_dim3(1, 1, 1), 0, ncpus, has_cpu0),
	    cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	emu_get_info(&info);
	assert_true(info.pinned);
	if (online < 2)
		skip(); /* one CPU: every set is the whole machine */
	for (int c = 0; c < NCTA; c++) {
		/* One core: its hardware threads, fewer than the machine's CPUs. */
		assert_true(ncpus[c] >= 1 && ncpus[c] < online);
		if (online > 2 * ncpus[c])
			assert_false(has_cpu0[c]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_workers_pinned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
