// SPDX-License-Identifier: MIT
/*
 * main.c - srad_v2 (Rodinia): speckle-reducing anisotropic diffusion on a
 * random image. Per iteration the host reads a region of J to get the speckle
 * scale, then two kernels update J. The result is checked bit for bit against
 * a CPU reference doing the same operations. The coefficient and the four
 * derivatives are managed, or with --scratch device in device memory
 * (cudaMalloc), where UVMSmart's port keeps them (us-srad_v2): J is then the
 * only managed array.
 */
#include "srad.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The original's run: a 2048 x 2048 image, region 0..127 x 0..127, lambda 0.5. */
#define SRAD_DEFAULT_N	  2048
#define SRAD_DEFAULT_LAST 127
/* Arrays per pixel: J, the coefficient and four derivatives. */
#define SRAD_ARRAYS 6

struct srad_opts {
	long long rows, cols, iterations;
	long long r1, r2, c1, c2;
	double lambda;
	const char *scratch;
	bool scratch_on_device;
};

/* Managed bytes per pixel: J, and the other five unless on the device. */
static size_t managed_per_pixel(const struct srad_opts *o)
{
	return (o->scratch_on_device ? 1 : SRAD_ARRAYS) * sizeof(float);
}

static void choose_size(const struct wl *w, struct srad_opts *o)
{
	if (strcmp(o->scratch, "managed") != 0 && strcmp(o->scratch, "device") != 0)
		wl_usage_error(w, "--scratch '%s': expected managed or device", o->scratch);
	o->scratch_on_device = strcmp(o->scratch, "device") == 0;
	if (w->footprint && (o->rows || o->cols))
		wl_usage_error(w, "--footprint sizes the image: it excludes --rows and --cols");
	if (w->footprint) {
		double pixels = (double)w->footprint / (double)managed_per_pixel(o);

		/* Square as near as multiples of 16 allow; the rows take up
		 * what rounding the columns left over. */
		o->cols = wl_round_nearest(sqrt(pixels), SRAD_BLOCK);
		o->rows = wl_round_nearest(pixels / (double)o->cols, SRAD_BLOCK);
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

/* C and the derivatives: managed (wl_managed, so --mem applies), or device
 * memory as UVMSmart has them. */
static void scratch_alloc(const struct wl *w, struct srad_data *d, size_t bytes, bool on_device)
{
	float **arrays[] = {&d->c, &d->de, &d->dw, &d->ds, &d->dn};
	const char *names[] = {"C", "E_C", "W_C", "S_C", "N_C"};

	d->scratch_on_device = on_device;
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		if (on_device)
			WL_CHECK(w, cudaMalloc((void **)arrays[i], bytes));
		else
			*arrays[i] = wl_managed(w, bytes, names[i]);
	}
}

static void scratch_free(const struct wl *w, struct srad_data *d)
{
	float *arrays[] = {d->c, d->de, d->dw, d->ds, d->dn};

	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		if (d->scratch_on_device)
			WL_CHECK(w, cudaFree(arrays[i]));
		else
			wl_free(w, arrays[i]);
	}
}

int main(int argc, char **argv)
{
	struct wl w;
	struct srad_opts o = {
	    .iterations = 10, .r2 = -1, .c2 = -1, .lambda = 0.5, .scratch = "managed"};
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
	    {"scratch", WL_STR, &o.scratch, 0, 0,
	     "where the coefficient and derivatives live: managed (default) or device "
	     "(cudaMalloc)"},
	    WL_OPT_MEM(&w),
	    {0},
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
	scratch_alloc(&w, &d, bytes, o.scratch_on_device);
	/* No hint suits it (--mem advise): J is read and written by both
	 * sides, the rest by the GPU alone, where it stays anyway. */
	wl_footprint(&w, n * managed_per_pixel(&o));
	uvmemu_report_value("rows", rows);
	uvmemu_report_value("cols", cols);
	uvmemu_report_value("iterations", (double)o.iterations);
	wl_log(&w,
	       "image %d x %d, region %d..%d x %d..%d, lambda %g, %lld iterations: %lld "
	       "launches",
	       rows, cols, roi.r1, roi.r2, roi.c1, roi.c2, o.lambda, o.iterations,
	       2 * o.iterations);
	if (o.scratch_on_device)
		wl_log(&w, "C and the derivatives in device memory: %zu bytes", 5 * bytes);

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
	scratch_free(&w, &d);
	return wl_finish(&w, pass);
}
