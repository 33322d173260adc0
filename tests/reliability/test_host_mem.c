// SPDX-License-Identifier: MIT
/*
 * Description: managed memory beyond what the host can back is refused with
 * cudaErrorMemoryAllocation, emulated and native alike: by default more than
 * RAM + swap in one allocation (a 256 GiB one on an ordinary machine used to
 * succeed under the emulator and fail natively), and with --host-mem SIZE
 * (UVMEMU_HOST_MEM) whatever would take the live managed bytes past SIZE;
 * a refused allocation changes nothing and a free makes room again.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <cmocka.h>

#include "uvmemu.h"

static void test_more_than_the_host(void **state)
{
	struct sysinfo si;
	uint64_t host;
	void *p = NULL, *small;

	if (uvmemu_option_int("host-mem") != 0)
		skip();
	assert_int_equal(sysinfo(&si), 0);
	host = ((uint64_t)si.totalram + si.totalswap) * si.mem_unit;
	assert_int_equal(cudaMallocManaged(&p,
					   256ull << 30 > host ? 256ull << 30 : host + (1u << 30),
					   cudaMemAttachGlobal),
			 cudaErrorMemoryAllocation);
	assert_int_equal(cudaGetLastError(), cudaErrorMemoryAllocation);
	assert_int_equal(uvmemu_malloc_managed(&p, host + 4096), -ENOMEM);
	/* Nothing was kept: a small allocation still works. */
	assert_int_equal(cudaMallocManaged(&small, 1u << 20, cudaMemAttachGlobal), cudaSuccess);
	memset(small, 3, 1u << 20);
	assert_int_equal(cudaFree(small), cudaSuccess);
}

static void test_explicit_limit(void **state)
{
	long long limit = uvmemu_option_int("host-mem");
	void *a, *b, *c;

	if (limit != 64 << 20)
		skip();
	assert_int_equal(cudaMallocManaged(&a, 48u << 20, cudaMemAttachGlobal), cudaSuccess);
	memset(a, 1, 48u << 20);
	assert_int_equal(cudaMallocManaged(&b, 32u << 20, cudaMemAttachGlobal),
			 cudaErrorMemoryAllocation);
	assert_int_equal(cudaMallocManaged(&c, 16u << 20, cudaMemAttachGlobal), cudaSuccess);
	assert_int_equal(cudaFree(a), cudaSuccess);
	assert_int_equal(cudaMallocManaged(&b, 32u << 20, cudaMemAttachGlobal), cudaSuccess);
	memset(b, 2, 32u << 20);
	assert_int_equal(cudaFree(b), cudaSuccess);
	assert_int_equal(cudaFree(c), cudaSuccess);
	cudaGetLastError();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_more_than_the_host),
	    cmocka_unit_test(test_explicit_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
