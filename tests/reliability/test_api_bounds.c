// SPDX-License-Identifier: MIT
/*
 * Description: every CUDA entry point that takes a pointer and a size
 * (cudaMemcpy from either side, cudaMemset, cudaMemAdvise,
 * cudaMemPrefetchAsync, cudaHostRegister) checks the range against its
 * allocation, for managed, cudaMalloc and cudaMallocHost memory: size 0, one
 * byte past the end, SIZE_MAX (whose end wraps), a pointer into the middle
 * with the rest (accepted) or one byte more, and a pointer one byte before
 * the start. Each returns CUDA's code, and no other allocation changes: the
 * target sits between two guard allocations, adjacent where the runtime
 * places them so (then one byte before the start and past the end are the
 * guards' bytes), and both are checked word by word after every call.
 * Issue 35, defects 1 and 2: a copy 4 KB past the end returned cudaSuccess
 * and overwrote the neighbouring allocation, 64 MB past it was a SIGSEGV,
 * and a prefetch of SIZE_MAX bytes killed the driver thread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uvmemu.h"

#define SIZE  (2u << 20) /* whole 64 KB blocks and 2 MB slots: no padding between */
#define WORDS (SIZE / 8)

enum kind { MANAGED, DEVICE, PINNED, KINDS };
static const char *const kind_name[KINDS] = {"managed", "cudaMalloc", "cudaMallocHost"};

/* A target between two guards, lowest address first. */
struct trio {
	enum kind kind;
	uint64_t *guard[2], *target;
	uint64_t *expect_target; /* host copy of what the target must hold */
};

/* The first wrong code since the last check: the guards are checked first,
 * so that a call that wrote where it must not says so. */
static char wrong[512];

static uint64_t pattern(int which, size_t i)
{
	return (uint64_t)which << 56 ^ (i * 0x9e3779b97f4a7c15ull);
}

