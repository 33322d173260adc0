/* SPDX-License-Identifier: MIT */
/*
 * bicg.h - PolyBench/GPU's bicg on emu-gpu, the two matrix-vector products
 * of the BiCG solver's step: s = A^T r (one thread per column of A) and
 * q = A p (one thread per row), for an nx x ny matrix A.
 */
#ifndef BICG_H
#define BICG_H

#include <stdbool.h>
#include <stdint.h>

#include "uvmemu.h"
#include "wl.h"

#define BICG_BLOCK 256 /* threads per 1-D CTA (DIM_THREAD_BLOCK_X) */
/* The original indexes A with int i * NY + j: keep nx * ny inside an int. */
#define BICG_MAX_ELEMS	((long long)INT32_MAX)
#define BICG_MAX_SQUARE 46340 /* the largest n with n * n <= INT32_MAX */

struct bicg_problem {
	int nx, ny;
	float *A; /* managed: nx x ny, row-major */
	float *r; /* managed: nx */
	float *p; /* managed: ny */
	float *s; /* managed: ny, A^T r (first written by the GPU) */
	float *q; /* managed: nx, A p (first written by the GPU) */
};

static inline uint64_t bicg_footprint_bytes(int nx, int ny)
{
	return sizeof(float) * ((uint64_t)nx * (uint64_t)ny + 2 * (uint64_t)nx + 2 * (uint64_t)ny);
}

/* One step of either product, as the original writes both:
 * acc += A[i][j] * v. */
static inline float bicg_step(float acc, float a, float v)
{
	return acc + a * v;
}

/* gen.c: r, p, then A row by row, uniform in [0, 1). */
void bicg_generate(const struct bicg_problem *pb, uint64_t seed);

/* kernels.c: both kernels, each followed by a synchronisation. */
cudaError_t bicg_gpu(const struct bicg_problem *pb);

/* reference.c: s and q on the CPU (ny and nx floats) in the kernels' order,
 * from the managed inputs as they are before the launches. */
void bicg_reference(const struct bicg_problem *pb, float *s, float *q);

#endif
