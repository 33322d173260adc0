/* SPDX-License-Identifier: MIT */
/*
 * sgemm.h - Parboil sgemm: C = alpha A B^T + beta C, register-tiled, one
 * kernel launch. Matrices are column-major as in Parboil: A is m x k
 * (lda = m), B is n x k (ldb = n, what Parboil reads as B^T), C is m x n
 * (ldc = m). Declarations and the per-element arithmetic shared by the
 * kernel and the CPU reference.
 */
#ifndef SGEMM_H
#define SGEMM_H

#include <stddef.h>

#include "wl.h"

/* The original's tiling: a CTA of TILE_N x TILE_TB_HEIGHT threads computes a
 * TILE_M x TILE_N tile of C, each thread one row of it (TILE_N values in
 * registers); B is staged TILE_TB_HEIGHT rows of k at a time. */
#define SGEMM_TILE_N	     16
#define SGEMM_TILE_TB_HEIGHT 8
#define SGEMM_TILE_M	     (SGEMM_TILE_N * SGEMM_TILE_TB_HEIGHT)
/* Every index stays below 2^31, as the original's int arithmetic needs. */
#define SGEMM_MAX_DIM 46336

struct sgemm_dims {
	int m, n, k;
};

/* The sizes as given (0: not given) and their options. */
struct sgemm_opts {
	long long m, n, k;
};
/* clang-format off */
#define SGEMM_DIM_OPTS(o)                                                                          \
	{"m", WL_INT, &(o)->m, SGEMM_TILE_M, SGEMM_MAX_DIM,                                        \
	 "rows of A and C, a multiple of 128 (default 1024)"},                                     \
	{"n", WL_INT, &(o)->n, SGEMM_TILE_N, SGEMM_MAX_DIM,                                        \
	 "rows of B, columns of C, a multiple of 16 (default 1024)"},                              \
	{"k", WL_INT, &(o)->k, SGEMM_TILE_TB_HEIGHT, SGEMM_MAX_DIM,                                \
	 "columns of A and B, a multiple of 8 (default 1024; with --footprint, fixes k)"}
/* clang-format on */

/* One term of a C element's sum over k, in k's order from 0. */
static inline float sgemm_term(float c, float a, float b)
{
	return c + a * b;
}

/* The stored element: the old C scaled by beta plus alpha times the sum. */
static inline float sgemm_result(float c_old, float sum, float alpha, float beta)
{
	return c_old * beta + alpha * sum;
}

static inline uint64_t sgemm_footprint_bytes(const struct sgemm_dims *d)
{
	return sizeof(float) * ((uint64_t)d->m * (uint64_t)d->k + (uint64_t)d->n * (uint64_t)d->k +
				(uint64_t)d->m * (uint64_t)d->n);
}

/* A and B uniform in [-1, 1) from the seed (gen.c). */
void sgemm_generate(uint64_t seed, float *a, float *b, const struct sgemm_dims *d);

/*
 * The sizes (dims.c): --m, --n and --k, or --footprint (m about equal to n,
 * k the same unless --k fixes it); defaults 1024; a size the kernel cannot
 * take is a usage error (exit 2).
 */
struct sgemm_dims sgemm_choose_dims(const struct wl *w, struct sgemm_opts *o);

/*
 * The launch over C's columns col0 .. col0 + cols - 1 (multiples of 16),
 * asynchronous, on the current device (kernel.c): the CTAs of those columns,
 * reading all of A and those rows of B.
 */
void sgemm_launch_cols(const struct wl *w, const float *a, const float *b, float *c,
		       const struct sgemm_dims *d, int col0, int cols, float alpha, float beta);

/* The one launch, and the synchronisation after it (kernel.c). */
void sgemm_run_gpu(const struct wl *w, const float *a, const float *b, float *c,
		   const struct sgemm_dims *d, float alpha, float beta);

/* The same on the CPU (reference.c): c (m x n, column-major) is updated. */
void sgemm_reference(const float *a, const float *b, float *c, const struct sgemm_dims *d,
		     float alpha, float beta);

#endif
