/* SPDX-License-Identifier: MIT */
/*
 * sgemm_nn.h - C = A B on column-major matrices (cuBLAS's "NN": neither
 * operand transposed): A is m x k (lda = m), B is k x n (ldb = k), C is
 * m x n (ldc = m). The tiling is the one cuBLAS's large-matrix sgemm kernels
 * use, so that the pages a CTA touches together are theirs: a CTA of 256
 * threads owns a 128 x 128 tile of C, stages A and B 8 values of k at a
 * time, and each thread keeps an 8 x 8 block of C in registers.
 */
#ifndef SGEMM_NN_H
#define SGEMM_NN_H

#include <stddef.h>

#include "wl.h"

#define NN_TILE	   128 /* rows and columns of C a CTA owns */
#define NN_KSTEP   8   /* values of k staged at a time */
#define NN_THREADS 256 /* threads of a CTA */
#define NN_MICRO   8   /* each thread's block of C: NN_MICRO x NN_MICRO */
/* Every index stays below 2^31 elements, as a 32-bit kernel's would. */
#define NN_MAX_DIM 46336

struct nn_dims {
	int m, n, k;
};

/* One term of a C element's sum over k, in k's order from 0: the kernel and
 * the reference add in the same order, so the result is bit for bit. */
static inline float nn_term(float c, float a, float b)
{
	return c + a * b;
}

static inline uint64_t nn_footprint_bytes(const struct nn_dims *d)
{
	return sizeof(float) * ((uint64_t)d->m * (uint64_t)d->k + (uint64_t)d->k * (uint64_t)d->n +
				(uint64_t)d->m * (uint64_t)d->n);
}

/* The launch over the (m / 128) x (n / 128) grid, and the synchronisation
 * after it (kernel.c). */
void nn_run_gpu(const struct wl *w, const float *a, const float *b, float *c,
		const struct nn_dims *d);

/* The same product on the CPU (reference.c); c is written, not read. */
void nn_reference(const float *a, const float *b, float *c, const struct nn_dims *d);

#endif
