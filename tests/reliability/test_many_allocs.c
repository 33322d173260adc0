// SPDX-License-Identifier: MIT
/*
 * Description: many small managed allocations work: 140,000 allocations of
 * 64 bytes (the 131,072th used to fail under the emulator: each takes a 2 MB
 * slot, and the arena had 131,072), each holding its own data; freeing every
 * other one leaves the emulator's mappings merged (holes between live
 * allocations would exhaust vm.max_map_count, 65530 by default, after about
 * 10,000 holes); a touch of a freed one is a SIGSEGV, not a hang; the rest
 * are intact and the runtime still allocates. Natively each allocation is a
 * mapping of its own, so the frees go in reverse order there.
 *
 * usage: rel_many_allocs_{native,emulated} [COUNT] (default 140,000; the
 * notes' figures come from COUNT 1000000)
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "segv.h"
#include "uvmemu.h"

#define EVERY 97 /* allocations touched: each touch is a fault when emulated */

static long count = 140000;

static int mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0, c;

	assert_non_null(f);
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_many_small_allocations(void **state)
{
	uint64_t **p = calloc(count, sizeof(*p));
	bool emulated = uvmemu_is_emulated();
	int before = mappings();
	double t0 = now_s(), t1;
	void *more;

	assert_non_null(p);
	for (long i = 0; i < count; i++) {
		cudaError_t e = cudaMallocManaged((void **)&p[i], 64, cudaMemAttachGlobal);

		if (e != cudaSuccess)
			fail_msg("allocation %ld of %ld failed: %s", i + 1, count,
				 cudaGetErrorName(e));
		if (i % EVERY == 0)
			p[i][0] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
	}
	t1 = now_s();
	printf("%ld allocations in %.1f s: %d mappings (%d before)\n", count, t1 - t0, mappings(),
	       before);
	for (long i = 0; i < count; i += EVERY)
		assert_int_equal(p[i][0], (uint64_t)i * 0x9e3779b97f4a7c15ull);

	if (emulated) {
		for (long i = 0; i < count; i += 2)
			assert_int_equal(cudaFree(p[i]), cudaSuccess);
		printf("every other one freed: %d mappings\n", mappings());
		assert_true(mappings() < before + 1000);
		assert_true(rel_write_faults(p[0]));
		for (long i = 1; i < count; i += EVERY * 2)
			if (i % EVERY == 0)
				assert_int_equal(p[i][0], (uint64_t)i * 0x9e3779b97f4a7c15ull);
		for (long i = 1; i < count; i += 2)
			assert_int_equal(cudaFree(p[i]), cudaSuccess);
	} else {
		for (long i = count - 1; i >= 0; i--)
			assert_int_equal(cudaFree(p[i]), cudaSuccess);
	}
	printf("freed in %.1f s: %d mappings\n", now_s() - t1, mappings());
	assert_int_equal(cudaMallocManaged(&more, 3u << 20, cudaMemAttachGlobal), cudaSuccess);
	memset(more, 1, 3u << 20);
	assert_int_equal(cudaFree(more), cudaSuccess);
	free(p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_many_small_allocations),
	};

	if (argc > 1)
		count = strtol(argv[1], NULL, 0);
	if (count < 2) {
		fprintf(stderr, "usage: %s [COUNT >= 2]\n", argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
