// SPDX-License-Identifier: MIT
/*
 * main.c - mvt (PolyBench/GPU): options and matrix size, then generate,
 * compute the CPU reference, run both kernels (the region of interest) and
 * check x1 and x2 bit for bit.
 */
#include "mvt.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define MVT_DEFAULT_N 4096 /* PolyBench/GPU's N */

/* The n whose footprint 4n^2 + 16n bytes comes closest to `bytes`. */
static int n_for_footprint(const struct wl *w, uint64_t bytes)
{
	long long n = llround((-16.0 + sqrt(256.0 + 16.0 * (double)bytes)) / 8.0);

	if (n < 1 || n > MVT_MAX_SQUARE)
		wl_usage_error(w,
			       "--footprint %" PRIu64 ": outside mvt's range (%" PRIu64
			       " to %" PRIu64 " bytes)",
			       bytes, mvt_footprint_bytes(1), mvt_footprint_bytes(MVT_MAX_SQUARE));
	return (int)n;
}

int main(int argc, char **argv)
{
	long long n = 0;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, MVT_MAX_SQUARE, "rows and columns of A (default 4096)"},
	    {0},
	};
	struct mvt_problem p = {0};
	float *x1, *x2;
	struct wl w;
	bool pass;

	wl_init(&w, "mvt", "PolyBench/GPU mvt: x1 += A y1, x2 += A^T y2", argc, argv, opts);
	if (w.footprint && n)
		wl_usage_error(&w, "--footprint and --n both set the problem size; give one");
	p.n = w.footprint ? n_for_footprint(&w, w.footprint) : n ? (int)n : MVT_DEFAULT_N;

	p.A = wl_managed(&w, (size_t)p.n * (size_t)p.n * sizeof(float), "A");
	p.x1 = wl_managed(&w, (size_t)p.n * sizeof(float), "x1");
	p.x2 = wl_managed(&w, (size_t)p.n * sizeof(float), "x2");
	p.y1 = wl_managed(&w, (size_t)p.n * sizeof(float), "y1");
	p.y2 = wl_managed(&w, (size_t)p.n * sizeof(float), "y2");
	wl_footprint(&w, mvt_footprint_bytes(p.n));
	uvmemu_report_value("n", p.n);
	wl_log(&w, "n %d: 2 launches of %d CTAs of %d threads", p.n,
	       (p.n + MVT_BLOCK - 1) / MVT_BLOCK, MVT_BLOCK);

	mvt_generate(&p, w.seed);
	/* The reference runs first, while the inputs are still where the CPU
	 * wrote them, so that it adds no traffic of its own. */
	x1 = malloc((size_t)p.n * sizeof(float));
	x2 = malloc((size_t)p.n * sizeof(float));
	if (!x1 || !x2) {
		fprintf(stderr, "mvt: out of memory for the CPU reference\n");
		return 1;
	}
	mvt_reference(&p, x1, x2);

	uvmemu_roi_begin();
	WL_CHECK(&w, mvt_gpu(&p));
	uvmemu_roi_end();

	printf("mvt: checksums of x1 %.9g, x2 %.9g\n", wl_sum_f32(p.x1, (size_t)p.n),
	       wl_sum_f32(p.x2, (size_t)p.n));
	pass = wl_check_f32_exact(&w, "x1", p.x1, x1, (size_t)p.n);
	pass &= wl_check_f32_exact(&w, "x2", p.x2, x2, (size_t)p.n);
	wl_output_f32(&w, "x1", p.x1, (size_t)p.n);
	wl_output_f32(&w, "x2", p.x2, (size_t)p.n);
	free(x1);
	free(x2);
	WL_CHECK(&w, cudaFree(p.A));
	WL_CHECK(&w, cudaFree(p.x1));
	WL_CHECK(&w, cudaFree(p.x2));
	WL_CHECK(&w, cudaFree(p.y1));
	WL_CHECK(&w, cudaFree(p.y2));
	return wl_finish(&w, pass);
}
