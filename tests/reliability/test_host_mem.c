// SPDX-License-Identifier: MIT
/*
 * Description: managed memory beyond what the host can back is refused with
 * cudaErrorMemoryAllocation, emulated and native alike: by default more than
 * RAM + swap in one allocation (a 256 GiB one on an ordinary machine used to
 * succeed under the emulator and fail natively), and with --host-mem SIZE
 * (UVMEMU_HOST_MEM) whatever would take the live managed bytes past SIZE,
 * each allocation counted as the whole 64 KB blocks it holds; a refused
 * allocation changes nothing and a free makes room again.
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

/* Small allocations count what they hold, a 64 KB block each: under 64M the
 * 1025th 4 KB one is refused (issue 35, defect 7: 4 KB were counted, and
 * 30,000 under --host-mem 256M reached 1.95 GB resident). */
static void test_small_allocations(void **state)
{
	enum { MAX = 64 << 20 >> 16, TRY = 4 * MAX };
	long long limit = uvmemu_option_int("host-mem");
	static char *p[TRY];
	cudaError_t e = cudaSuccess;
	int n;

	if (limit != 64 << 20)
		skip();
	for (n = 0; n < TRY; n++) {
		e = cudaMallocManaged((void **)&p[n], 4096, cudaMemAttachGlobal);
		if (e != cudaSuccess)
			break;
		memset(p[n], n & 0xff, 4096);
	}
	assert_int_equal(e, cudaErrorMemoryAllocation);
	assert_int_equal(n, MAX);
	/* A free makes room for exactly one more. */
	assert_int_equal(cudaFree(p[0]), cudaSuccess);
	assert_int_equal(cudaMallocManaged((void **)&p[0], 4096, cudaMemAttachGlobal), cudaSuccess);
	memset(p[0], 0, 4096);
	assert_int_equal(cudaMallocManaged((void **)&p[n], 4096, cudaMemAttachGlobal),
			 cudaErrorMemoryAllocation);
	for (int i = 1; i < n; i++)
		assert_int_equal(p[i][4095], (char)(i & 0xff));
	for (int i = 0; i < n; i++)
		assert_int_equal(cudaFree(p[i]), cudaSuccess);
	cudaGetLastError();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_more_than_the_host),
	    cmocka_unit_test(test_explicit_limit),
	    cmocka_unit_test(test_small_allocations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
