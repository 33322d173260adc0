// SPDX-License-Identifier: MIT
/*
 * main.c - gauss-seidel: red-black Gauss-Seidel relaxation of a 2-D Poisson
 * problem in managed memory, one launch per colour per iteration. The grid
 * is checked bit for bit against a CPU reference doing the same sweeps.
 */
#include "gs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GS_DEFAULT_N	      4096
#define GS_DEFAULT_ITERATIONS 10

int main(int argc, char **argv)
{
	long long n = 0, iterations = GS_DEFAULT_ITERATIONS;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 3, GS_MAX_N, "grid side, boundary included (default 4096)"},
	    {"iterations", WL_INT, &iterations, 1, 1 << 20,
	     "red-black iterations, two launches each (default 10)"},
	    {0},
	};
	struct wl w;
	float *u, *h2f, *ref;
	size_t nn, bytes;
	bool pass;

	wl_init(&w, "gauss-seidel", "red-black Gauss-Seidel relaxation of a 2-D Poisson problem",
		argc, argv, opts);
	if (w.footprint && n)
		wl_usage_error(&w, "--footprint and --n both set the grid size; give one");
	if (w.footprint) {
		/* u and h^2 f: 8 n^2 bytes. */
		n = llround(sqrt((double)w.footprint / (2 * sizeof(float))));
		if (n < 3 || n > GS_MAX_N)
			wl_usage_error(&w, "--footprint %llu: the grid side must be 3 to %d",
				       (unsigned long long)w.footprint, GS_MAX_N);
	}
	if (!n)
		n = GS_DEFAULT_N;
	nn = (size_t)n;
	bytes = nn * nn * sizeof(float);
	u = wl_managed(&w, bytes, "u");
	h2f = wl_managed(&w, bytes, "h2f");
	wl_footprint(&w, 2 * bytes);
	uvmemu_report_value("n", (double)n);
	uvmemu_report_value("iterations", (double)iterations);
	wl_log(&w, "grid %lld x %lld, %lld iterations: %lld launches", n, n, iterations,
	       2 * iterations);

	gs_generate(w.seed, u, h2f, (int)n);
	/* The reference runs first, on a copy, while the grid is still where
	 * the CPU wrote it, so that it adds no traffic of its own. */
	ref = malloc(bytes);
	if (!ref) {
		fprintf(stderr, "gauss-seidel: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(ref, u, bytes);
	gs_reference(ref, h2f, (int)n, (int)iterations);

	uvmemu_roi_begin();
	gs_run_gpu(&w, u, h2f, (int)n, (int)iterations);
	uvmemu_roi_end();

	wl_log(&w, "residual (rms of h^2 (f + lap u)) = %.9g", gs_residual(u, h2f, (int)n));
	pass = wl_check_f32_exact(&w, "u", u, ref, nn * nn);
	wl_output_f32(&w, "u", u, nn * nn);
	free(ref);
	WL_CHECK(&w, cudaFree(u));
	WL_CHECK(&w, cudaFree(h2f));
	return wl_finish(&w, pass);
}
