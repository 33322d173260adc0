/* SPDX-License-Identifier: MIT */
/*
 * ra.h - UVMSmart's ra ("random access", benchmarks/Managed/ra/main.cu): one
 * kernel in which every `every`-th thread turns the fraction of its input
 * into an index and copies the table's entry there, scaled, to the output.
 * Not HPCC RandomAccess (workloads/ra).
 */
#ifndef US_RA_H
#define US_RA_H

#include <math.h>
#include <stdint.h>

#include "emugpu.h"

#define US_RA_THREADS 256 /* threads per CTA, as in the original */

struct us_ra_args {
	const float *input;
	float *output;
	const float *table;
	int64_t n;     /* elements of each array */
	int64_t every; /* only threads whose index is a multiple of this work */
};
EMU_KERNEL_DECLARE(us_ra_kernel, struct us_ra_args);

/*
 * The table index an input selects: its fraction scaled to the table, as
 * the original computes it in float. A fraction that rounds up to n (a
 * float product just below n, n not a power of two) takes the last entry.
 */
static inline int64_t us_ra_index(float in, int64_t n)
{
	int in_i = (int)floorf(in);
	int64_t idx = (int64_t)((in - (float)in_i) * (float)n);

	return idx < n ? idx : n - 1;
}

/* What a working thread writes at that index: the table's entry times the
 * input, one float product as in the original. */
static inline float us_ra_value(float entry, float in)
{
	return entry * in;
}

#endif
