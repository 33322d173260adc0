/* SPDX-License-Identifier: MIT */
/*
 * mvt.h - PolyBench/GPU's mvt on emu-gpu: x1 += A y1 (one thread per row of
 * A) and x2 += A^T y2 (one thread per column), for an n x n matrix A.
 */
#ifndef MVT_H
#define MVT_H

#include <stdbool.h>
#include <stdint.h>

#include "uvmemu.h"
#include "wl.h"

#define MVT_BLOCK      256   /* threads per 1-D CTA (DIM_THREAD_BLOCK_X) */
#define MVT_MAX_SQUARE 46340 /* the original indexes with int: n * n <= INT32_MAX */

struct mvt_problem {
	int n;
	float *A;	/* managed: n x n, row-major */
	float *x1, *x2; /* managed: n each, updated in place */
	float *y1, *y2; /* managed: n each */
};

static inline uint64_t mvt_footprint_bytes(int n)
{
	return sizeof(float) * ((uint64_t)n * (uint64_t)n + 4 * (uint64_t)n);
}

/* One step of either product, as the original writes both: x += a * y. */
static inline float mvt_step(float x, float a, float y)
{
	return x + a * y;
}

/* gen.c: x1, x2, y1, y2, then A row by row, uniform in [0, 1). */
void mvt_generate(const struct mvt_problem *p, uint64_t seed);

/* kernels.c: both kernels, each followed by a synchronisation. */
cudaError_t mvt_gpu(const struct mvt_problem *p);

/* reference.c: x1 and x2 on the CPU (n floats each) in the kernels' order,
 * from the managed inputs as they are before the launches. */
void mvt_reference(const struct mvt_problem *p, float *x1, float *x2);

#endif
