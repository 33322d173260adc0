// SPDX-License-Identifier: MIT
/*
 * main.c - gaussian (Rodinia): solves A x = b by forward elimination on the
 * device (Fan1 and Fan2 per step, 2 (N - 1) launches over a shrinking
 * region) and back substitution on the host, which reads the eliminated
 * matrix from managed memory. a, m, b and x are checked bit for bit against
 * a CPU reference doing the same float operations.
 */
#include "gaussian.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GAUSS_DEFAULT_N 1024

/* The n whose managed arrays (8 n^2 + 4 n bytes) come closest to `bytes`. */
static int size_for_footprint(const struct wl *w, uint64_t bytes)
{
	/* Solve 8 n^2 + 4 n = bytes, then take the better neighbour. */
	double r = (-4.0 + sqrt(16.0 + 32.0 * (double)bytes)) / 16.0;
	long long n = (long long)r;

	if (bytes < gauss_footprint_bytes(2))
		wl_usage_error(w, "--footprint %llu: below the smallest system (2 x 2, %llu bytes)",
			       (unsigned long long)bytes,
			       (unsigned long long)gauss_footprint_bytes(2));
	if (n < 2)
		n = 2;
	if (llabs((long long)gauss_footprint_bytes((uint64_t)n + 1) - (long long)bytes) <
	    llabs((long long)gauss_footprint_bytes((uint64_t)n) - (long long)bytes))
		n++;
	if (n > GAUSS_MAX_N)
		wl_usage_error(w,
			       "--footprint %llu: above the largest system (%d x %d, %llu bytes)",
			       (unsigned long long)bytes, GAUSS_MAX_N, GAUSS_MAX_N,
			       (unsigned long long)gauss_footprint_bytes(GAUSS_MAX_N));
	return (int)n;
}

int main(int argc, char **argv)
{
	long long size = 0, steps = -1;
	const struct wl_opt opts[] = {
	    {"size", WL_INT, &size, 2, GAUSS_MAX_N,
	     "unknowns N: an N x N system, the original's -s (default 1024)"},
	    {"steps", WL_INT, &steps, 0, GAUSS_MAX_N,
	     "elimination steps to run, at most N - 1 (default N - 1, the whole elimination)"},
	    {0},
	};
	struct gauss_data d;
	struct wl w;
	float *ra, *rm, *rb, *x, *rx, *result;
	size_t nn, bytes;
	double sum = 0;
	bool pass, whole;
	int n;

	wl_init(&w, "gaussian", "Rodinia gaussian: Gaussian elimination, Fan1/Fan2 per step", argc,
		argv, opts);
	if (w.footprint && size)
		wl_usage_error(&w, "--footprint and --size both set the system size; give one");
	n = w.footprint ? size_for_footprint(&w, w.footprint)
			: (size ? (int)size : GAUSS_DEFAULT_N);
	if (steps < 0)
		steps = n - 1;
	if (steps > n - 1)
		wl_usage_error(&w, "--steps %lld: a %d x %d system has %d elimination steps", steps,
			       n, n, n - 1);
	whole = steps == n - 1;
	nn = (size_t)n;
	bytes = nn * nn * sizeof(float);
	d.a = wl_managed(&w, bytes, "a");
	d.m = wl_managed(&w, bytes, "m");
	d.b = wl_managed(&w, nn * sizeof(float), "b");
	wl_footprint(&w, gauss_footprint_bytes(nn));
	uvmemu_report_value("size", n);
	uvmemu_report_value("steps", (double)steps);
	wl_log(&w, "%d x %d system, %lld elimination steps: %lld launches", n, n, steps, 2 * steps);

	gauss_generate(w.seed, d.a, d.b, n);
	/* The original's InitPerRun: the host zeroes the multipliers. */
	memset(d.m, 0, bytes);

	/* The reference runs first, on copies, while the inputs are still where
	 * the CPU wrote them, so that it adds no traffic of its own. */
	ra = malloc(bytes);
	rm = calloc(nn * nn, sizeof(float));
	rb = malloc(nn * sizeof(float));
	rx = malloc(nn * sizeof(float));
	x = malloc(nn * sizeof(float));
	if (!ra || !rm || !rb || !rx || !x) {
		fprintf(stderr, "gaussian: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(ra, d.a, bytes);
	memcpy(rb, d.b, nn * sizeof(float));
	gauss_reference(ra, rm, rb, n, (int)steps);
	if (whole)
		gauss_back_substitute(ra, rb, rx, n);

	uvmemu_roi_begin();
	gauss_run_gpu(&w, &d, n, (int)steps);
	/* The host reads the eliminated system from managed memory. */
	if (whole)
		gauss_back_substitute(d.a, d.b, x, n);
	uvmemu_roi_end();

	/* After a partial elimination there is no solution yet: b, the
	 * eliminated right-hand side, is the result. */
	result = whole ? x : d.b;
	for (size_t i = 0; i < nn; i++)
		sum += result[i];
	wl_log(&w, "%s[0] = %.9g, %s[%d] = %.9g, sum = %.9g", whole ? "x" : "b", result[0],
	       whole ? "x" : "b", n - 1, result[n - 1], sum);
	pass = wl_check_f32_exact(&w, "m", d.m, rm, nn * nn);
	pass &= wl_check_f32_exact(&w, "a", d.a, ra, nn * nn);
	pass &= wl_check_f32_exact(&w, "b", d.b, rb, nn);
	if (whole)
		pass &= wl_check_f32_exact(&w, "x", x, rx, nn);
	wl_output_f32(&w, whole ? "x" : "b", result, nn);
	free(ra);
	free(rm);
	free(rb);
	free(rx);
	free(x);
	WL_CHECK(&w, cudaFree(d.a));
	WL_CHECK(&w, cudaFree(d.m));
	WL_CHECK(&w, cudaFree(d.b));
	return wl_finish(&w, pass);
}
