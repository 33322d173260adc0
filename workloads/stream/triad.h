/* SPDX-License-Identifier: MIT */
/* triad.h - the stream workload's kernel, also timed by bench-executor. */
#ifndef STREAM_TRIAD_H
#define STREAM_TRIAD_H

#include <stdint.h>

#include "emugpu.h"

#define STREAM_THREADS 256 /* threads per CTA */
#define STREAM_SCALAR  3.0f

struct triad_args {
	const float *x, *y;
	float *z;
	int64_t n;
};

/* z[i] = STREAM_SCALAR * x[i] + y[i] for i < n, one thread per element. */
EMU_KERNEL_DECLARE(stream_triad, struct triad_args);

#endif
