// SPDX-License-Identifier: MIT
/*
 * main.c - atax: options and matrix size, then generate, run both kernels
 * (the region of interest) and check y and tmp bit for bit.
 */
#include "atax.h"

#include <inttypes.h>
#include <math.h>

#define ATAX_DEFAULT_N 4096 /* PolyBench/GPU's NX = NY */
#define ATAX_MAX_DIM   (1 << 20)

/* The square size n whose footprint 4n^2 + 12n bytes comes closest to
 * `bytes` (--footprint gives a square matrix, like the original's). */
static int n_for_footprint(const struct wl *w, uint64_t bytes)
{
	long long n = llround((-12.0 + sqrt(144.0 + 16.0 * (double)bytes)) / 8.0);

	if (n < 1)
		wl_usage_error(
		    w, "--footprint %" PRIu64 ": too small for atax (at least %" PRIu64 " bytes)",
		    bytes, atax_footprint_bytes(1, 1));
	if (n > ATAX_MAX_SQUARE)
		wl_usage_error(
		    w, "--footprint %" PRIu64 ": too large for atax (at most %" PRIu64 " bytes)",
		    bytes, atax_footprint_bytes(ATAX_MAX_SQUARE, ATAX_MAX_SQUARE));
	return (int)n;
}

int main(int argc, char **argv)
{
	long long nx = 0, ny = 0;
	const struct wl_opt opts[] = {
	    {"nx", WL_INT, &nx, 1, ATAX_MAX_DIM, "rows of A (default 4096)"},
	    {"ny", WL_INT, &ny, 1, ATAX_MAX_DIM, "columns of A (default 4096)"},
	    {0},
	};
	struct atax_problem p = {0};
	struct wl w;
	bool pass;

	wl_init(&w, "atax", "PolyBench/GPU atax: y = A^T (A x)", argc, argv, opts);
	if (w.footprint && (nx || ny))
		wl_usage_error(&w, "--footprint and --%s both set the problem size; give one",
			       nx ? "nx" : "ny");
	if (w.footprint) {
		p.nx = p.ny = n_for_footprint(&w, w.footprint);
	} else {
		p.nx = nx ? (int)nx : ATAX_DEFAULT_N;
		p.ny = ny ? (int)ny : ATAX_DEFAULT_N;
		if ((long long)p.nx * p.ny > ATAX_MAX_ELEMS)
			wl_usage_error(&w, "--nx %d --ny %d: A would have more than %lld elements",
				       p.nx, p.ny, ATAX_MAX_ELEMS);
	}

	p.A = wl_managed(&w, (size_t)p.nx * p.ny * sizeof(float), "A");
	p.x = wl_managed(&w, (size_t)p.ny * sizeof(float), "x");
	p.y = wl_managed(&w, (size_t)p.ny * sizeof(float), "y");
	p.tmp = wl_managed(&w, (size_t)p.nx * sizeof(float), "tmp");
	wl_footprint(&w, atax_footprint_bytes(p.nx, p.ny));
	uvmemu_report_value("nx", p.nx);
	uvmemu_report_value("ny", p.ny);
	wl_log(&w, "nx %d, ny %d: 2 launches of %d and %d CTAs of %d threads", p.nx, p.ny,
	       (p.nx + ATAX_BLOCK - 1) / ATAX_BLOCK, (p.ny + ATAX_BLOCK - 1) / ATAX_BLOCK,
	       ATAX_BLOCK);

	atax_generate(&p, w.seed);

	uvmemu_roi_begin();
	WL_CHECK(&w, atax_gpu(&p));
	uvmemu_roi_end();

	pass = atax_check(&w, &p, w.seed);
	wl_output_f32(&w, "y", p.y, (size_t)p.ny);
	WL_CHECK(&w, cudaFree(p.A));
	WL_CHECK(&w, cudaFree(p.x));
	WL_CHECK(&w, cudaFree(p.y));
	WL_CHECK(&w, cudaFree(p.tmp));
	return wl_finish(&w, pass);
}
