// SPDX-License-Identifier: MIT
/* units.c - parsing and printing of sizes, bandwidths and durations. */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A finite, non-negative number at the start of s; *end after it. Leading
 * signs and hex are refused: a size of "-1" or "0x10" is a mistake. */
static int parse_number(const char *s, double *out, const char **end)
{
	char *e;
	double v;

	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &e);
	if (e == s || errno == ERANGE || !isfinite(v))
		return e == s ? -EINVAL : -ERANGE;
	*out = v;
	*end = e;
	return 0;
}

static int suffix_power(char c)
{
	switch (toupper((unsigned char)c)) {
	case 'K':
		return 1;
	case 'M':
		return 2;
	case 'G':
		return 3;
	case 'T':
		return 4;
	default:
		return 0;
	}
}

int uvm_parse_size(const char *s, uint64_t *out)
{
	const char *p;
	double v, mult = 1;
	int pw, err = parse_number(s, &v, &p);

	if (err)
		return err;
	pw = suffix_power(*p);
	if (pw) {
		mult = ldexp(1.0, 10 * pw);
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
		if (*p == 'b' || *p == 'B')
			p++;
	} else if (*p == 'b' || *p == 'B') {
		p++;
	}
	if (*p)
		return -EINVAL;
	v *= mult;
	if (v >= 0x1p63)
		return -ERANGE;
	if (v != floor(v))
		return -EINVAL; /* "0.3K" is not a whole number of bytes */
	*out = (uint64_t)v;
	return 0;
}

int uvm_parse_bandwidth(const char *s, double *out)
{
	const char *p;
	double v;
	int pw, err = parse_number(s, &v, &p);

	if (err)
		return err;
	pw = suffix_power(*p);
	if (pw) {
		v *= pow(1000.0, pw);
		p++;
		if (!isfinite(v))
			return -ERANGE; /* "1e301G": an infinite link is no link */
	}
	if (*p == 'b' || *p == 'B')
		p++;
	if (strcmp(p, "/s") == 0 || strcasecmp(p, "ps") == 0)
		p += strlen(p);
	if (*p)
		return -EINVAL;
	*out = v;
	return 0;
}

int uvm_parse_duration(const char *s, int64_t *out_ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1},	  {"us", 1e3}, {"\xc2\xb5s", 1e3},
		     {"ms", 1e6}, {"s", 1e9},  {"", 1e3}};
	const char *p;
	double v;
	int err = parse_number(s, &v, &p);

	if (err)
		return err;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(p, units[i].unit) == 0) {
			v *= units[i].ns;
			if (v >= 0x1p62)
				return -ERANGE;
			*out_ns = (int64_t)llround(v);
			return 0;
		}
	}
	return -EINVAL;
}

/* "0x10" after an optional sign: strtod reads hexadecimal, the size and
 * count parsers do not, and one rule holds for every number. */
static bool hexadecimal(const char *s)
{
	s += *s == '-' || *s == '+';
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

int uvm_parse_double(const char *s, double *out)
{
	char *e;
	double v;

	if (!s || !*s || isspace((unsigned char)*s) || hexadecimal(s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &e);
	/* "nan" is not a number, whatever strtod says; "inf" is one too large. */
	if (*e || e == s || isnan(v))
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

int uvm_parse_int(const char *s, long long *out)
{
	char *e;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &e, 10);
	if (*e || e == s)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

const char *uvm_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.2f %s", v, unit[u]);
	return buf;
}

const char *uvm_fmt_duration(char *buf, size_t len, double seconds)
{
	if (seconds >= 1 || seconds == 0)
		snprintf(buf, len, "%.3f s", seconds);
	else if (seconds >= 1e-3)
		snprintf(buf, len, "%.3f ms", seconds * 1e3);
	else
		snprintf(buf, len, "%.3f us", seconds * 1e6);
	return buf;
}

const char *uvm_fmt_bandwidth(char *buf, size_t len, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.2f GB/s", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, len, "%.2f MB/s", bps / 1e6);
	else
		snprintf(buf, len, "%.0f B/s", bps);
	return buf;
}
