// SPDX-License-Identifier: MIT
/*
 * main.c - us-stencil: Parboil's stencil as UVMSmart runs it
 * (benchmarks/Managed/stencil/main.cu, run: main 512x512x64x100.bin 512 512
 * 64 10). Two managed volumes that the host fills with the same input, as the
 * original reads its file into both; 10 launches, ping-pong. The result is
 * checked bit for bit against the same float operations on the CPU.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stencil.h"

#define US_STENCIL_NX	  512
#define US_STENCIL_NY	  512
#define US_STENCIL_NZ	  64
#define US_STENCIL_ITERS  10
#define US_STENCIL_MAX_XY (1 << 16)

/*
 * A generated volume where the original reads Parboil's 512x512x64x100.bin:
 * uniform in [0, 1) from the seed, the same values into both buffers (the
 * original clears the second, then reads the file into each).
 */
static void generate(uint64_t seed, float *a0, float *a1, size_t n)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	memset(a1, 0, n * sizeof(float));
	wl_rng_fill_unit(&rng, a0, n);
	memcpy(a1, a0, n * sizeof(float));
}

/* The same time steps one cell at a time; returns the buffer (0 or 1) with
 * the result. Cells on the volume's faces are never written, as in the
 * kernel: both buffers keep their input there. */
static int reference(float *b[2], int nx, int ny, int nz, int iterations)
{
	const float c0 = us_stencil_c0(), c1 = us_stencil_c1();
	int cur = 0;

	for (int t = 0; t < iterations; t++, cur = 1 - cur) {
		const float *a = b[cur];
		float *next = b[1 - cur];

		for (int k = 1; k < nz - 1; k++)
			for (int j = 1; j < ny - 1; j++)
				for (int i = 1; i < nx - 1; i++)
					next[us_stencil_at(nx, ny, i, j, k)] = us_stencil_cell(
					    a[us_stencil_at(nx, ny, i - 1, j, k)],
					    a[us_stencil_at(nx, ny, i + 1, j, k)],
					    a[us_stencil_at(nx, ny, i, j + 1, k)],
					    a[us_stencil_at(nx, ny, i, j - 1, k)],
					    a[us_stencil_at(nx, ny, i, j, k + 1)],
					    a[us_stencil_at(nx, ny, i, j, k - 1)],
					    a[us_stencil_at(nx, ny, i, j, k)], c0, c1);
	}
	return cur;
}

int main(int argc, char **argv)
{
	long long nx = 0, ny = 0, nz = US_STENCIL_NZ, iterations = US_STENCIL_ITERS;
	const struct wl_opt opts[] = {
	    {"nx", WL_INT, &nx, 3, US_STENCIL_MAX_XY, "cells along x (default 512)"},
	    {"ny", WL_INT, &ny, 3, US_STENCIL_MAX_XY, "cells along y (default 512)"},
	    {"nz", WL_INT, &nz, 3, 1 << 16, "cells along z (default 64)"},
	    {"iterations", WL_INT, &iterations, 1, 1 << 20,
	     "time steps, one launch each (default 10)"},
	    {0},
	};
	float *a[2], *ref[2];
	size_t n;
	int out, want;
	struct wl w;
	bool pass;

	wl_init(&w, "us-stencil", "Parboil's 7-point stencil as UVMSmart runs it", argc, argv,
		opts);
	if (w.footprint && (nx || ny))
		wl_usage_error(&w, "--footprint sizes x and y: it excludes --nx and --ny");
	if (w.footprint) {
		/* Square planes of --nz: 8 nx ny nz bytes. */
		nx = ny = llround(sqrt((double)w.footprint / (2.0 * sizeof(float) * (double)nz)));
		if (nx < 3 || nx > US_STENCIL_MAX_XY)
			wl_usage_error(&w,
				       "--footprint %llu gives %lld x %lld x %lld cells; x and y "
				       "must be 3 to %d",
				       (unsigned long long)w.footprint, nx, ny, nz,
				       US_STENCIL_MAX_XY);
	}
	if (!nx)
		nx = US_STENCIL_NX;
	if (!ny)
		ny = US_STENCIL_NY;
	if (nx * ny * nz > INT32_MAX)
		wl_usage_error(&w,
			       "%lld x %lld x %lld cells: more than 2^31 - 1, which the "
			       "original's int indices do not reach",
			       nx, ny, nz);
	n = (size_t)(nx * ny * nz);

	a[0] = wl_managed(&w, n * sizeof(float), "A0");
	a[1] = wl_managed(&w, n * sizeof(float), "Anext");
	wl_footprint(&w, 2 * n * sizeof(float));
	uvmemu_report_value("nx", (double)nx);
	uvmemu_report_value("ny", (double)ny);
	uvmemu_report_value("nz", (double)nz);
	wl_log(&w, "%lld x %lld x %lld cells, %lld time steps: %lld launches of %lld x %lld CTAs",
	       nx, ny, nz, iterations, iterations,
	       (nx + 2 * US_STENCIL_TX - 1) / (2 * US_STENCIL_TX),
	       (ny + US_STENCIL_TY - 1) / US_STENCIL_TY);

	generate(w.seed, a[0], a[1], n);
	/* On copies, before the run, while the input is where the host wrote
	 * it, so that the check adds no traffic to the run. */
	ref[0] = malloc(n * sizeof(float));
	ref[1] = malloc(n * sizeof(float));
	if (!ref[0] || !ref[1]) {
		fprintf(stderr, "us-stencil: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(ref[0], a[0], n * sizeof(float));
	memcpy(ref[1], a[1], n * sizeof(float));
	want = reference(ref, (int)nx, (int)ny, (int)nz, (int)iterations);

	uvmemu_roi_begin();
	out = us_stencil_run_gpu(&w, a, (int)nx, (int)ny, (int)nz, (int)iterations);
	uvmemu_roi_end();

	pass = wl_check_f32_exact(&w, "A", a[out], ref[want], n);
	wl_output_f32(&w, "A", a[out], n);
	free(ref[0]);
	free(ref[1]);
	WL_CHECK(&w, cudaFree(a[0]));
	WL_CHECK(&w, cudaFree(a[1]));
	return wl_finish(&w, pass);
}
