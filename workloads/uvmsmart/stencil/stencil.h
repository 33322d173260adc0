/* SPDX-License-Identifier: MIT */
/*
 * stencil.h - Parboil's stencil as UVMSmart runs it
 * (benchmarks/Managed/stencil): a 7-point stencil on an nx x ny x nz volume,
 * ping-pong between two managed buffers, one launch per time step.
 * block2D_hybrid_coarsen_x: 32 x 4 CTAs, each thread two x-cells, marching
 * along z with the current plane in shared memory and the planes below and
 * above in registers.
 */
#ifndef US_STENCIL_H
#define US_STENCIL_H

#include <stddef.h>
#include <stdint.h>

#include "wl.h"

#define US_STENCIL_TX 32 /* CTA x; a CTA covers 2 * 32 cells of a row */
#define US_STENCIL_TY 4

static inline size_t us_stencil_at(int nx, int ny, int i, int j, int k)
{
	return ((size_t)k * (size_t)ny + (size_t)j) * (size_t)nx + (size_t)i;
}

/*
 * A cell's next value from its six neighbours and itself. The kernel adds
 * the x-neighbours in either order (left + right for one of a thread's two
 * cells, right + left for the other), the same float sum; then the y-, then
 * the z-neighbours, as Parboil does.
 */
static inline float us_stencil_cell(float left, float right, float up, float down, float top,
				    float bottom, float centre, float c0, float c1)
{
	return (left + right + up + down + top + bottom) * c1 - centre * c0;
}

/* The coefficients, computed in float as the original's main does. */
static inline float us_stencil_c0(void)
{
	return 1.0f / 6.0f;
}

static inline float us_stencil_c1(void)
{
	return 1.0f / 6.0f / 6.0f;
}

/* kernel.c: `iterations` launches, swapping the buffers after each; returns
 * the buffer holding the result (0 or 1). */
int us_stencil_run_gpu(const struct wl *w, float *a[2], int nx, int ny, int nz, int iterations);

#endif
