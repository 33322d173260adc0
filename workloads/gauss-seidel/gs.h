/* SPDX-License-Identifier: MIT */
/*
 * gs.h - gauss-seidel: red-black Gauss-Seidel relaxation of the 2-D Poisson
 * equation -lap(u) = f on an n x n grid with a fixed boundary ring.
 * Declarations and the per-cell update shared by the kernels and the CPU
 * reference.
 */
#ifndef GS_H
#define GS_H

#include <stddef.h>

#include "wl.h"

/* CTA: 16 x 16 threads, each one cell of the launch's colour, so a CTA
 * covers 32 columns by 16 rows of the grid. */
#define GS_BLOCK 16
/* Indices stay below 2^31 (int in CUDA codes of this kind). */
#define GS_MAX_N 46340

enum gs_colour { GS_RED = 0, GS_BLACK = 1 };

/* A cell (i, j) is red when i + j is even. */
static inline int gs_colour_of(size_t i, size_t j)
{
	return (int)((i + j) & 1);
}

/* The relaxed value of a cell from its four neighbours and h^2 f. */
static inline float gs_relax(float up, float down, float left, float right, float h2f)
{
	return 0.25f * ((((up + down) + left) + right) + h2f);
}

/* First interior column of colour c in row i (1 or 2). */
static inline size_t gs_first_col(size_t i, int c)
{
	return gs_colour_of(i, 1) == c ? 1 : 2;
}

/* Boundary ring and h^2 f from the seed; the interior of u starts at 0
 * (gen.c). */
void gs_generate(uint64_t seed, float *u, float *h2f, int n);

/* `iterations` red-then-black sweeps on the device (kernels.c). */
void gs_run_gpu(const struct wl *w, float *u, const float *h2f, int n, int iterations);

/* The same sweeps on the CPU (reference.c). */
void gs_reference(float *u, const float *h2f, int n, int iterations);

/* The root mean square of the residual f + lap(u) over the interior, scaled
 * by h^2 (host code, reads u). */
double gs_residual(const float *u, const float *h2f, int n);

#endif
