// SPDX-License-Identifier: MIT
/*
 * Description: the CUDA device API over --gpus N GPUs, through the real
 * libraries, emulated and native, with N from UVMEMU_GPUS (1 when unset):
 * the count, the current device (per host thread: a new thread starts at
 * device 0, and its cudaSetDevice leaves the others' alone), a device
 * outside 0..N-1 refused with cudaErrorInvalidDevice, peer access (a device
 * cannot enable it to itself, enabling twice and disabling what is not
 * enabled are refused with CUDA's codes, each direction apart), and advice
 * and prefetches to every device of the run and the CPU but to no other.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uvmemu.h"
#include "uvmemu_options.h"

/* The GPUs the test's environment asks for. */
static int gpus(void)
{
	const char *v = getenv("UVMEMU_GPUS");

	return v ? atoi(v) : 1;
}

static void test_count(void **state)
{
	int n = -1;

	assert_int_equal(cudaGetDeviceCount(&n), cudaSuccess);
	assert_int_equal(n, gpus());
	assert_int_equal(uvmemu_opt_int(UVMEMU_OPT_gpus), gpus());
	assert_int_equal(cudaGetDeviceCount(NULL), cudaErrorInvalidValue);
	assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
}

static void test_set_device(void **state)
{
	int n = gpus(), d = -1;

	assert_int_equal(cudaGetDevice(&d), cudaSuccess);
	assert_int_equal(d, 0);
	assert_int_equal(cudaSetDevice(-1), cudaErrorInvalidDevice);
	assert_int_equal(cudaSetDevice(n), cudaErrorInvalidDevice);
	assert_int_equal(cudaSetDevice(8), cudaErrorInvalidDevice);
	assert_int_equal(cudaGetLastError(), cudaErrorInvalidDevice);
	assert_int_equal(cudaGetDevice(&d), cudaSuccess);
	assert_int_equal(d, 0); /* a refused device changes nothing */
	for (int i = n - 1; i >= 0; i--) {
		assert_int_equal(cudaSetDevice(i), cudaSuccess);
		assert_int_equal(cudaGetDevice(&d), cudaSuccess);
		assert_int_equal(d, i);
	}
	assert_int_equal(cudaGetDevice(NULL), cudaErrorInvalidValue);
	cudaGetLastError();
}

struct thread_result {
	int start;   /* the new thread's device before it sets one */
	int set;     /* cudaSetDevice(0)'s result */
	int after;   /* its device after that */
	int refused; /* cudaSetDevice(N)'s result */
};

static void *other_thread(void *arg)
{
	struct thread_result *r = arg;

	r->start = -1;
	r->after = -1;
	cudaGetDevice(&r->start);
	r->set = cudaSetDevice(0);
	r->refused = cudaSetDevice(gpus());
	cudaGetDevice(&r->after);
	return NULL;
}

static void test_device_per_thread(void **state)
{
	int n = gpus(), d = -1;
	struct thread_result r;
	pthread_t t;

	assert_int_equal(cudaSetDevice(n - 1), cudaSuccess);
	assert_int_equal(pthread_create(&t, NULL, other_thread, &r), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(r.start, 0);
	assert_int_equal(r.set, cudaSuccess);
	assert_int_equal(r.refused, cudaErrorInvalidDevice);
	assert_int_equal(r.after, 0);
	/* The other thread's cudaSetDevice(0) was its own. */
	assert_int_equal(cudaGetDevice(&d), cudaSuccess);
	assert_int_equal(d, n - 1);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	cudaGetLastError();
}

static void test_can_access_peer(void **state)
{
	int n = gpus(), can = -1;

	assert_int_equal(cudaDeviceCanAccessPeer(NULL, 0, 0), cudaErrorInvalidValue);
	assert_int_equal(cudaDeviceCanAccessPeer(&can, -1, 0), cudaErrorInvalidDevice);
	assert_int_equal(cudaDeviceCanAccessPeer(&can, 0, n), cudaErrorInvalidDevice);
	assert_int_equal(cudaDeviceCanAccessPeer(&can, n, 0), cudaErrorInvalidDevice);
	assert_int_equal(cudaGetLastError(), cudaErrorInvalidDevice);
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			can = -1;
			assert_int_equal(cudaDeviceCanAccessPeer(&can, a, b), cudaSuccess);
			assert_int_equal(can, a != b);
		}
}

