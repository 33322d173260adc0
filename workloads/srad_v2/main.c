// SPDX-License-Identifier: MIT
/*
 * main.c - srad_v2 (Rodinia): speckle-reducing anisotropic diffusion on a
 * random image. Per iteration the host reads a region of J to get the speckle
 * scale, then two kernels update J. The result is checked bit for bit against
 * a CPU reference doing the same operations.
 */
#include "srad.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The original's run: a 2048 x 2048 image, region 0..127 x 0..127, lambda 0.5. */
#define SRAD_DEFAULT_N	  2048
#define SRAD_DEFAULT_LAST 127
/* Managed bytes per pixel: J, the coefficient and four derivatives. */
#define SRAD_BYTES_PER_PIXEL (6 * sizeof(float))

struct srad_opts {
	long long rows, cols, iterations;
	long long r1, r2, c1, c2;
	double lambda;
};

static long long round16(double x)
{
	long long v = llround(x / SRAD_BLOCK) * SRAD_BLOCK;

	return v < SRAD_BLOCK ? SRAD_BLOCK : v;
}

static void choose_size(const struct wl *w, struct srad_opts *o)
{
	if (w->footprint && (o->rows || o->cols))
		wl_usage_error(w, "--footprint sizes the image: it excludes --rows and --cols");
	if (w->footprint) {
		double pixels = (double)w->footprint / SRAD_BYTES_PER_PIXEL;

		/* Square as near as multiples of 16 allow; the rows take up
		 * what rounding the columns left over. */
		o->cols = round16(sqrt(pixels));
		o->rows = round16(pixels / (double)o->cols);
	}
	if (!o->rows)
		o->rows = o->cols ? o->cols : SRAD_DEFAULT_N;
	if (!o->cols)
		o->cols = o->rows;
	if (o->rows % SRAD_BLOCK || o->cols % SRAD_BLOCK)
		wl_usage_error(w, "--rows %lld --cols %lld: both must be multiples of %d", o->rows,
			       o->cols, SRAD_BLOCK);
	if (!(o->lambda > 0 && o->lambda <= 1))
		wl_usage_error(w, "--lambda %g: expected a number in (0, 1]", o->lambda);
	if (o->rows * o->cols > (1ll << 31) - 1)
		wl_usage_error(w, "image %lld x %lld has more than 2^31 - 1 pixels", o->rows,
			       o->cols);
	/* Not given: the original's region, cut to a smaller image. */
	if (o->r2 < 0)
		o->r2 = o->rows - 1 < SRAD_DEFAULT_LAST ? o->rows - 1 : SRAD_DEFAULT_LAST;
	if (o->c2 < 0)
		o->c2 = o->cols - 1 < SRAD_DEFAULT_LAST ? o->cols - 1 : SRAD_DEFAULT_LAST;
	if (o->r1 > o->r2 || o->r2 >= o->rows || o->c1 > o->c2 || o->c2 >= o->cols)
		wl_usage_error(w,
			       "region rows %lld..%lld, columns %lld..%lld does not fit the "
			       "%lld x %lld image (need r1 <= r2 < rows, c1 <= c2 < cols)",
			       o->r1, o->r2, o->c1, o->c2, o->rows, o->cols);
}

int main(int argc, char **argv)
{
	struct wl w;
	struct srad_opts o = {.iterations = 10, .r2 = -1, .c2 = -1, .lambda = 0.5};
	const struct wl_opt opts[] = {
	    {"rows", WL_INT, &o.rows, SRAD_BLOCK, 1 << 20,
	     "image rows, a multiple of 16 (default 2048)"},
	    {"cols", WL_INT, &o.cols, SRAD_BLOCK, 1 << 20,
	     "image columns, a multiple of 16 (default: --rows)"},
	    {"r1", WL_INT, &o.r1, 0, 1 << 20, "first row of the speckle region (default 0)"},
	    {"r2", WL_INT, &o.r2, 0, 1 << 20,
	     "last row of the speckle region (default 127, or the last row)"},
	    {"c1", WL_INT, &o.c1, 0, 1 << 20, "first column of the speckle region (default 0)"},
	    {"c2", WL_INT, &o.c2, 0, 1 << 20,
	     "last column of the speckle region (default 127, or the last column)"},
	    {"lambda", WL_DOUBLE, &o.lambda, 0, 0, "update step, in (0, 1] (default 0.5)"},
	    {"iterations", WL_INT, &o.iterations, 1, 1 << 20, "iterations (default 10)"},
	    WL_OPT_MEM(&w),
	    {NULL},
	};
	struct srad_data d;
	struct srad_roi roi;
	float *ref;
	size_t n, bytes;
	int rows, cols;
	bool pass;

	wl_init(&w, "srad_v2", "Rodinia srad_v2: speckle-reducing anisotropic diffusion", argc,
		argv, opts);
	choose_size(&w, &o);
	rows = (int)o.rows;
	cols = (int)o.cols;
	roi = (struct srad_roi){(int)o.r1, (int)o.r2, (int)o.c1, (int)o.c2};
	n = (size_t)rows * (size_t)cols;
	bytes = n * sizeof(float);
	d.j = wl_managed(&w, bytes, "J");
	d.c = wl_managed(&w, bytes, "C");
	d.de = wl_managed(&w, bytes, "E_C");
	d.dw = wl_managed(&w, bytes, "W_C");
	d.ds = wl_managed(&w, bytes, "S_C");
	d.dn = wl_managed(&w, bytes, "N_C");
	/* No hint suits it (--mem advise): J is read and written by both
	 * sides, the rest by the GPU alone, where it stays anyway. */
	wl_footprint(&w, 6 * bytes);
	uvmemu_report_value("rows", rows);
	uvmemu_report_value("cols", cols);
	uvmemu_report_value("iterations", (double)o.iterations);
	wl_log(&w,
	       "image %d x %d, region %d..%d x %d..%d, lambda %g, %lld iterations: %lld "
	       "launches",
	       rows, cols, roi.r1, roi.r2, roi.c1, roi.c2, o.lambda, o.iterations,
	       2 * o.iterations);

	srad_generate(w.seed, d.j, n);
	/* The reference runs on a copy first, while J is still where the CPU
	 * wrote it, so that it adds no traffic of its own. */
	ref = malloc(bytes);
	if (!ref) {
		fprintf(stderr, "srad_v2: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(ref, d.j, bytes);
	if (srad_reference(ref, rows, cols, &roi, (float)o.lambda, (int)o.iterations)) {
		fprintf(stderr, "srad_v2: out of memory for the CPU reference\n");
		return 1;
	}

	uvmemu_roi_begin();
	srad_run_gpu(&w, &d, rows, cols, &roi, (float)o.lambda, (int)o.iterations);
	uvmemu_roi_end();

	pass = wl_check_f32_exact(&w, "J", d.j, ref, n);
	wl_output_f32(&w, "J", d.j, n);
	free(ref);
	wl_free(&w, d.j);
	wl_free(&w, d.c);
	wl_free(&w, d.de);
	wl_free(&w, d.dw);
	wl_free(&w, d.ds);
	wl_free(&w, d.dn);
	return wl_finish(&w, pass);
}
