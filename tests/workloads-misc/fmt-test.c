// SPDX-License-Identifier: MIT
/*
 * Description: --output's value text (wl_fmt.h) is snprintf's, byte for
 * byte. Integers: every power of ten and its neighbours, the types' limits,
 * 2^20 drawn at random. Floats ("%.9g"): on the edges (zeros, infinities,
 * NaNs, subnormals, the largest and smallest normals, powers of ten and
 * their neighbours, where %g changes notation, where rounding carries into
 * a new digit), on every fifth float of [1, 2) and of the binade that holds
 * 10^9, and on 2^21 bit patterns drawn at random. (All 2^32 bit patterns
 * matched when it was written, a check of half an hour run once outside
 * the suite.)
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "wl.h"
#include "wl_fmt.h"

static unsigned mismatches;

static void check(float f)
{
	char got[WL_FMT_MAX], want[64];
	int n = wl_fmt_f32(got, f);

	snprintf(want, sizeof(want), "%.9g", (double)f);
	if (strcmp(got, want) != 0 || n != (int)strlen(want)) {
		uint32_t bits;

		memcpy(&bits, &f, sizeof(bits));
		if (mismatches++ < 10)
			print_error("%#010x: '%s' (%d), snprintf '%s'\n", bits, got, n, want);
	}
}

static void check_bits(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	check(f);
}

/* A value and its four nearest neighbours on each side. */
static void around(float f)
{
	float lo = f, hi = f;

	check(f);
	for (int i = 0; i < 4; i++) {
		lo = nextafterf(lo, -INFINITY);
		hi = nextafterf(hi, INFINITY);
		check(lo);
		check(hi);
	}
}

static void test_edges(void **state)
{
	static const float special[] = {
	    0.0f,	  -0.0f,	INFINITY,     -INFINITY,   FLT_MAX,	-FLT_MAX,
	    FLT_MIN,	  -FLT_MIN,	FLT_TRUE_MIN, FLT_EPSILON, 0.5f,	1.5f,
	    0.1f,	  0.2f,		0.3f,	      1e-5f,	   9.99999e-5f, 1e-4f,
	    123456789.0f, 999999936.0f, 1e9f,	      3.14159265f, -2.71828183f};

	(void)state;
	mismatches = 0;
	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
		around(special[i]);
		around(-special[i]);
	}
	check(NAN);
	check(-NAN);
	/* Every power of ten a float reaches, and 9.99999999 times it, where
	 * rounding to nine digits carries into a tenth. */
	for (int e = -45; e <= 38; e++) {
		around((float)pow(10.0, e));
		around((float)(9.999999995 * pow(10.0, e)));
		around((float)(-5.0000000005 * pow(10.0, e)));
	}
	for (uint32_t b = 0; b < 1u << 12; b++) { /* subnormals and the smallest normals */
		check_bits(b);
		check_bits(0x00800000u - b);
		check_bits(0x00800000u + b);
		check_bits(0x7f7fffffu - b);
	}
	assert_int_equal(mismatches, 0);
}

static void test_binades(void **state)
{
	(void)state;
	mismatches = 0;
	/* [1, 2); [2^29, 2^30) holds 10^9, where %g goes from fixed to
	 * exponent notation. */
	for (uint32_t m = 0; m < 1u << 23; m += 5) {
		check_bits(0x3f800000u | m);
		check_bits(0x4e000000u | m);
	}
	assert_int_equal(mismatches, 0);
}

static void test_random(void **state)
{
	struct wl_rng r;

	(void)state;
	wl_rng_seed(&r, 0x9e3779b97f4a7c15ull); /* the same draws in every run */
	mismatches = 0;
	for (int i = 0; i < 1 << 21; i++)
		check_bits((uint32_t)(wl_rng_next(&r) >> 16));
	assert_int_equal(mismatches, 0);
}

static void check_int(uint64_t u)
{
	char got[WL_FMT_MAX], want[WL_FMT_MAX];
	int64_t i = (int64_t)u;

	snprintf(want, sizeof(want), "%" PRIu64, u);
	assert_int_equal(wl_fmt_u64(got, u), (int)strlen(want));
	assert_string_equal(got, want);
	snprintf(want, sizeof(want), "%" PRId64, i);
	assert_int_equal(wl_fmt_i64(got, i), (int)strlen(want));
	assert_string_equal(got, want);
}

static void test_integers(void **state)
{
	struct wl_rng r;
	uint64_t p = 1;

	(void)state;
	wl_rng_seed(&r, 0x2545f4914f6cdd1dull);
	for (int k = 0; k < 20; k++, p *= 10) {
		check_int(p - 1);
		check_int(p);
		check_int(p + 1);
		check_int(-p);
	}
	check_int(UINT64_MAX);
	check_int((uint64_t)INT64_MAX);
	check_int((uint64_t)INT64_MIN);
	check_int((uint64_t)(int64_t)INT32_MIN);
	check_int(UINT32_MAX);
	for (int i = 0; i < 1 << 20; i++) {
		uint64_t d = wl_rng_next(&r);

		check_int(d >> (d & 63)); /* every length */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_integers),
	    cmocka_unit_test(test_edges),
	    cmocka_unit_test(test_binades),
	    cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
