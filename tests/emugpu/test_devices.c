// SPDX-License-Identifier: MIT
/*
 * Description: with several devices (UVMEMU_GPUS=2) each device has its own
 * workers and stream. A kernel on device 0 that waits for a flag a later
 * kernel on device 1 sets finishes (one stream for both would run device
 * 1's kernel only after device 0's, which would give up waiting); a kernel
 * runs on workers of the device it was launched on (cudaGetDevice in it names
 * that device); cudaDeviceSynchronize waits for the current device's stream
 * only (it returns while device 1's kernel still waits for the host), and
 * cudaFree for every device's. Natively, with UVMEMU_SMS=2 and
 * UVMEMU_CTAS_PER_SM=1.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "emugpu.h"

#define PATIENCE_S 20 /* how long a waiting kernel waits before it gives up */

struct wait_args {
	_Atomic int *flag;    /* what it waits for */
	_Atomic int *gave_up; /* set when it waited PATIENCE_S in vain */
	_Atomic int *done;    /* set when it ends */
	int *device;	      /* cudaGetDevice on its worker */
};

/* One CTA: waits, sleeping, until *flag is set or its patience runs out. */
EMU_KERNEL(wait_for_flag, struct wait_args)
{
	EMU_FOR_THREADS {
		struct timespec nap = {0, 1000000}, start, now;

		cudaGetDevice(args->device);
		clock_gettime(CLOCK_MONOTONIC, &start);
		while (!atomic_load(args->flag)) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - start.tv_sec > PATIENCE_S) {
				atomic_store(args->gave_up, 1);
				break;
			}
			nanosleep(&nap, NULL);
		}
		atomic_store(args->done, 1);
	}
}

struct set_args {
	_Atomic int *flag;
	int *device;
	unsigned nap_ms; /* sleeps first */
};

EMU_KERNEL(set_flag, struct set_args)
{
	EMU_FOR_THREADS {
		struct timespec nap = {0, (long)args->nap_ms * 1000000};

		cudaGetDevice(args->device);
		nanosleep(&nap, NULL);
		atomic_store(args->flag, 1);
	}
}

static void test_devices_run_side_by_side(void **state)
{
	static _Atomic int flag, gave_up, done;
	int dev_waiter = -1, dev_setter = -1;

	(void)state;
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	assert_int_equal(EMU_LAUNCH(wait_for_flag, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, &flag,
				    &gave_up, &done, &dev_waiter),
			 cudaSuccess);
	assert_int_equal(cudaSetDevice(1), cudaSuccess);
	assert_int_equal(
	    EMU_LAUNCH(set_flag, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, &flag, &dev_setter, 0u),
	    cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(atomic_load(&done), 1);
	assert_int_equal(atomic_load(&gave_up), 0);
	/* Each ran on its own device's workers. */
	assert_int_equal(dev_waiter, 0);
	assert_int_equal(dev_setter, 1);
}

static void test_synchronize_waits_for_its_device(void **state)
{
	static _Atomic int release, gave_up, done, unused;
	int dev_waiter = -1, dev_other = -1;

	(void)state;
	assert_int_equal(cudaSetDevice(1), cudaSuccess);
	assert_int_equal(EMU_LAUNCH(wait_for_flag, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0,
				    &release, &gave_up, &done, &dev_waiter),
			 cudaSuccess);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	assert_int_equal(
	    EMU_LAUNCH(set_flag, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, &unused, &dev_other, 0u),
	    cudaSuccess);
	/* Device 0's stream only: device 1's kernel waits for the host. */
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(atomic_load(&unused), 1);
	assert_int_equal(atomic_load(&done), 0);
	atomic_store(&release, 1);
	assert_int_equal(cudaSetDevice(1), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(atomic_load(&done), 1);
	assert_int_equal(atomic_load(&gave_up), 0);
	assert_int_equal(dev_waiter, 1);
	assert_int_equal(dev_other, 0);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
}

static void test_free_waits_for_every_device(void **state)
{
	static _Atomic int flag;
	int dev_setter = -1;
	void *p;

	(void)state;
	assert_int_equal(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal), cudaSuccess);
	assert_int_equal(cudaSetDevice(1), cudaSuccess);
	assert_int_equal(
	    EMU_LAUNCH(set_flag, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, &flag, &dev_setter, 200u),
	    cudaSuccess);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	/* From device 0: device 1's kernel still sleeps, and is waited for. */
	assert_int_equal(cudaFree(p), cudaSuccess);
	assert_int_equal(atomic_load(&flag), 1);
	assert_int_equal(dev_setter, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_devices_run_side_by_side),
	    cmocka_unit_test(test_synchronize_waits_for_its_device),
	    cmocka_unit_test(test_free_waits_for_every_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
