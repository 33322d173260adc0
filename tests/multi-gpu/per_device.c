// SPDX-License-Identifier: MIT
/*
 * Description: --gpu, --sms and --device-mem given as lists, one value per
 * device, give each device its own: cudaMemGetInfo on each device reports its
 * own capacity, emu_get_info its own SMs and workers, and a kernel on each
 * device runs there. Linked to the emulator, with UVMEMU_GPUS=2,
 * UVMEMU_GPU=gtx1080ti,v100, UVMEMU_SMS=3,5, UVMEMU_CTAS_PER_SM=1 and
 * UVMEMU_DEVICE_MEM=16M,32M.
 */
#include <stddef.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <cmocka.h>

#include "emugpu.h"

struct where_args {
	int *device;
};

EMU_KERNEL(where, struct where_args)
{
	EMU_FOR_THREADS {
		cudaGetDevice(args->device);
	}
}

static void test_each_device_has_its_own_settings(void **state)
{
	static const struct {
		size_t total;
		unsigned sms;
	} want[2] = {{16u << 20, 3}, {32u << 20, 5}};

	(void)state;
	if (!uvmemu_is_emulated())
		skip();
	for (int dev = 0; dev < 2; dev++) {
		struct emu_info info;
		size_t free_bytes, total;
		int ran_on = -1;

		assert_int_equal(cudaSetDevice(dev), cudaSuccess);
		assert_int_equal(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
		assert_int_equal(total, want[dev].total);
		assert_int_equal(
		    EMU_LAUNCH(where, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, &ran_on),
		    cudaSuccess);
		assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
		assert_int_equal(ran_on, dev);
		emu_get_info(&info);
		assert_int_equal(info.sms, want[dev].sms);
		assert_int_equal(info.workers, want[dev].sms);
	}
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_each_device_has_its_own_settings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
