/* SPDX-License-Identifier: MIT */
/*
 * lud.h - Rodinia lud: blocked LU decomposition (no pivoting) of an N x N
 * matrix in place, three kernels per 16-wide block step. Declarations and
 * the per-element arithmetic shared by the kernels and the CPU reference,
 * so that both do the same float operations in the same order.
 */
#ifndef LUD_H
#define LUD_H

#include <stddef.h>

#include "wl.h"

/* The original's BLOCK_SIZE: 16 x 16 tiles; N is a multiple of it. */
#define LUD_BLOCK 16
/* The original indexes with int: N^2 stays below 2^31. */
#define LUD_MAX_N 46336

/* x - a * b: one term of an L or U element (the original's `-=`). */
static inline float lud_sub(float x, float a, float b)
{
	return x - a * b;
}

/* An L element's last operation: divide by the U diagonal element. */
static inline float lud_div(float x, float d)
{
	return x / d;
}

/* lud_internal's element: the dot product of a row of the perimeter column
 * (L) and a column of the perimeter row (U), summed from 0 to 15, then
 * subtracted. */
static inline float lud_internal_element(float m, const float col[LUD_BLOCK],
					 const float row[LUD_BLOCK], size_t row_stride)
{
	float sum = 0;

	for (int i = 0; i < LUD_BLOCK; i++)
		sum += col[i] * row[(size_t)i * row_stride];
	return m - sum;
}

/* Block steps of the whole factorisation: one per diagonal block but the
 * last, which only the final lud_diagonal launch factors. */
static inline int lud_block_steps(int n)
{
	return n / LUD_BLOCK - 1;
}

/* The original's matrix 10 exp(-0.001 |i - j|), plus a seeded diagonal
 * increment (gen.c). */
void lud_generate(uint64_t seed, float *m, int n);

/* The first `steps` block steps on the device (diagonal, perimeter and
 * internal kernels each), and the final diagonal block when steps is the
 * whole factorisation (kernels.c). */
void lud_run_gpu(const struct wl *w, float *m, int n, int steps);

/* The same on the CPU, in place (reference.c). */
void lud_reference(float *m, int n, int steps);

#endif
