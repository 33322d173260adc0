// SPDX-License-Identifier: MIT
/*
 * main.c - pathfinder (Rodinia): the cheapest path from the top row of a
 * grid of wall costs to each column of the bottom row, moving down one row
 * per step to the same or a neighbouring column. Integer results are checked
 * exactly against a CPU reference.
 */
#include "pathfinder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The original's run: 100000 columns, 100 rows, 20 rows per launch. */
#define PF_DEFAULT_COLS 100000
#define PF_DEFAULT_ROWS 100

struct pf_opts {
	long long cols, rows, pyramid;
};

/* Managed bytes: the wall below the first row and the two result rows. */
static uint64_t pf_bytes(long long rows, long long cols)
{
	return (uint64_t)cols * (uint64_t)(rows + 1) * sizeof(int);
}

static void choose_size(const struct wl *w, struct pf_opts *o)
{
	if (!o->rows)
		o->rows = PF_DEFAULT_ROWS;
	if (w->footprint) {
		/* The footprint widens the grid; the rows (and so the number
		 * of launches) stay as given. */
		if (o->cols)
			wl_usage_error(w, "--footprint sizes the columns: it excludes --cols");
		o->cols = llround((double)w->footprint / (double)pf_bytes(o->rows, 1));
		if (o->cols < 1)
			wl_usage_error(w, "--footprint %llu is below one column of %lld rows",
				       (unsigned long long)w->footprint, o->rows);
	}
	if (!o->cols)
		o->cols = PF_DEFAULT_COLS;
	if (o->cols * (o->rows - 1) > (1ll << 31) - 1)
		wl_usage_error(w, "grid %lld x %lld has more than 2^31 - 1 wall cells", o->rows,
			       o->cols);
}

int main(int argc, char **argv)
{
	struct pf_opts o = {.pyramid = 20};
	const struct wl_opt opts[] = {
	    {"cols", WL_INT, &o.cols, 1, 1 << 30, "columns (default 100000)"},
	    {"rows", WL_INT, &o.rows, 2, 1 << 20, "rows, the first one included (default 100)"},
	    {"pyramid", WL_INT, &o.pyramid, 1, PF_BLOCK / 2 - 1,
	     "rows per launch, 1-127 (default 20)"},
	    {0},
	};
	int *wall, *result[2], *ref, *scratch;
	struct wl w;
	int rows, cols, pyramid, out;
	bool pass;

	wl_init(&w, "pathfinder", "Rodinia pathfinder: dynamic programming down a grid", argc, argv,
		opts);
	choose_size(&w, &o);
	rows = (int)o.rows;
	cols = (int)o.cols;
	pyramid = (int)o.pyramid;
	wall = wl_managed(&w, (size_t)(rows - 1) * (size_t)cols * sizeof(int), "wall");
	result[0] = wl_managed(&w, (size_t)cols * sizeof(int), "result row");
	result[1] = wl_managed(&w, (size_t)cols * sizeof(int), "result row (second buffer)");
	wl_footprint(&w, pf_bytes(rows, cols));
	uvmemu_report_value("rows", rows);
	uvmemu_report_value("cols", cols);
	uvmemu_report_value("pyramid", pyramid);
	wl_log(&w, "grid %d rows x %d columns, %d rows per launch: %d launches", rows, cols,
	       pyramid, (rows - 1 + pyramid - 1) / pyramid);

	pf_generate(w.seed, result[0], wall, rows, cols);
	/* The reference runs first, while the inputs are still where the CPU
	 * wrote them, so that it adds no traffic of its own. */
	ref = malloc((size_t)cols * sizeof(int));
	scratch = malloc((size_t)cols * sizeof(int));
	if (!ref || !scratch) {
		fprintf(stderr, "pathfinder: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(ref, result[0], (size_t)cols * sizeof(int));
	pf_reference(wall, ref, scratch, rows, cols);

	uvmemu_roi_begin();
	out = pf_run_gpu(&w, wall, result, rows, cols, pyramid);
	uvmemu_roi_end();

	pass = wl_check_i32(&w, "last row", result[out], ref, (size_t)cols);
	wl_output_i32(&w, "last_row", result[out], (size_t)cols);
	free(ref);
	free(scratch);
	WL_CHECK(&w, cudaFree(wall));
	WL_CHECK(&w, cudaFree(result[0]));
	WL_CHECK(&w, cudaFree(result[1]));
	return wl_finish(&w, pass);
}
