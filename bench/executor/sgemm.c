// SPDX-License-Identifier: MIT
/*
 * sgemm.c - compute-bound: C = A B on 512 x 512 floats, register-tiled as a
 * GPU port would be: each thread computes a 4 x 8 tile of C in registers
 * (8 consecutive columns, one or two vectors wide), summing over k in order;
 * a CTA of 16 x 16 threads covers 64 x 128 of C, and its threads share the
 * rows of A and columns of B it reads, which stay in the caches.
 *
 * The plain-C variant runs the same per-thread code over the same tiles in
 * the same order, so that the two compute bit-identical results and differ
 * only in how the tiles are run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define SG_N	512 /* A, B and C are SG_N x SG_N */
#define SG_TM	4   /* rows of C per thread */
#define SG_TN	8   /* consecutive columns of C per thread */
#define SG_BX	16  /* threads per CTA along the columns */
#define SG_BY	16  /* and along the rows */
#define SG_ROWS (SG_BY * SG_TM)
#define SG_COLS (SG_BX * SG_TN)

struct sgemm_args {
	const float *a, *b;
	float *c;
	int64_t n;
};

/* One thread's tile: C[row, row + SG_TM) x [col, col + SG_TN). */
static inline void sgemm_thread(const float *a, const float *b, float *c, size_t n, size_t row,
				size_t col)
{
	float acc[SG_TM][SG_TN] = {{0}};

	for (size_t k = 0; k < n; k++) {
		const float *bk = b + k * n + col;

		for (int i = 0; i < SG_TM; i++) {
			float av = a[(row + (size_t)i) * n + k];

			for (int j = 0; j < SG_TN; j++)
				acc[i][j] += av * bk[j];
		}
	}
	for (int i = 0; i < SG_TM; i++)
		for (int j = 0; j < SG_TN; j++)
			c[(row + (size_t)i) * n + col + (size_t)j] = acc[i][j];
}

EMU_KERNEL_BLOCK(bench_sgemm_kernel, struct sgemm_args, SG_BX, SG_BY, 1)
{
	EMU_FOR_THREADS {
		size_t row = ((size_t)blockIdx.y * blockDim.y + threadIdx.y) * SG_TM;
		size_t col = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * SG_TN;

		sgemm_thread(args->a, args->b, args->c, (size_t)args->n, row, col);
	}
}

struct sgemm {
	float *a, *b, *c, *ref;
	size_t n;
};

static void sgemm_teardown(void *state)
{
	struct sgemm *s = state;

	free(s->a);
	free(s->b);
	free(s->c);
	free(s->ref);
	free(s);
}

static void sgemm_describe(const void *state, char *buf, size_t len)
{
	const struct sgemm *s = state;

	snprintf(buf, len,
		 "C = A B on %zu x %zu floats (%.2f GFLOP), %d x %d per thread, CTAs of %d x %d "
		 "threads",
		 s->n, s->n, 2.0 * (double)s->n * (double)s->n * (double)s->n / 1e9, SG_TM, SG_TN,
		 SG_BX, SG_BY);
}

static cudaError_t sgemm_emu(void *state)
{
	struct sgemm *s = state;
	dim3 grid = emu_dim3((unsigned)(s->n / SG_COLS), (unsigned)(s->n / SG_ROWS), 1);
	cudaError_t e = EMU_LAUNCH(bench_sgemm_kernel, grid, emu_dim3(SG_BX, SG_BY, 1), 0, s->a,
				   s->b, s->c, (int64_t)s->n);

	return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

/* The CTAs of this part in launch order (x fastest), their threads in the
 * thread loop's order. */
static void sgemm_plain(void *state, unsigned phase, unsigned part, unsigned nparts)
{
	struct sgemm *s = state;
	size_t gx = s->n / SG_COLS, lo, hi;

	bench_part(gx * (s->n / SG_ROWS), part, nparts, &lo, &hi);
	for (size_t cta = lo; cta < hi; cta++) {
		size_t by = cta / gx, bx = cta % gx;

		for (size_t ty = 0; ty < SG_BY; ty++)
			for (size_t tx = 0; tx < SG_BX; tx++)
				sgemm_thread(s->a, s->b, s->c, s->n, (by * SG_BY + ty) * SG_TM,
					     (bx * SG_BX + tx) * SG_TN);
	}
}

static void sgemm_clear(void *state)
{
	struct sgemm *s = state;

	memset(s->c, 0, s->n * s->n * sizeof(float));
}

static bool sgemm_check(const void *state)
{
	const struct sgemm *s = state;

	return bench_same_matrix(s->c, s->ref, s->n, "sgemm: C");
}

/* The tiled reference against the textbook loop, on a sample of elements:
 * both sum over k in order, so they agree bit for bit. */
static bool sgemm_ref_sane(const struct sgemm *s)
{
	for (size_t i = 0; i < s->n; i += 37)
		for (size_t j = 0; j < s->n; j += 41) {
			float sum = 0;

			for (size_t k = 0; k < s->n; k++)
				sum += s->a[i * s->n + k] * s->b[k * s->n + j];
			if (memcmp(&sum, &s->ref[i * s->n + j], sizeof(float)) != 0) {
				fprintf(stderr,
					"bench-executor: sgemm: the tiled C[%zu][%zu] is wrong\n",
					i, j);
				return false;
			}
		}
	return true;
}

static int sgemm_setup(void **state)
{
	struct sgemm *s = calloc(1, sizeof(*s));
	size_t bytes = (size_t)SG_N * SG_N * sizeof(float);

	if (!s)
		return -ENOMEM;
	s->n = SG_N;
	s->a = malloc(bytes);
	s->b = malloc(bytes);
	s->c = calloc(1, bytes);
	s->ref = malloc(bytes);
	if (!s->a || !s->b || !s->c || !s->ref) {
		sgemm_teardown(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n * s->n; i++) {
		s->a[i] = (float)(i % 7) * 0.25f - 0.75f;
		s->b[i] = (float)(i % 5) * 0.5f - 1.0f;
	}
	sgemm_plain(s, 0, 0, 1);
	memcpy(s->ref, s->c, bytes);
	if (!sgemm_ref_sane(s)) {
		sgemm_teardown(s);
		return -EINVAL;
	}
	*state = s;
	return 0;
}

const struct bench_kernel bench_sgemm = {
    .name = "sgemm",
    .kind = "compute-bound",
    .setup = sgemm_setup,
    .describe = sgemm_describe,
    .emu = sgemm_emu,
    .plain = sgemm_plain,
    .clear = sgemm_clear,
    .check = sgemm_check,
    .teardown = sgemm_teardown,
};
