/* SPDX-License-Identifier: MIT */
/*
 * gaussian.h - Rodinia gaussian: forward elimination of A x = b without
 * pivoting, two kernels per elimination step, then back substitution on the
 * host. Declarations and the per-element arithmetic shared by the kernels and
 * the CPU reference, so both do the same float operations.
 */
#ifndef GAUSSIAN_H
#define GAUSSIAN_H

#include <stddef.h>

#include "wl.h"

/* Fan1's CTA: the original's MAXBLOCKSIZE threads in x. */
#define GAUSS_FAN1_THREADS 512
/* Fan2's CTA: BLOCK_SIZE_XY x BLOCK_SIZE_XY threads. */
#define GAUSS_FAN2_EDGE 4
/* The original indexes with int: N^2 stays below 2^31. */
#define GAUSS_MAX_N 46340

/* The managed arrays: a and m are n x n (row-major), b has n entries. */
struct gauss_data {
	float *a; /* the matrix, eliminated in place (upper triangle left) */
	float *m; /* multipliers: column t of step t, below the diagonal */
	float *b; /* right-hand side, eliminated with a */
};

/* Fan1: the multiplier of row `row` at step t. */
static inline float gauss_multiplier(float a_row_t, float a_t_t)
{
	return a_row_t / a_t_t;
}

/* Fan2: one element of a row (or of b) minus multiplier times the pivot
 * row's element, as the original's `-=`. */
static inline float gauss_eliminate(float x, float mult, float pivot)
{
	return x - mult * pivot;
}

/* Bytes of managed memory for an n x n system. */
static inline uint64_t gauss_footprint_bytes(uint64_t n)
{
	return sizeof(float) * (2 * n * n + n);
}

/* The original's matrix a(i,j) = 10 exp(-0.01 |i - j|), and b from the
 * seed (gen.c). */
void gauss_generate(uint64_t seed, float *a, float *b, int n);

/* Steps 0 .. steps-1 of the elimination on the device: Fan1 then Fan2 per
 * step, each followed by a synchronisation (kernels.c). */
void gauss_run_gpu(const struct wl *w, const struct gauss_data *d, int n, int steps);

/* The same steps on the CPU, on plain arrays (reference.c). */
void gauss_reference(float *a, float *m, float *b, int n, int steps);

/* The original's BackSub: x from the eliminated upper triangle of a and b
 * (host code, run on the GPU's result and on the reference's). */
void gauss_back_substitute(const float *a, const float *b, float *x, int n);

#endif
