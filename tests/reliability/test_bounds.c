// SPDX-License-Identifier: MIT
/*
 * Description: under the emulator a touch past the end of a managed
 * allocation, inside the rest of its last 2 MB slot, fails as it would on a
 * GPU or natively: a CPU access gets SIGSEGV and a kernel's access
 * cudaErrorIllegalAddress, instead of faulting for ever (the driver found no
 * block there, woke the thread, and it faulted again). The allocation's own
 * data stays intact and the slot serves the next allocation whole.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "emugpu.h"
#include "segv.h"

#include "peek.h"

static void test_cpu_past_the_end(void **state)
{
	size_t sizes[] = {64, (3u << 20) + 1};

	for (size_t k = 0; k < 2; k++) {
		uint8_t *p;
		size_t n = sizes[k],
		       past = (n + (64u << 10) - 1) / (64u << 10) * (64u << 10) + 4096;

		assert_int_equal(cudaMallocManaged((void **)&p, n, cudaMemAttachGlobal),
				 cudaSuccess);
		memset(p, 0x42, n);
		assert_true(rel_write_faults(p + past));
		for (size_t i = 0; i < n; i += 4093)
			assert_int_equal(p[i], 0x42);
		assert_int_equal(p[n - 1], 0x42);
		assert_int_equal(cudaFree(p), cudaSuccess);
	}
}

static void test_kernel_past_the_end(void **state)
{
	static uint8_t out;
	uint8_t *p, *q;

	/* emu-gpu hands a kernel's fault in the managed range to the handler
	 * the program had, here cmocka's, which would end the test: without
	 * one the fault becomes the kernel's error, as it does in a program. */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	assert_int_equal(cudaMallocManaged((void **)&p, 100, cudaMemAttachGlobal), cudaSuccess);
	memset(p, 7, 100);
	assert_int_equal(EMU_LAUNCH(peek, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0, p, 99, &out),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(out, 7);
	assert_int_equal(
	    EMU_LAUNCH(peek, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0, p, 300000, &out),
	    cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
	cudaGetLastError();
	assert_int_equal(cudaFree(p), cudaSuccess);
	/* The slot, given again, is whole. */
	assert_int_equal(cudaMallocManaged((void **)&q, 2u << 20, cudaMemAttachGlobal),
			 cudaSuccess);
	memset(q, 9, 2u << 20);
	assert_int_equal(q[300000], 9);
	assert_int_equal(cudaFree(q), cudaSuccess);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpu_past_the_end),
	    cmocka_unit_test(test_kernel_past_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
