// SPDX-License-Identifier: MIT
/*
 * Description: a CPU thread that keeps reading an address the program frees
 * and allocates again (a use-after-free racing the allocator) cannot corrupt
 * the new allocation. Emulated, the views of a new allocation used to be
 * readable before their userfaultfd registration: a read in that window
 * populated a page the driver's books called EMPTY, and the next zero-fill
 * stopped the run ("zero-filling device blocks: File exists") or the new
 * buffer held stale data. The reader's faults (SIGSEGV while nothing is
 * allocated there) are caught and counted; every round's buffer must hold
 * exactly what the main thread wrote, after a round trip through the device.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "emugpu.h"

#define SIZE   (4u << 20)
#define ROUNDS 100

static _Atomic(volatile uint8_t *) target;
static _Atomic bool stop;
static _Thread_local sigjmp_buf reader_jump;
static _Atomic uint64_t reads, faults;

static void on_segv(int sig)
{
	siglongjmp(reader_jump, 1);
}

static void *reader(void *arg)
{
	volatile unsigned x = 12345;

	while (!atomic_load(&stop)) {
		volatile uint8_t *p = atomic_load(&target);

		if (!p)
			continue;
		x = x * 1103515245u + 12345u;
		if (sigsetjmp(reader_jump, 1) == 0) {
			(void)p[(x >> 8) % SIZE];
			atomic_fetch_add(&reads, 1);
		} else {
			atomic_fetch_add(&faults, 1);
		}
	}
	return NULL;
}

struct fill_args {
	uint8_t *p;
	uint8_t v;
};

EMU_KERNEL(add_one, struct fill_args)
{
	EMU_FOR_THREADS {
		size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

		args->p[i] = (uint8_t)(args->p[i] + 1);
	}
}

static void test_realloc_race(void **state)
{
	struct sigaction sa = {.sa_handler = on_segv, .sa_flags = SA_NODEFER}, old;
	pthread_t t;
	size_t bad = 0;

	sigaction(SIGSEGV, &sa, &old);
	assert_int_equal(pthread_create(&t, NULL, reader, NULL), 0);
	for (int r = 0; r < ROUNDS; r++) {
		uint8_t *p;

		assert_int_equal(cudaMallocManaged((void **)&p, SIZE, cudaMemAttachGlobal),
				 cudaSuccess);
		/* From now on the reader reads wherever this allocation lies,
		 * through its free and the next allocation. */
		atomic_store(&target, (volatile uint8_t *)p);
		memset(p, r & 0x7f, SIZE);
		assert_int_equal(
		    EMU_LAUNCH(add_one, emu_dim3(SIZE / 256, 1, 1), emu_dim3(256, 1, 1), 0, p, 0),
		    cudaSuccess);
		assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
		for (size_t i = 0; i < SIZE; i++)
			bad += p[i] != (uint8_t)((r & 0x7f) + 1);
		assert_int_equal(cudaFree(p), cudaSuccess);
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	sigaction(SIGSEGV, &old, NULL);
	print_message("%llu reads, %llu faults caught, %zu wrong bytes\n",
		      (unsigned long long)atomic_load(&reads),
		      (unsigned long long)atomic_load(&faults), bad);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_realloc_race),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
