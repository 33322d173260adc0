/* SPDX-License-Identifier: MIT */
/*
 * atax.h - PolyBench/GPU's atax on emu-gpu: y = A^T (A x) for an nx x ny
 * matrix A, as two kernels (tmp = A x with one thread per row, then
 * y = A^T tmp with one thread per column).
 */
#ifndef ATAX_H
#define ATAX_H

#include <stdbool.h>
#include <stdint.h>

#include "uvmemu.h"
#include "wl.h"

#define ATAX_BLOCK 256 /* threads per 1-D CTA (DIM_THREAD_BLOCK_X) */
/* The original indexes A with int i * NY + j: keep nx * ny inside an int. */
#define ATAX_MAX_ELEMS	((long long)INT32_MAX)
#define ATAX_MAX_SQUARE 46340 /* the largest n with n * n <= INT32_MAX */

struct atax_problem {
	int nx, ny;
	float *A;   /* managed: nx x ny, row-major */
	float *x;   /* managed: ny */
	float *y;   /* managed: ny, the result */
	float *tmp; /* managed: nx, A x */
};

static inline uint64_t atax_footprint_bytes(int nx, int ny)
{
	return sizeof(float) * ((uint64_t)nx * (uint64_t)ny + 2 * (uint64_t)ny + (uint64_t)nx);
}

/*
 * gen.c: x first, then A row by row, from one seeded stream. The reference
 * regenerates A a row at a time with atax_gen_x and atax_gen_row.
 */
void atax_gen_x(struct wl_rng *r, float *x, int ny);
void atax_gen_row(struct wl_rng *r, float *row, int ny);
void atax_generate(struct atax_problem *p, uint64_t seed);

/* kernels.c: both kernels, each followed by a synchronisation. */
cudaError_t atax_gpu(const struct atax_problem *p);

/* reference.c: y and tmp on the CPU in the kernels' order, from a fresh copy
 * of the generated input; true when both equal the GPU's bit for bit. */
bool atax_check(const struct wl *w, const struct atax_problem *p, uint64_t seed);

#endif
