// SPDX-License-Identifier: MIT
/*
 * units.c - fuzz target for the size, bandwidth, duration and number parsers
 * (libuvmemu/src/common/units.c): the input is one value as a user would type
 * it. Each parser returns 0, -EINVAL or -ERANGE, leaves its output alone on
 * error, and what it accepts prints without overflowing the buffer.
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"
#include "units.h"

#define UNSET 0x5a5a5a5a5a5a5a5aull

static void check_ret(int ret)
{
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL || ret == -ERANGE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), buf[32];
	uint64_t bytes = UNSET;
	int64_t ns = (int64_t)UNSET;
	double bw = -1, d = -1;
	long long ll = (long long)UNSET;
	int ret;

	ret = uvm_parse_size(s, &bytes);
	check_ret(ret);
	FUZZ_ASSERT(ret == 0 || bytes == UNSET);
	if (ret == 0)
		FUZZ_ASSERT(strlen(uvm_fmt_size(buf, sizeof(buf), bytes)) < sizeof(buf));

	ret = uvm_parse_bandwidth(s, &bw);
	check_ret(ret);
	FUZZ_ASSERT(ret == 0 ? isfinite(bw) && bw >= 0 : bw == -1);
	if (ret == 0)
		FUZZ_ASSERT(strlen(uvm_fmt_bandwidth(buf, sizeof(buf), bw)) < sizeof(buf));

	ret = uvm_parse_duration(s, &ns);
	check_ret(ret);
	FUZZ_ASSERT(ret == 0 ? ns >= 0 : ns == (int64_t)UNSET);
	if (ret == 0)
		FUZZ_ASSERT(strlen(uvm_fmt_duration(buf, sizeof(buf), (double)ns / 1e9)) <
			    sizeof(buf));

	ret = uvm_parse_double(s, &d);
	check_ret(ret);
	FUZZ_ASSERT(ret == 0 ? isfinite(d) : d == -1);

	ret = uvm_parse_int(s, &ll);
	check_ret(ret);
	FUZZ_ASSERT(ret == 0 || ll == (long long)UNSET);
	free(s);
	return 0;
}
