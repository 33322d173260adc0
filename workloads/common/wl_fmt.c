// SPDX-License-Identifier: MIT
/*
 * wl_fmt.c - the text of --output's values: integers in decimal, and a float
 * as printf's "%.9g" writes it, in integer arithmetic.
 *
 * --output writes every value of a result, millions of them, and glibc's
 * exact decimal conversion took 1-1.5 s per 4M floats: most of a workload
 * test's time, twice per emulated test (the run and the native run it is
 * compared with). A float is M * 2^E with M < 2^24, so its nine correctly
 * rounded significant digits are a quotient of 128-bit integers whenever
 * M * 10^s and 2^-E fit; the rest (below about 1e-22, zeros, infinities
 * and NaNs) go to snprintf. tests/workloads-misc/fmt-test.c checks the text
 * is snprintf's, byte for byte.
 */
#include "wl_fmt.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;

enum { DIGITS = 9 };

static const uint32_t LOW = 100000000u, HIGH = 1000000000u; /* 10^8, 10^9 */

static u128 pow10_u128(unsigned k)
{
	u128 p = 1;

	while (k--)
		p *= 10;
	return p;
}

/*
 * m * 2^e scaled by 10^(8 - x): its integer part (in [10^8, 10^9)
 * when x is the value's decimal exponent) and that rounded to nearest,
 * ties to even (printf's rounding in the default mode); false where an
 * operand would not fit.
 */
static bool scaled(uint32_t m, int e, int x, uint64_t *whole, uint64_t *q)
{
	int s = DIGITS - 1 - x;
	u128 num = m, den = 1, r;

	if (e >= 0)
		num <<= e; /* below 2^128: a float is below 2^128 */
	else if (e >= -127)
		den <<= -e;
	else
		return false;
	if (s > 30 || (s < 0 && e < 0))
		return false;
	if (s >= 0)
		num *= pow10_u128((unsigned)s); /* m < 2^24, 10^30 < 2^100 */
	else
		den *= pow10_u128((unsigned)-s); /* e >= 0: s >= -30 */
	*q = *whole = (uint64_t)(num / den);
	r = num % den;
	if (2 * r > den || (2 * r == den && (*q & 1)))
		++*q;
	return true;
}

/* Writes the decimal digits of v into out; returns how many. */
static int digits_of(uint64_t v, char *out)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

int wl_fmt_f32(char *buf, float f)
{
	uint32_t bits, m;
	int e, x, len = 0, nd;
	uint64_t fl, q;
	char d[DIGITS];

	memcpy(&bits, &f, sizeof(bits));
	e = (int)((bits >> 23) & 0xff);
	m = bits & 0x7fffff;
	if (e == 0xff || (e == 0 && m == 0))
		return snprintf(buf, WL_FMT_MAX, "%.9g", (double)f);
	if (e)
		m |= 1u << 23;
	else
		e = 1;
	e -= 127 + 23;
	/* The decimal exponent from the binary one (log10(2) ~ 0.30103),
	 * corrected below by the quotient's own length. */
	x = (int)((double)(e + 23) * 0.30102999566398120);
	for (;;) {
		if (!scaled(m, e, x, &fl, &q))
			return snprintf(buf, WL_FMT_MAX, "%.9g", (double)f);
		if (fl >= HIGH)
			x++;
		else if (fl < LOW)
			x--;
		else
			break;
	}
	/* 999999999.5 rounds up to 10^9: 10^8 of the next exponent, which
	 * %g then writes in the notation of that exponent. */
	if (q == HIGH) {
		q = LOW;
		x++;
	}
	digits_of(q, d);
	nd = DIGITS;
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	if (bits >> 31)
		buf[len++] = '-';
	if (x < -4 || x >= DIGITS) {
		buf[len++] = d[0];
		if (nd > 1) {
			buf[len++] = '.';
			memcpy(buf + len, d + 1, (size_t)nd - 1);
			len += nd - 1;
		}
		buf[len++] = 'e';
		buf[len++] = x < 0 ? '-' : '+';
		if (x < 0)
			x = -x;
		if (x < 10)
			buf[len++] = '0';
		len += digits_of((uint64_t)x, buf + len);
	} else if (x >= 0) {
		int whole = x + 1;

		memcpy(buf + len, d, (size_t)whole);
		len += whole;
		if (nd > whole) {
			buf[len++] = '.';
			memcpy(buf + len, d + whole, (size_t)(nd - whole));
			len += nd - whole;
		}
	} else {
		buf[len++] = '0';
		buf[len++] = '.';
		for (int i = 0; i < -x - 1; i++)
			buf[len++] = '0';
		memcpy(buf + len, d, (size_t)nd);
		len += nd;
	}
	buf[len] = '\0';
	return len;
}

int wl_fmt_u64(char *buf, uint64_t v)
{
	int n = digits_of(v, buf);

	buf[n] = '\0';
	return n;
}

int wl_fmt_i64(char *buf, int64_t v)
{
	if (v >= 0)
		return wl_fmt_u64(buf, (uint64_t)v);
	buf[0] = '-';
	/* -INT64_MIN overflows int64_t; its magnitude fits uint64_t. */
	return 1 + wl_fmt_u64(buf + 1, -(uint64_t)v);
}

int wl_fmt_f64(char *buf, double v)
{
	return snprintf(buf, WL_FMT_MAX, "%.17g", v);
}
