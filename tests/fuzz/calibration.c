// SPDX-License-Identifier: MIT
/*
 * calibration.c - fuzz target for the calibration file reader
 * (libuvmemu/src/front/calibration.c, what --dilation auto reads from
 * --calibration FILE or the cache): the input is a whole file. A file read
 * to the end (this machine's, or another's: the machine is checked last)
 * holds bandwidths that are finite numbers > 0; a rejected one comes with a
 * one-line message naming the file.
 */
#include <errno.h>
#include <math.h>

#include "calibration.h"
#include "fuzz.h"

/* A bandwidth the file gave (> 0), or none (0). */
static bool bandwidth_ok(double v)
{
	return v == 0 || (isfinite(v) && v > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path(data, size);
	struct uvm_calib c;
	char why[512] = "";
	int ret = uvm_calib_read(path, "fuzz", &c, why, sizeof(why));

	FUZZ_ASSERT(ret == 0 || ret == -ESTALE || ret == -EINVAL);
	if (ret == 0 || ret == -ESTALE) {
		FUZZ_ASSERT(isfinite(c.bytes_per_s) && c.bytes_per_s > 0);
		FUZZ_ASSERT(bandwidth_ok(c.min_bytes_per_s) && bandwidth_ok(c.max_bytes_per_s));
		FUZZ_ASSERT(*c.machine && *c.build);
	}
	if (ret != 0) {
		fuzz_one_line(why);
		FUZZ_ASSERT(strstr(why, path) != NULL);
	}
	return 0;
}
