// SPDX-License-Identifier: MIT
/*
 * main.c - fft-1d (one large 1-D complex FFT in Stockham passes, cuFFT's
 * access pattern): options and sizes, then generate, compute the CPU
 * reference (itself checked against the DFT's definition), run the forward
 * and inverse passes (the region of interest), and check the result bit for
 * bit.
 */
#include "fft1d.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define FFT1D_DEFAULT_LOG2 20 /* 2^20 points: 16 MB, passes 256 x 256 x 16 */
#define FFT1D_POINT_BYTES  (2 * sizeof(struct fft1d_c)) /* x and y: 16 bytes a point */

/* log2 N from --n or --footprint (the largest N with 16 N <= SIZE). */
static int size_log2(const struct wl *w, long long n)
{
	if (w->footprint && n)
		wl_usage_error(w, "give --footprint or --n, not both");
	if (w->footprint) {
		const uint64_t points = w->footprint / FFT1D_POINT_BYTES;

		if (points < (1ull << FFT1D_MIN_LOG2) || points >= (2ull << FFT1D_MAX_LOG2))
			wl_usage_error(w,
				       "--footprint %" PRIu64
				       ": outside fft-1d's range (from 8 KiB, "
				       "below 64 GiB: 16 bytes a point, 2^9 to 2^31 points)",
				       w->footprint);
		return 63 - __builtin_clzll(points);
	}
	if (!n)
		return FFT1D_DEFAULT_LOG2;
	if (n < (1ll << FFT1D_MIN_LOG2) || n > (1ll << FFT1D_MAX_LOG2) || (n & (n - 1)))
		wl_usage_error(w,
			       "--n %lld: accepted values are the powers of two from 512 (2^9) to "
			       "2147483648 (2^31)",
			       n);
	return __builtin_ctzll((unsigned long long)n);
}

int main(int argc, char **argv)
{
	struct wl w;
	long long n = 0, iterations = 1;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, 0,
	     "points: a power of two from 512 (2^9) to 2^31 (default 1048576: 16 MB)"},
	    {"iterations", WL_INT, &iterations, 1, 100000,
	     "forward + inverse transforms (default 1)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	struct fft1d_c *x, *y, *tw, *a, *b;
	struct fft1d_plan plan;
	size_t points, bytes;
	bool pass;

	wl_init(&w, "fft-1d", "one large 1-D complex FFT in Stockham passes of radix 256", argc,
		argv, opts);
	fft1d_plan_init(&plan, size_log2(&w, n));
	points = (size_t)1 << plan.log2n;
	bytes = points * sizeof(struct fft1d_c);

	x = wl_managed(&w, bytes, "x");
	y = wl_managed(&w, bytes, "y");
	wl_footprint(&w, 2 * (uint64_t)bytes);
	uvmemu_report_value("n", (double)points);
	uvmemu_report_value("log2n", plan.log2n);
	uvmemu_report_value("passes", plan.passes);
	uvmemu_report_value("iterations", (double)iterations);
	wl_log(&w, "N = 2^%d points: %d passes a transform, %lld launches", plan.log2n, plan.passes,
	       2 * iterations * plan.passes);
	for (int i = 0; i < plan.passes; i++) {
		const struct fft1d_pass *ps = &plan.pass[i];

		wl_log(&w,
		       "pass %d: radix %u (%u x %u), L = %" PRIu64 ", inputs %" PRIu64
		       " points apart, %" PRIu64 " CTAs of %u columns",
		       i + 1, ps->r, ps->r1, ps->r2, ps->l, ps->cols, ps->cols / ps->c, ps->c);
	}

	tw = malloc(bytes);
	a = malloc(bytes);
	b = malloc(bytes);
	if (!tw || !a || !b) {
		fprintf(stderr, "fft-1d: out of memory for the twiddles and the CPU reference\n");
		return 1;
	}
	fft1d_twiddles_init(tw, points);
	fft1d_generate(x, points, w.seed);
	/* The reference runs first, while the input is still where the CPU
	 * wrote it, so that it adds no traffic of its own. */
	pass = fft1d_reference(&w, &plan, x, a, b, tw, (int)iterations);
	free(b);

	uvmemu_roi_begin();
	fft1d_run_gpu(&w, &plan, x, y, tw, (int)iterations);
	uvmemu_roi_end();

	printf("fft-1d: checksum of the result %.9g\n",
	       wl_sum_f32((const float *)(const void *)x, 2 * points));
	pass &= wl_check_f32_exact(&w, "result (re, im)", (const float *)(const void *)x,
				   (const float *)(const void *)a, 2 * points);
	wl_output_f32(&w, "result_re_im", (const float *)(const void *)x, 2 * points);
	free(a);
	free(tw);
	wl_free(&w, x);
	wl_free(&w, y);
	return wl_finish(&w, pass);
}
