// SPDX-License-Identifier: MIT
/*
 * triad.c - memory-bound: the stream workload's triad kernel (z = 3x + y on
 * floats, one thread per element, CTAs of 256 threads) over 3 x 32 MiB,
 * against the loop a C programmer writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "triad.h"

#define TRIAD_MB 96 /* all three arrays: far beyond the caches */

struct triad {
	float *x, *y, *z;
	size_t n;
};

static void triad_teardown(void *state)
{
	struct triad *t = state;

	free(t->x);
	free(t->y);
	free(t->z);
	free(t);
}

static int triad_setup(void **state)
{
	struct triad *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->n = (size_t)TRIAD_MB * (1u << 20) / (3 * sizeof(float));
	t->x = malloc(t->n * sizeof(float));
	t->y = malloc(t->n * sizeof(float));
	t->z = calloc(t->n, sizeof(float));
	if (!t->x || !t->y || !t->z) {
		triad_teardown(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++) {
		t->x[i] = (float)(i % 1000);
		t->y[i] = 0.5f;
	}
	*state = t;
	return 0;
}

static void triad_describe(const void *state, char *buf, size_t len)
{
	const struct triad *t = state;

	snprintf(buf, len, "z = %g x + y over 3 x %zu floats (%.1f MB), CTAs of %d threads",
		 (double)STREAM_SCALAR, t->n, 3.0 * (double)(t->n * sizeof(float)) / 1e6,
		 STREAM_THREADS);
}

static cudaError_t triad_emu(void *state)
{
	struct triad *t = state;
	unsigned grid = (unsigned)((t->n + STREAM_THREADS - 1) / STREAM_THREADS);
	cudaError_t e =
	    EMU_LAUNCH(stream_triad, emu_dim3(grid, 1, 1), emu_dim3(STREAM_THREADS, 1, 1), 0, t->x,
		       t->y, t->z, (int64_t)t->n);

	return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

static void triad_plain(void *state, unsigned phase, unsigned part, unsigned nparts)
{
	struct triad *t = state;
	const float *x = t->x, *y = t->y;
	float *z = t->z;
	size_t lo, hi;

	bench_part(t->n, part, nparts, &lo, &hi);
	for (size_t i = lo; i < hi; i++)
		z[i] = STREAM_SCALAR * x[i] + y[i];
}

static void triad_clear(void *state)
{
	struct triad *t = state;

	memset(t->z, 0, t->n * sizeof(float));
}

static bool triad_check(const void *state)
{
	const struct triad *t = state;

	for (size_t i = 0; i < t->n; i++)
		if (t->z[i] != STREAM_SCALAR * t->x[i] + t->y[i]) {
			fprintf(stderr, "bench-executor: triad: z[%zu] is wrong\n", i);
			return false;
		}
	return true;
}

const struct bench_kernel bench_triad = {
    .name = "triad",
    .kind = "memory-bound",
    .setup = triad_setup,
    .describe = triad_describe,
    .emu = triad_emu,
    .plain = triad_plain,
    .clear = triad_clear,
    .check = triad_check,
    .teardown = triad_teardown,
};
