// SPDX-License-Identifier: MIT
/*
 * Description: the CUDA-named and uvmemu_* entry points, through the real
 * libraries. Built twice: linked to libuvmemu.so (emulated, with 16 MB of
 * device memory from the test's environment) and to libuvmemu_native.so; the
 * program sees the same results from both, except where device memory is a
 * real limit only under emulation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uvmemu.h"
#include "uvmemu_options.h"

static void test_managed_sizes_and_views(void **state)
{
	char *one, *odd;
	size_t odd_n = (3u << 20) + 1;

	assert_int_equal(cudaMallocManaged((void **)&one, 1, cudaMemAttachGlobal), cudaSuccess);
	assert_int_equal(cudaMallocManaged((void **)&odd, odd_n, cudaMemAttachGlobal), cudaSuccess);
	one[0] = 42;
	memset(odd, 7, odd_n);
	assert_true(uvmemu_is_managed(one) && uvmemu_is_managed(odd + odd_n - 1));
	assert_false(uvmemu_is_managed(&odd_n));
	if (uvmemu_is_emulated()) {
		char *dev = uvmemu_device_ptr(odd);

		assert_ptr_not_equal(dev, odd);
		assert_ptr_equal(uvmemu_host_ptr(dev), odd);
		assert_int_equal(dev[odd_n - 1], 7); /* GPU-side read of the tail */
	} else {
		assert_ptr_equal(uvmemu_device_ptr(odd), odd);
	}
	assert_int_equal(one[0], 42);
	assert_int_equal(odd[odd_n - 1], 7);
	assert_int_equal(cudaFree(one), cudaSuccess);
	assert_int_equal(cudaFree(odd), cudaSuccess);
	assert_false(uvmemu_is_managed(odd));
}

static void test_memcpy_and_memset(void **state)
{
	size_t n = 1u << 20;
	uint32_t *m, *d, *h = malloc(n * sizeof(*h)), *back = malloc(n * sizeof(*back));

	for (size_t i = 0; i < n; i++)
		h[i] = (uint32_t)(i * 2654435761u);
	assert_int_equal(cudaMallocManaged((void **)&m, n * 4, cudaMemAttachGlobal), cudaSuccess);
	assert_int_equal(cudaMalloc((void **)&d, n * 4), cudaSuccess);
	assert_int_equal(cudaMemcpy(m, h, n * 4, cudaMemcpyHostToDevice), cudaSuccess);
	assert_int_equal(cudaMemcpy(d, m, n * 4, cudaMemcpyDeviceToDevice), cudaSuccess);
	assert_int_equal(cudaMemcpy(back, d, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
	assert_memory_equal(back, h, n * 4);
	assert_memory_equal(m, h, n * 4); /* the host reads managed memory directly */
	assert_int_equal(cudaMemset(m, 0xab, n * 4), cudaSuccess);
	for (size_t i = 0; i < n; i += 4099)
		assert_int_equal(m[i], 0xababababu);
	assert_int_equal(cudaMemcpy(back, m, n * 4, cudaMemcpyDefault), cudaSuccess);
	assert_int_equal(back[n - 1], 0xababababu);
	assert_int_equal(cudaFree(m), cudaSuccess);
	assert_int_equal(cudaFree(d), cudaSuccess);
	free(h);
	free(back);
}

static void test_errors(void **state)
{
	int x;
	void *p;

	assert_int_equal(cudaGetLastError(), cudaSuccess);
	assert_int_equal(cudaMemcpy(&x, &x, 4, (enum cudaMemcpyKind)7),
			 cudaErrorInvalidMemcpyDirection);
	assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidMemcpyDirection);
	assert_int_equal(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
	assert_int_equal(cudaGetLastError(), cudaSuccess);
	assert_int_equal(cudaFree(&x), cudaErrorInvalidValue);
	assert_int_equal(cudaMallocManaged(NULL, 16, cudaMemAttachGlobal), cudaErrorInvalidValue);
	assert_int_equal(cudaMallocManaged(&p, 0, cudaMemAttachGlobal), cudaErrorInvalidValue);
	assert_int_equal(cudaMallocManaged(&p, 16, 0x10), cudaErrorInvalidValue);
	assert_int_equal(cudaSetDevice(1), cudaErrorInvalidDevice);
	assert_string_equal(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
	assert_string_equal(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
	assert_int_equal(cudaMalloc(&p, 0), cudaSuccess);
	assert_null(p);
	cudaGetLastError();
}

static void test_device_memory_shrinks_pool(void **state)
{
	size_t free0, total, free1, n = 12u << 20;
	uint8_t *m, *dev;
	void *d, *big;

	assert_int_equal(cudaMemGetInfo(&free0, &total), cudaSuccess);
	assert_int_equal(cudaMallocManaged((void **)&m, n, cudaMemAttachGlobal), cudaSuccess);
	dev = uvmemu_device_ptr(m);
	for (size_t i = 0; i < n; i++)
		dev[i] = (uint8_t)(i % 251); /* all of it on the device */
	assert_int_equal(cudaMalloc(&d, 8u << 20), cudaSuccess);
	assert_int_equal(cudaMemGetInfo(&free1, &total), cudaSuccess);
	if (uvmemu_is_emulated()) {
		assert_int_equal(total, 16u << 20);
		/* 8 MB pinned: managed data was evicted to make room. */
		assert_true(free1 <= total - (8u << 20));
		assert_int_equal(cudaMalloc(&big, 32u << 20), cudaErrorMemoryAllocation);
		cudaGetLastError();
		/* Managed data keeps a vablock's room beside what is pinned: 7 MB
		 * more would leave it 1 MB, 6 MB leaves it 2 MB. */
		assert_int_equal(cudaMalloc(&big, 7u << 20), cudaErrorMemoryAllocation);
		cudaGetLastError();
		assert_int_equal(cudaMalloc(&big, 6u << 20), cudaSuccess);
		assert_int_equal(cudaFree(big), cudaSuccess);
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(m[i], (uint8_t)(i % 251));
	assert_int_equal(cudaFree(d), cudaSuccess);
	assert_int_equal(cudaFree(m), cudaSuccess);
}

/* Every option read by id is the option read by name (one table, so one
 * index), and an ENUM option reads as its value's name: the test's
 * environment sets UVMEMU_DISPATCH=switch and leaves --pin at its default. */
static void test_options_by_id(void **state)
{
#define UVMEMU_OPTION(id, name, type, def, min, max, choices, help)                                \
	assert_int_equal(uvmemu_opt_int(UVMEMU_OPT_##id), uvmemu_option_int(name));                \
	assert_true(uvmemu_opt_double(UVMEMU_OPT_##id) == uvmemu_option_double(name));             \
	assert_string_equal(uvmemu_opt_str(UVMEMU_OPT_##id), uvmemu_option_str(name));
#include "uvmemu_options.def"
#undef UVMEMU_OPTION
	assert_int_equal(uvmemu_opt_int(UVMEMU_OPT_dispatch), UVM_DISPATCH_SWITCH);
	assert_string_equal(uvmemu_opt_str(UVMEMU_OPT_dispatch), "switch");
	assert_int_equal(uvmemu_opt_int(UVMEMU_OPT_pin), UVM_PIN_OFF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_managed_sizes_and_views),
	    cmocka_unit_test(test_memcpy_and_memset),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_device_memory_shrinks_pool),
	    cmocka_unit_test(test_options_by_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
