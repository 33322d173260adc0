// SPDX-License-Identifier: MIT
/*
 * main.c - bicg (PolyBench/GPU): options and matrix size, then generate,
 * compute the CPU reference, run both kernels (the region of interest) and
 * check s and q bit for bit.
 */
#include "bicg.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define BICG_DEFAULT_N 4096 /* PolyBench/GPU's NX = NY */
#define BICG_MAX_DIM   (1 << 20)

/* The square size n whose footprint 4n^2 + 16n bytes comes closest to
 * `bytes` (--footprint gives a square matrix, like the original's). */
static int n_for_footprint(const struct wl *w, uint64_t bytes)
{
	long long n = llround((-16.0 + sqrt(256.0 + 16.0 * (double)bytes)) / 8.0);

	if (n < 1 || n > BICG_MAX_SQUARE)
		wl_usage_error(w,
			       "--footprint %" PRIu64 ": outside bicg's range (%" PRIu64
			       " to %" PRIu64 " bytes)",
			       bytes, bicg_footprint_bytes(1, 1),
			       bicg_footprint_bytes(BICG_MAX_SQUARE, BICG_MAX_SQUARE));
	return (int)n;
}

int main(int argc, char **argv)
{
	long long nx = 0, ny = 0;
	const struct wl_opt opts[] = {
	    {"nx", WL_INT, &nx, 1, BICG_MAX_DIM, "rows of A (default 4096)"},
	    {"ny", WL_INT, &ny, 1, BICG_MAX_DIM, "columns of A (default 4096)"},
	    {0},
	};
	struct bicg_problem pb = {0};
	float *s, *q;
	struct wl w;
	bool pass;

	wl_init(&w, "bicg", "PolyBench/GPU bicg: s = A^T r and q = A p", argc, argv, opts);
	if (w.footprint && (nx || ny))
		wl_usage_error(&w, "--footprint and --%s both set the problem size; give one",
			       nx ? "nx" : "ny");
	if (w.footprint) {
		pb.nx = pb.ny = n_for_footprint(&w, w.footprint);
	} else {
		pb.nx = nx ? (int)nx : BICG_DEFAULT_N;
		pb.ny = ny ? (int)ny : BICG_DEFAULT_N;
		if ((long long)pb.nx * pb.ny > BICG_MAX_ELEMS)
			wl_usage_error(&w, "--nx %d --ny %d: A would have more than %lld elements",
				       pb.nx, pb.ny, BICG_MAX_ELEMS);
	}

	pb.A = wl_managed(&w, (size_t)pb.nx * (size_t)pb.ny * sizeof(float), "A");
	pb.r = wl_managed(&w, (size_t)pb.nx * sizeof(float), "r");
	pb.p = wl_managed(&w, (size_t)pb.ny * sizeof(float), "p");
	pb.s = wl_managed(&w, (size_t)pb.ny * sizeof(float), "s");
	pb.q = wl_managed(&w, (size_t)pb.nx * sizeof(float), "q");
	wl_footprint(&w, bicg_footprint_bytes(pb.nx, pb.ny));
	uvmemu_report_value("nx", pb.nx);
	uvmemu_report_value("ny", pb.ny);
	wl_log(&w, "nx %d, ny %d: 2 launches of %d and %d CTAs of %d threads", pb.nx, pb.ny,
	       (pb.ny + BICG_BLOCK - 1) / BICG_BLOCK, (pb.nx + BICG_BLOCK - 1) / BICG_BLOCK,
	       BICG_BLOCK);

	bicg_generate(&pb, w.seed);
	/* The reference runs first, while the inputs are still where the CPU
	 * wrote them, so that it adds no traffic of its own. */
	s = malloc((size_t)pb.ny * sizeof(float));
	q = malloc((size_t)pb.nx * sizeof(float));
	if (!s || !q) {
		fprintf(stderr, "bicg: out of memory for the CPU reference\n");
		return 1;
	}
	bicg_reference(&pb, s, q);

	uvmemu_roi_begin();
	WL_CHECK(&w, bicg_gpu(&pb));
	uvmemu_roi_end();

	printf("bicg: checksums of s %.9g, q %.9g\n", wl_sum_f32(pb.s, (size_t)pb.ny),
	       wl_sum_f32(pb.q, (size_t)pb.nx));
	pass = wl_check_f32_exact(&w, "s", pb.s, s, (size_t)pb.ny);
	pass &= wl_check_f32_exact(&w, "q", pb.q, q, (size_t)pb.nx);
	wl_output_f32(&w, "s", pb.s, (size_t)pb.ny);
	wl_output_f32(&w, "q", pb.q, (size_t)pb.nx);
	free(s);
	free(q);
	WL_CHECK(&w, cudaFree(pb.A));
	WL_CHECK(&w, cudaFree(pb.r));
	WL_CHECK(&w, cudaFree(pb.p));
	WL_CHECK(&w, cudaFree(pb.s));
	WL_CHECK(&w, cudaFree(pb.q));
	return wl_finish(&w, pass);
}
