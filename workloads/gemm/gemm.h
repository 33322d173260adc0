/* SPDX-License-Identifier: MIT */
/*
 * gemm.h - PolyBench/GPU gemm on emu-gpu: C = alpha A B + beta C for an
 * ni x nk matrix A, an nk x nj matrix B and an ni x nj matrix C, one thread
 * per element of C. The element update is shared by the kernel and the CPU
 * reference, so that both do the same float operations in the same order.
 */
#ifndef GEMM_H
#define GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "wl.h"

/* CTA shape of PolyBench/GPU: 32 x 8 threads. */
#define GEMM_BLOCK_X 32
#define GEMM_BLOCK_Y 8
/* PolyBench/GPU's constants (floats there too). */
#define GEMM_ALPHA 32412.0f
#define GEMM_BETA  2123.0f

struct gemm_problem {
	int ni, nj, nk;
	float *A; /* managed: ni x nk, row-major */
	float *B; /* managed: nk x nj */
	float *C; /* managed: ni x nj, the result (in place) */
};

static inline uint64_t gemm_footprint_bytes(int ni, int nj, int nk)
{
	return sizeof(float) * ((uint64_t)ni * (uint64_t)nk + (uint64_t)nk * (uint64_t)nj +
				(uint64_t)ni * (uint64_t)nj);
}

/* One step of an element's dot product: c += ALPHA * a * b, written as the
 * original's expression is evaluated, (ALPHA * a) * b added last. */
static inline float gemm_step(float c, float a, float b)
{
	return c + GEMM_ALPHA * a * b;
}

/* The scaling that starts every element: c *= BETA. */
static inline float gemm_scale(float c)
{
	return c * GEMM_BETA;
}

/* gen.c: A, B and C uniform in [0, 1) from the seed, in that order. */
void gemm_generate(const struct gemm_problem *p, uint64_t seed);

/* kernels.c: the one launch, then a synchronisation. */
cudaError_t gemm_gpu(const struct gemm_problem *p);

/* reference.c: C on the CPU into `c` (ni x nj), from the managed inputs as
 * they are before the launch. */
void gemm_reference(const struct gemm_problem *p, float *c);

#endif
