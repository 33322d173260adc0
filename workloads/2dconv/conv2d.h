/* SPDX-License-Identifier: MIT */
/*
 * conv2d.h - PolyBench/GPU 2DCONV: a fixed 3 x 3 filter over an NI x NJ
 * matrix, A -> B, one thread per output element. The filter is shared by the
 * kernel and the CPU reference so that both do the same float operations in
 * the same order.
 */
#ifndef CONV2D_H
#define CONV2D_H

#include <stddef.h>
#include <stdint.h>

#include "wl.h"

/* CTA shape of PolyBench/GPU: 32 x 8 threads. */
#define CONV2D_BLOCK_X 32
#define CONV2D_BLOCK_Y 8

/*
 * The filter at one element, given its 3 x 3 neighbourhood: u* the row above,
 * m* its own row, d* the row below; *w the column to the left, *c its own, *e
 * the one to the right. The weights are floats and the nine products are
 * summed left to right, row above first, as in the original.
 */
static inline float conv2d_filter(float uw, float uc, float ue, float mw, float mc, float me,
				  float dw, float dc, float de)
{
	const float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
	const float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
	const float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;

	return c11 * uw + c21 * uc + c31 * ue + c12 * mw + c22 * mc + c32 * me + c13 * dw +
	       c23 * dc + c33 * de;
}

/* A uniform in [0, 1) from the seed, as the original's rand() / RAND_MAX. */
void conv2d_generate(uint64_t seed, float *a, size_t n);

/* The one launch on the device, then a synchronisation. */
void conv2d_run_gpu(const struct wl *w, const float *a, float *b, int ni, int nj);

/* The interior of B on the CPU, packed: (ni - 2) x (nj - 2) floats. */
void conv2d_reference(const float *a, float *interior, int ni, int nj);

#endif