static void *alloc(enum kind k)
{
	void *p = NULL;

	switch (k) {
	case MANAGED:
		assert_int_equal(cudaMallocManaged(&p, SIZE, cudaMemAttachGlobal), cudaSuccess);
		break;
	case DEVICE:
		assert_int_equal(cudaMalloc(&p, SIZE), cudaSuccess);
		break;
	default:
		assert_int_equal(cudaMallocHost(&p, SIZE), cudaSuccess);
		break;
	}
	return p;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* Reads an allocation of any kind into host memory, as CUDA would. */
static void read_back(const void *p, uint64_t *out)
{
	assert_int_equal(cudaMemcpy(out, p, SIZE, cudaMemcpyDefault), cudaSuccess);
}

static void fill(void *p, int which)
{
	uint64_t *w = malloc(SIZE);

	assert_non_null(w);
	for (size_t i = 0; i < WORDS; i++)
		w[i] = pattern(which, i);
	assert_int_equal(cudaMemcpy(p, w, SIZE, cudaMemcpyDefault), cudaSuccess);
	free(w);
}

static void trio_make(struct trio *t, enum kind k)
{
	uintptr_t p[3];

	wrong[0] = '\0'; /* a test that failed before may have left one */
	for (int i = 0; i < 3; i++)
		p[i] = (uintptr_t)alloc(k);
	qsort(p, 3, sizeof(p[0]), by_address);
	t->kind = k;
	t->guard[0] = (uint64_t *)p[0];
	t->target = (uint64_t *)p[1];
	t->guard[1] = (uint64_t *)p[2];
	t->expect_target = malloc(SIZE);
	assert_non_null(t->expect_target);
	fill(t->guard[0], 1);
	fill(t->guard[1], 2);
	fill(t->target, 3);
	for (size_t i = 0; i < WORDS; i++)
		t->expect_target[i] = pattern(3, i);
	print_message("%s: guards %s the target\n", kind_name[k],
		      p[0] + SIZE == p[1] && p[1] + SIZE == p[2] ? "adjacent to" : "apart from");
}

static void trio_free(struct trio *t)
{
	for (int i = 0; i < 3; i++) {
		void *p = i == 2 ? (void *)t->target : t->guard[i];

		assert_int_equal(t->kind == PINNED ? cudaFreeHost(p) : cudaFree(p), cudaSuccess);
	}
	free(t->expect_target);
}

/* Every word of both guards and of the target as they must be, then the
 * codes the calls since the last check returned. */
static void trio_check(const struct trio *t, const char *what)
{
	uint64_t *w = malloc(SIZE);

	assert_non_null(w);
	for (int g = 0; g < 3; g++) {
		const uint64_t *expect = g == 2 ? t->expect_target : NULL;

		read_back(g == 2 ? t->target : t->guard[g], w);
		for (size_t i = 0; i < WORDS; i++) {
			uint64_t want = expect ? expect[i] : pattern(g + 1, i);

			if (w[i] != want)
				fail_msg("%s, %s: %s word %zu is %#llx, want %#llx",
					 kind_name[t->kind], what, g == 2 ? "target" : "guard", i,
					 (unsigned long long)w[i], (unsigned long long)want);
		}
	}
	free(w);
	if (*wrong)
		fail_msg("%s", wrong);
}

/* The bad ranges of the matrix, from the target's start. */
static const struct range {
	const char *name;
	ptrdiff_t from;
	size_t n;
} bad[] = {
    {"one byte past the end", 0, SIZE + 1},
    {"4 KB past the end", 0, SIZE + 4096},
    {"64 MB past the end", 0, SIZE + (64u << 20)},
    {"SIZE_MAX bytes", 0, SIZE_MAX},
    {"from the middle, one byte too many", SIZE / 2, SIZE / 2 + 1},
    {"from one byte before the start", -1, SIZE},
};

#define NBAD (sizeof(bad) / sizeof(bad[0]))

static void *at(const struct trio *t, ptrdiff_t off)
{
	return (char *)t->target + off;
}

static void expect_code(cudaError_t got, cudaError_t want, const struct trio *t, const char *call,
			const char *what)
{
	if (got != want && !*wrong)
		snprintf(wrong, sizeof(wrong), "%s on %s memory, %s: %s, want %s", call,
			 kind_name[t->kind], what, cudaGetErrorName(got), cudaGetErrorName(want));
	cudaGetLastError();
}

/* Both directions of a copy, with plain host memory on the other side. */
static void test_memcpy(void **state)
{
	uint8_t *host = calloc(1, SIZE + 8192);
	static const enum cudaMemcpyKind to_kind[] = {cudaMemcpyDefault, cudaMemcpyHostToDevice};
	static const enum cudaMemcpyKind from_kind[] = {cudaMemcpyDefault, cudaMemcpyDeviceToHost};

	assert_non_null(host);
	for (int k = 0; k < KINDS; k++) {
		struct trio t;

		trio_make(&t, (enum kind)k);
		for (size_t i = 0; i < NBAD; i++) {
			for (int c = 0; c < 2; c++) {
				expect_code(
				    cudaMemcpy(at(&t, bad[i].from), host, bad[i].n, to_kind[c]),
				    cudaErrorInvalidValue, &t, "cudaMemcpy to", bad[i].name);
				expect_code(
				    cudaMemcpy(host, at(&t, bad[i].from), bad[i].n, from_kind[c]),
				    cudaErrorInvalidValue, &t, "cudaMemcpy from", bad[i].name);
			}
			/* Allocation to allocation: the target's neighbour is the
			 * other side, so a copy that ran over would show twice. */
			expect_code(cudaMemcpy(at(&t, bad[i].from), t.guard[1], bad[i].n,
					       cudaMemcpyDeviceToDevice),
				    cudaErrorInvalidValue, &t, "cudaMemcpy device to device",
				    bad[i].name);
			trio_check(&t, bad[i].name);
		}
		/* Nothing to copy is nothing wrong, wherever it points. */
		expect_code(cudaMemcpy(at(&t, -1), host, 0, cudaMemcpyDefault), cudaSuccess, &t,
			    "cudaMemcpy", "size 0");
		/* The rest of the allocation from its middle is in bounds. */
		memset(host, 0x5a, SIZE / 2);
		expect_code(cudaMemcpy(at(&t, SIZE / 2), host, SIZE / 2, cudaMemcpyDefault),
			    cudaSuccess, &t, "cudaMemcpy", "from the middle to the end");
		memset((char *)t.expect_target + SIZE / 2, 0x5a, SIZE / 2);
		expect_code(cudaMemcpy(host, at(&t, SIZE / 2), SIZE / 2, cudaMemcpyDefault),
			    cudaSuccess, &t, "cudaMemcpy", "from the middle to the end");
		trio_check(&t, "in bounds");
		trio_free(&t);
	}
	free(host);
}

static void test_memset(void **state)
{
	for (int k = 0; k < KINDS; k++) {
		struct trio t;

		trio_make(&t, (enum kind)k);
		for (size_t i = 0; i < NBAD; i++) {
			expect_code(cudaMemset(at(&t, bad[i].from), 0xee, bad[i].n),
				    cudaErrorInvalidValue, &t, "cudaMemset", bad[i].name);
			trio_check(&t, bad[i].name);
		}
		expect_code(cudaMemset(at(&t, -1), 0xee, 0), cudaSuccess, &t, "cudaMemset",
			    "size 0");
		expect_code(cudaMemset(at(&t, SIZE / 2), 0xee, SIZE / 2), cudaSuccess, &t,
			    "cudaMemset", "from the middle to the end");
		memset((char *)t.expect_target + SIZE / 2, 0xee, SIZE / 2);
		trio_check(&t, "in bounds");
		trio_free(&t);
	}
}

/* Advice and prefetches take managed memory only; the wrapping SIZE_MAX
 * used to kill the driver thread (prefetch) or pass (advice). */
static void test_advise_and_prefetch(void **state)
{
	for (int k = 0; k < KINDS; k++) {
		cudaError_t in_bounds = k == MANAGED ? cudaSuccess : cudaErrorInvalidValue;
		struct trio t;

		trio_make(&t, (enum kind)k);
		for (size_t i = 0; i < NBAD; i++) {
			for (int dev = 0; dev < 2; dev++) {
				int to = dev ? 0 : cudaCpuDeviceId;

				expect_code(
				    cudaMemPrefetchAsync(at(&t, bad[i].from), bad[i].n, to, 0),
				    cudaErrorInvalidValue, &t, "cudaMemPrefetchAsync", bad[i].name);
				expect_code(cudaMemAdvise(at(&t, bad[i].from), bad[i].n,
							  cudaMemAdviseSetPreferredLocation, to),
					    cudaErrorInvalidValue, &t, "cudaMemAdvise",
					    bad[i].name);
			}
			assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
			trio_check(&t, bad[i].name);
		}
		/* CUDA refuses an empty range for these two. */
		expect_code(cudaMemPrefetchAsync(t.target, 0, 0, 0), cudaErrorInvalidValue, &t,
			    "cudaMemPrefetchAsync", "size 0");
		expect_code(cudaMemAdvise(t.target, 0, cudaMemAdviseSetReadMostly, 0),
			    cudaErrorInvalidValue, &t, "cudaMemAdvise", "size 0");
		expect_code(cudaMemPrefetchAsync(at(&t, SIZE / 2), SIZE / 2, 0, 0), in_bounds, &t,
			    "cudaMemPrefetchAsync", "from the middle to the end");
		expect_code(
		    cudaMemAdvise(at(&t, SIZE / 2), SIZE / 2, cudaMemAdviseSetReadMostly, 0),
		    in_bounds, &t, "cudaMemAdvise", "from the middle to the end");
		assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
		trio_check(&t, "in bounds");
		trio_free(&t);
	}
}

/* Registration takes plain host memory: none of CUDA's own, and no range
 * that wraps. */
static void test_host_register(void **state)
{
	size_t page = 4096;
	char *host = aligned_alloc(page, 4 * page);

	assert_non_null(host);
	for (int k = 0; k < KINDS; k++) {
		cudaError_t mine =
		    k == PINNED ? cudaErrorHostMemoryAlreadyRegistered : cudaErrorInvalidValue;
		struct trio t;

		trio_make(&t, (enum kind)k);
		for (size_t i = 0; i < NBAD; i++)
			expect_code(cudaHostRegister(at(&t, bad[i].from), bad[i].n, 0),
				    bad[i].n == SIZE_MAX ? cudaErrorInvalidValue : mine, &t,
				    "cudaHostRegister", bad[i].name);
		expect_code(cudaHostRegister(at(&t, SIZE / 2), SIZE / 2, 0), mine, &t,
			    "cudaHostRegister", "from the middle to the end");
		expect_code(cudaHostRegister(t.target, 0, 0), cudaErrorInvalidValue, &t,
			    "cudaHostRegister", "size 0");
		trio_check(&t, "registrations");
		trio_free(&t);
	}
	assert_int_equal(cudaHostRegister(host, 2 * page, 0), cudaSuccess);
	assert_int_equal(cudaHostRegister(host + page, 2 * page, 0),
			 cudaErrorHostMemoryAlreadyRegistered);
	assert_int_equal(cudaHostRegister(host + 2 * page, SIZE_MAX, 0), cudaErrorInvalidValue);
	assert_int_equal(cudaHostUnregister(host), cudaSuccess);
	cudaGetLastError();
	free(host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_memcpy),
	    cmocka_unit_test(test_memset),
	    cmocka_unit_test(test_advise_and_prefetch),
	    cmocka_unit_test(test_host_register),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
