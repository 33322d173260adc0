// SPDX-License-Identifier: MIT
/*
 * Description: under the model clock with 2 GPUs, each GPU's kernels run on
 * its own modelled slots and stream: two equal kernels launched back to back
 * on GPUs 0 and 1 take about one kernel's modelled time, not two, and a
 * synchronize on GPU 1 alone joins the host with GPU 1's stream. The kernels
 * only compute (no managed data: no faults), so the modelled time is their
 * CPU time over the dilation (1 here). Linked to the emulator, with
 * UVMEMU_GPUS=2, UVMEMU_CLOCK=model and UVMEMU_DILATION=1.
 *
 * A kernel's time is its slowest CTA's CPU time, and a busy machine (a CI
 * runner with another sanitized test beside this one) lengthens a CTA's
 * CPU time now and then: one CTA of 16 once took 2.4 times the others. The
 * test therefore compares the best of several rounds with the fastest
 * single kernel it saw: noise only lengthens, so a serial model (two
 * kernels, at least twice the fastest) can never pass, while a correct one
 * fails only if every round meets such an outlier.
 */
#include <stddef.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "emugpu.h"

#define NCTA  8
#define SPINS (1u << 20) /* a CTA's work: a few milliseconds of CPU */

struct spin_args {
	double *sink; /* one slot per CTA, so the work is not optimised away */
};

EMU_KERNEL(spin, struct spin_args)
{
	EMU_FOR_THREADS {
		double x = 1.0 + blockIdx.x;

		for (unsigned i = 0; i < SPINS; i++)
			x = x * 1.0000001 + 1e-9;
		args->sink[blockIdx.x] = x;
	}
}

static double sink[2][NCTA];

/* One kernel on `dev`. */
static void launch_on(int dev)
{
	assert_int_equal(cudaSetDevice(dev), cudaSuccess);
	assert_int_equal(EMU_LAUNCH(spin, emu_dim3(NCTA, 1, 1), emu_dim3(1, 1, 1), 0, sink[dev]),
			 cudaSuccess);
}

static void sync_on(int dev)
{
	assert_int_equal(cudaSetDevice(dev), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
}

#define ROUNDS 5

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static void test_kernels_of_two_gpus_overlap(void **state)
{
	uint64_t one = UINT64_MAX, both = UINT64_MAX, gpu1 = UINT64_MAX;

	(void)state;
	if (!uvmemu_is_emulated())
		skip();
	/* The pools start (the executor's time, not the program's). */
	launch_on(0);
	launch_on(1);
	sync_on(0);
	sync_on(1);

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = uvmemu_host_time();

		launch_on(r % 2);
		sync_on(r % 2);
		one = min_u64(one, uvmemu_host_time() - t0);

		t0 = uvmemu_host_time();
		launch_on(0);
		launch_on(1);
		sync_on(1);
		gpu1 = min_u64(gpu1, uvmemu_host_time() - t0);
		sync_on(0);
		both = min_u64(both, uvmemu_host_time() - t0);
	}
	printf("best of %d rounds: one kernel %.3f ms modelled; one on each GPU %.3f ms (GPU "
	       "1's synchronize returned at %.3f ms)\n",
	       ROUNDS, (double)one / 1e6, (double)both / 1e6, (double)gpu1 / 1e6);
	assert_true(one > 0);
	/* Side by side: about one kernel's time (two, one after the other,
	 * on one stream). */
	assert_true(both < one + one / 2);
	/* GPU 1's synchronize waited for GPU 1's kernel, not GPU 0's first:
	 * it began when it was launched. */
	assert_true(gpu1 < one + one / 2);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kernels_of_two_gpus_overlap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
