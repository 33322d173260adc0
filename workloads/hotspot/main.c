// SPDX-License-Identifier: MIT
/*
 * main.c - hotspot (Rodinia): transient thermal simulation of a chip, a
 * 5-point stencil on a temperature grid heated by a power grid, with
 * ping-pong temperature buffers. Inputs are generated from --seed or read
 * from Rodinia's files (--temp, --power); the result is checked bit for bit
 * against a CPU reference that does the same float operations.
 */
#include "hotspot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rodinia's input files are 512 x 512; that is the default grid. */
#define HS_DEFAULT_N 512
/* Bytes of managed memory per grid cell: two temperature buffers and power. */
#define HS_BYTES_PER_CELL (3 * sizeof(float))

struct hs_opts {
	long long rows, cols, iterations, pyramid;
	const char *temp_file, *power_file;
};

/* Picks the grid from the options: files, --footprint, or sizes. */
static void choose_size(const struct wl *w, struct hs_opts *o)
{
	if (!o->temp_file != !o->power_file)
		wl_usage_error(w, "--temp and --power go together");
	if (w->footprint && (o->rows || o->cols || o->temp_file))
		wl_usage_error(w, "--footprint sizes the grid: it excludes --rows, --cols and "
				  "--temp/--power");
	if (w->footprint) {
		/* A square grid, as the original's: 12 bytes a cell. */
		long long n = llround(sqrt((double)w->footprint / HS_BYTES_PER_CELL));

		if (n < 1)
			wl_usage_error(w, "--footprint %llu is below one cell (%zu bytes)",
				       (unsigned long long)w->footprint, HS_BYTES_PER_CELL);
		o->rows = o->cols = n;
	}
	/* One side given: the grid is square, as the original's. */
	if (!o->rows)
		o->rows = o->cols;
	if (!o->cols)
		o->cols = o->rows;
	if (!o->rows && !o->temp_file)
		o->rows = o->cols = HS_DEFAULT_N;
	/* The kernel indexes rows and columns with int, as the original does. */
	if (o->rows * o->cols > (1ll << 31) - 1)
		wl_usage_error(w, "grid %lld x %lld has more than 2^31 - 1 cells", o->rows,
			       o->cols);
}

/* Reads both files into the managed grids; sets the size from the files when
 * --rows/--cols were not given (the grid is then square). */
static void read_inputs(const struct wl *w, struct hs_opts *o, float **temp, float **power)
{
	size_t expect = (size_t)(o->rows * o->cols);
	size_t nt, np;
	float *t = hs_read_grid(w, o->temp_file, expect, &nt);
	float *p;
	long long side = llround(sqrt((double)nt));

	if (!expect) {
		if (side * side != (long long)nt || nt > INT32_MAX)
			wl_usage_error(w,
				       "%s:%zu: %zu values do not make a square grid; give "
				       "--rows and --cols",
				       o->temp_file, nt, nt);
		o->rows = o->cols = side;
	}
	p = hs_read_grid(w, o->power_file, nt, &np);
	temp[0] = wl_managed(w, nt * sizeof(float), "temperature");
	temp[1] = wl_managed(w, nt * sizeof(float), "temperature (second buffer)");
	*power = wl_managed(w, nt * sizeof(float), "power");
	memcpy(temp[0], t, nt * sizeof(float));
	memcpy(*power, p, nt * sizeof(float));
	free(t);
	free(p);
}

int main(int argc, char **argv)
{
	struct wl w;
	struct hs_opts o = {.iterations = 20, .pyramid = 2};
	const struct wl_opt opts[] = {
	    {"rows", WL_INT, &o.rows, 1, 1 << 20, "grid rows (default 512)"},
	    {"cols", WL_INT, &o.cols, 1, 1 << 20, "grid columns (default: --rows)"},
	    {"iterations", WL_INT, &o.iterations, 1, 1 << 20, "time steps (default 20)"},
	    {"pyramid", WL_INT, &o.pyramid, 1, HS_BLOCK / 2 - 1,
	     "time steps per launch, 1-7 (default 2)"},
	    {"temp", WL_STR, &o.temp_file, 0, 0, "start temperature file (Rodinia format)"},
	    {"power", WL_STR, &o.power_file, 0, 0, "power file (Rodinia format)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	float *temp[2], *power, *ref, *scratch;
	struct hs_params params;
	size_t n;
	int rows, cols, iterations, pyramid, out;
	bool pass;

	wl_init(&w, "hotspot", "Rodinia hotspot: thermal stencil with a pyramid of time steps",
		argc, argv, opts);
	choose_size(&w, &o);
	if (o.temp_file) {
		read_inputs(&w, &o, temp, &power);
	} else {
		n = (size_t)(o.rows * o.cols);
		temp[0] = wl_managed(&w, n * sizeof(float), "temperature");
		temp[1] = wl_managed(&w, n * sizeof(float), "temperature (second buffer)");
		power = wl_managed(&w, n * sizeof(float), "power");
		hs_generate(w.seed, (int)o.rows, (int)o.cols, temp[0], power);
	}
	rows = (int)o.rows;
	cols = (int)o.cols;
	iterations = (int)o.iterations;
	pyramid = (int)o.pyramid;
	n = (size_t)rows * (size_t)cols;
	/* The kernels only read the power (--mem advise). */
	wl_advise(&w, power, n * sizeof(float), WL_READ_MOSTLY);
	wl_footprint(&w, 3 * n * sizeof(float));
	uvmemu_report_value("rows", rows);
	uvmemu_report_value("cols", cols);
	uvmemu_report_value("iterations", iterations);
	uvmemu_report_value("pyramid", pyramid);
	wl_log(&w, "grid %d x %d, %d time steps, %d per launch: %d launches", rows, cols,
	       iterations, pyramid, (iterations + pyramid - 1) / pyramid);

	/* The reference runs first, while the inputs are still where the CPU
	 * wrote them, so that it adds no traffic of its own. */
	hs_params_init(&params, rows, cols);
	ref = malloc(n * sizeof(float));
	scratch = malloc(n * sizeof(float));
	if (!ref || !scratch) {
		fprintf(stderr, "hotspot: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(ref, temp[0], n * sizeof(float));
	hs_reference(ref, scratch, power, rows, cols, iterations, &params);

	uvmemu_roi_begin();
	out = hs_run_gpu(&w, temp, power, rows, cols, iterations, pyramid, &params);
	uvmemu_roi_end();

	pass = wl_check_f32_exact(&w, "temperature", temp[out], ref, n);
	wl_output_f32(&w, "temperature", temp[out], n);
	free(ref);
	free(scratch);
	wl_free(&w, temp[0]);
	wl_free(&w, temp[1]);
	wl_free(&w, power);
	return wl_finish(&w, pass);
}