static void test_peer_access(void **state)
{
	int n = gpus();

	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	/* Peer access to itself, or to a device that does not exist. */
	assert_int_equal(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
	assert_int_equal(cudaDeviceEnablePeerAccess(n, 0), cudaErrorInvalidDevice);
	assert_int_equal(cudaDeviceEnablePeerAccess(-1, 0), cudaErrorInvalidDevice);
	assert_int_equal(cudaDeviceDisablePeerAccess(0), cudaErrorInvalidDevice);
	assert_int_equal(cudaDeviceDisablePeerAccess(n), cudaErrorInvalidDevice);
	assert_int_equal(cudaGetLastError(), cudaErrorInvalidDevice);
	if (n < 2)
		return;
	assert_int_equal(cudaDeviceEnablePeerAccess(1, 1), cudaErrorInvalidValue);
	assert_int_equal(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
	assert_int_equal(cudaGetLastError(), cudaErrorPeerAccessNotEnabled);
	assert_int_equal(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
	assert_int_equal(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
	assert_int_equal(cudaGetLastError(), cudaErrorPeerAccessAlreadyEnabled);
	/* Each direction is its own: 1 -> 0 is not enabled by 0 -> 1. */
	assert_int_equal(cudaSetDevice(1), cudaSuccess);
	assert_int_equal(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
	assert_int_equal(cudaDeviceEnablePeerAccess(0, 0), cudaSuccess);
	assert_int_equal(cudaDeviceDisablePeerAccess(0), cudaSuccess);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	assert_int_equal(cudaDeviceDisablePeerAccess(1), cudaSuccess);
	assert_int_equal(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
	/* Every pair, from the last device. */
	assert_int_equal(cudaSetDevice(n - 1), cudaSuccess);
	for (int p = 0; p < n - 1; p++)
		assert_int_equal(cudaDeviceEnablePeerAccess(p, 0), cudaSuccess);
	for (int p = 0; p < n - 1; p++)
		assert_int_equal(cudaDeviceDisablePeerAccess(p), cudaSuccess);
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	cudaGetLastError();
}

static void test_prefetch_and_advise(void **state)
{
	int n = gpus();
	size_t size = 4u << 20;
	uint8_t *m;

	assert_int_equal(cudaMallocManaged((void **)&m, size, cudaMemAttachGlobal), cudaSuccess);
	memset(m, 0x5a, size);
	for (int d = 0; d < n; d++)
		assert_int_equal(cudaMemPrefetchAsync(m, size, d, NULL), cudaSuccess);
	assert_int_equal(cudaMemPrefetchAsync(m, size, cudaCpuDeviceId, NULL), cudaSuccess);
	assert_int_equal(cudaMemPrefetchAsync(m, size, n, NULL), cudaErrorInvalidDevice);
	assert_int_equal(cudaMemPrefetchAsync(m, size, -2, NULL), cudaErrorInvalidDevice);
	assert_int_equal(cudaGetLastError(), cudaErrorInvalidDevice);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);

	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseSetPreferredLocation, n - 1),
			 cudaSuccess);
	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseSetPreferredLocation, n),
			 cudaErrorInvalidDevice);
	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseUnsetPreferredLocation, n - 1),
			 cudaSuccess);
	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseSetAccessedBy, n),
			 cudaErrorInvalidDevice);
	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId),
			 cudaSuccess);
	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseUnsetAccessedBy, cudaCpuDeviceId),
			 cudaSuccess);
	/* Read-mostly names no device: CUDA ignores the argument. */
	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseSetReadMostly, n), cudaSuccess);
	assert_int_equal(cudaMemAdvise(m, size, cudaMemAdviseUnsetReadMostly, n), cudaSuccess);
	cudaGetLastError();
	for (size_t i = 0; i < size; i += 4093)
		assert_int_equal(m[i], 0x5a);
	assert_int_equal(cudaFree(m), cudaSuccess);
}

/* The calling thread's device's free memory (cudaMemGetInfo). */
static size_t free_on(int d)
{
	size_t free_bytes = 0, total = 0;

	assert_int_equal(cudaSetDevice(d), cudaSuccess);
	assert_int_equal(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
	return free_bytes;
}

/* Emulated with a device memory size: cudaMalloc takes the current
 * device's memory, cudaMemGetInfo reports the current device's, and
 * cudaFree gives it back to the device it came from. */
static void test_malloc_per_device(void **state)
{
	int n = gpus();
	size_t size = 4u << 20, before0, before_last;
	void *p;

	if (!uvmemu_is_emulated() || n < 2 || !getenv("UVMEMU_DEVICE_MEM"))
		skip();
	before0 = free_on(0);
	before_last = free_on(n - 1);
	assert_int_equal(cudaMalloc(&p, size), cudaSuccess); /* on device n - 1 */
	assert_int_equal(free_on(n - 1), before_last - size);
	assert_int_equal(free_on(0), before0);
	assert_int_equal(cudaFree(p), cudaSuccess); /* from device 0's thread */
	assert_int_equal(free_on(n - 1), before_last);
	assert_int_equal(free_on(0), before0);
}

static void test_error_names(void **state)
{
	assert_string_equal(cudaGetErrorName(cudaErrorPeerAccessAlreadyEnabled),
			    "cudaErrorPeerAccessAlreadyEnabled");
	assert_string_equal(cudaGetErrorName(cudaErrorPeerAccessNotEnabled),
			    "cudaErrorPeerAccessNotEnabled");
	assert_int_equal(cudaErrorPeerAccessAlreadyEnabled, 704);
	assert_int_equal(cudaErrorPeerAccessNotEnabled, 705);
	assert_string_equal(cudaGetErrorString(cudaErrorPeerAccessAlreadyEnabled),
			    "peer access is already enabled");
	assert_string_equal(cudaGetErrorString(cudaErrorPeerAccessNotEnabled),
			    "peer access has not been enabled");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_count),
	    cmocka_unit_test(test_set_device),
	    cmocka_unit_test(test_device_per_thread),
	    cmocka_unit_test(test_can_access_peer),
	    cmocka_unit_test(test_peer_access),
	    cmocka_unit_test(test_prefetch_and_advise),
	    cmocka_unit_test(test_malloc_per_device),
	    cmocka_unit_test(test_error_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
