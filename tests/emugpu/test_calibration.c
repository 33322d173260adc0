// SPDX-License-Identifier: MIT
/*
 * Description: when the runtime's model wants a calibration (--dilation auto
 * under the emulator: here the program's wrapper of uvmemu_calibration_wanted
 * says so natively too, with UVMEMU_GPU=h100), emu-gpu measures its
 * streaming bandwidth once, before the first kernel of the program starts,
 * and reports it with the target GPU's published figure; the calibration
 * kernel is not a launch of the program (the first real kernel is launch 0).
 * --sms 0 takes the preset's SM count. The program's wrappers of the hooks
 * record the calls and pass them on to the runtime.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emugpu.h"

static struct {
	pthread_mutex_t lock;
	unsigned calibrations, kernels;
	unsigned kernels_before_calibration;
	double measured, target;
	char gpu[32];
	uint64_t first_index;
} seen = {.lock = PTHREAD_MUTEX_INITIALIZER};

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

void uvmemu_set_calibration(double measured, double target, const char *gpu)
{
	pthread_mutex_lock(&seen.lock);
	seen.calibrations++;
	seen.kernels_before_calibration = seen.kernels;
	seen.measured = measured;
	seen.target = target;
	snprintf(seen.gpu, sizeof(seen.gpu), "%s", gpu);
	pthread_mutex_unlock(&seen.lock);
	REAL(uvmemu_set_calibration)(measured, target, gpu);
}

bool uvmemu_calibration_wanted(void)
{
	return true;
}

uint64_t uvmemu_kernel_begin(const struct uvmemu_launch *launch)
{
	uint64_t index = REAL(uvmemu_kernel_begin)(launch);

	pthread_mutex_lock(&seen.lock);
	if (seen.kernels++ == 0)
		seen.first_index = index;
	pthread_mutex_unlock(&seen.lock);
	return index;
}

struct fill_args {
	unsigned *out;
};

EMU_KERNEL(fill, struct fill_args)
{
	EMU_FOR_THREADS {
		args->out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
	}
}

static void test_calibration(void **state)
{
	unsigned out[4 * 32];
	struct emu_info info;

	emu_get_info(&info);
	assert_int_equal(info.sms, 132);
	assert_int_equal(info.workers, 132);
	for (int l = 0; l < 3; l++)
		assert_int_equal(EMU_LAUNCH(fill, emu_dim3(4, 1, 1), emu_dim3(32, 1, 1), 0, out),
				 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	for (int i = 0; i < 4 * 32; i++)
		assert_int_equal(out[i], i / 32);

	pthread_mutex_lock(&seen.lock);
	assert_int_equal(seen.calibrations, 1);
	assert_int_equal(seen.kernels_before_calibration, 0);
	assert_int_equal(seen.kernels, 3);
	assert_int_equal(seen.first_index, 0);
	assert_string_equal(seen.gpu, "h100");
	assert_true(seen.target == 3350e9);
	/* Anything a CPU streams: a TSan build on a busy machine is far below
	 * 100 MB/s, and tests never time. */
	assert_true(seen.measured > 0 && seen.measured < 1e12);
	pthread_mutex_unlock(&seen.lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_calibration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
