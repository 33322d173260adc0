// SPDX-License-Identifier: MIT
/*
 * main.c - lud (Rodinia): blocked LU decomposition of a generated matrix in
 * managed memory, three kernels per block step over a shrinking trailing
 * matrix. The factors are checked bit for bit against a CPU reference doing
 * the same float operations in the same order.
 */
#include "lud.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LUD_DEFAULT_N 2048

static int size_for_footprint(const struct wl *w, uint64_t bytes)
{
	/* One N x N float matrix, N a multiple of 16. */
	long long n = llround(sqrt((double)bytes / sizeof(float)) / LUD_BLOCK) * LUD_BLOCK;

	if (n < 2 * LUD_BLOCK)
		wl_usage_error(w,
			       "--footprint %llu: below the smallest matrix (32 x 32, %zu bytes)",
			       (unsigned long long)bytes, 32 * 32 * sizeof(float));
	if (n > LUD_MAX_N)
		wl_usage_error(w, "--footprint %llu: above the largest matrix (%d x %d)",
			       (unsigned long long)bytes, LUD_MAX_N, LUD_MAX_N);
	return (int)n;
}

int main(int argc, char **argv)
{
	long long size = 0, steps = -1;
	const struct wl_opt opts[] = {
	    {"size", WL_INT, &size, 2 * LUD_BLOCK, LUD_MAX_N,
	     "matrix dimension N, a multiple of 16: the original's -s (default 2048)"},
	    {"steps", WL_INT, &steps, 0, LUD_MAX_N / LUD_BLOCK,
	     "block steps to run, at most N / 16 - 1 (default all: the whole factorisation)"},
	    {0},
	};
	struct wl w;
	float *m, *ref;
	size_t nn, bytes;
	double logdet = 0;
	int n, whole;
	bool pass;

	wl_init(&w, "lud", "Rodinia lud: blocked LU decomposition", argc, argv, opts);
	if (w.footprint && size)
		wl_usage_error(&w, "--footprint and --size both set the matrix size; give one");
	n = w.footprint ? size_for_footprint(&w, w.footprint) : (size ? (int)size : LUD_DEFAULT_N);
	if (n % LUD_BLOCK)
		wl_usage_error(&w, "--size %d: expected a multiple of %d", n, LUD_BLOCK);
	whole = lud_block_steps(n);
	if (steps < 0)
		steps = whole;
	if (steps > whole)
		wl_usage_error(&w, "--steps %lld: a %d x %d matrix has %d block steps", steps, n, n,
			       whole);
	nn = (size_t)n;
	bytes = nn * nn * sizeof(float);
	m = wl_managed(&w, bytes, "matrix");
	wl_footprint(&w, bytes);
	uvmemu_report_value("size", n);
	uvmemu_report_value("steps", (double)steps);
	wl_log(&w, "%d x %d matrix, %lld of %d block steps: %lld launches", n, n, steps, whole,
	       3 * steps + (steps == whole));

	lud_generate(w.seed, m, n);
	/* The reference runs first, on a copy, while the matrix is still where
	 * the CPU wrote it, so that it adds no traffic of its own. */
	ref = malloc(bytes);
	if (!ref) {
		fprintf(stderr, "lud: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(ref, m, bytes);
	lud_reference(ref, n, (int)steps);

	uvmemu_roi_begin();
	lud_run_gpu(&w, m, n, (int)steps);
	uvmemu_roi_end();

	/* log |det| from U's diagonal, as the GPU left it. */
	for (size_t i = 0; i < nn; i++)
		logdet += log(fabs((double)m[i * nn + i]));
	wl_log(&w, "sum of log |U(i,i)| = %.9g", logdet);
	pass = wl_check_f32_exact(&w, "matrix", m, ref, nn * nn);
	wl_output_f32(&w, "lu", m, nn * nn);
	free(ref);
	WL_CHECK(&w, cudaFree(m));
	return wl_finish(&w, pass);
}
