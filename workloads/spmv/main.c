// SPDX-License-Identifier: MIT
/*
 * main.c - spmv (Parboil): y = A x in JDS, 50 launches. The matrix comes
 * from a Matrix Market file (--input) or the generator (--rows,
 * --footprint). The result is checked bit for bit against the JDS summed in
 * the kernel's order, and within float's summation bound against A x by
 * rows.
 */
#include "spmv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SPMV_DEFAULT_ROWS    131072
#define SPMV_DEFAULT_ROW_NNZ 16
#define SPMV_DEFAULT_REPS    50 /* Parboil's */
#define SPMV_MAX_ROWS	     (1 << 28)

struct spmv_opts {
	const char *input;
	long long rows, row_nnz, reps;
};

static void read_input(const struct wl *w, const char *path, struct mtx_matrix *m)
{
	char err[512];
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		wl_usage_error(w, "%s: cannot open: %s", path, strerror(errno));
	ret = mtx_read(f, path, m, err, sizeof(err));
	fclose(f);
	if (ret == -ENOMEM) {
		fprintf(stderr, "%s: %s\n", w->name, err);
		exit(1);
	}
	if (ret)
		wl_usage_error(w, "%s", err);
	printf("%s: matrix market: %d x %d, %lld entries, %s %s, %lld stored\n", w->name, m->rows,
	       m->cols, (long long)m->entries, mtx_field_name(m->field),
	       mtx_symmetry_name(m->symmetry), (long long)m->nnz);
}

/* The generated matrix's rows for a footprint: per row about row_nnz slots
 * of data and index, perm, x and y, and a slice's zcnt per 32 rows. */
static int32_t rows_for_footprint(const struct wl *w, uint64_t bytes, long long row_nnz)
{
	const double per_row = 8.0 * (double)row_nnz + 12.0 + 4.0 / SPMV_SLICE;
	double rows = (double)bytes / per_row + 0.5;

	if (rows < 1 || rows > SPMV_MAX_ROWS)
		wl_usage_error(w,
			       "--footprint %" PRIu64 ": outside spmv's range (1 to %d rows of "
			       "about %.0f bytes)",
			       bytes, SPMV_MAX_ROWS, per_row);
	return (int32_t)rows;
}

int main(int argc, char **argv)
{
	struct spmv_opts o = {.row_nnz = SPMV_DEFAULT_ROW_NNZ, .reps = SPMV_DEFAULT_REPS};
	const struct wl_opt opts[] = {
	    {"input", WL_STR, &o.input, 0, 0,
	     "Matrix Market file (coordinate; real, integer "
	     "or pattern; general or symmetric)"},
	    {"rows", WL_INT, &o.rows, 1, SPMV_MAX_ROWS,
	     "rows of the generated matrix (default "
	     "131072)"},
	    {"row-nnz", WL_INT, &o.row_nnz, 1, 1024, "mean entries per generated row (default 16)"},
	    {"reps", WL_INT, &o.reps, 1, 100000, "launches (default 50, Parboil's)"},
	    {0},
	};
	struct mtx_matrix m = {0};
	struct spmv_jds j;
	struct wl_rng r;
	struct wl w;
	float *ref;
	bool pass;

	wl_init(&w, "spmv", "Parboil spmv: sparse matrix-vector product in JDS, 50 launches", argc,
		argv, opts);
	if (!!o.input + !!o.rows + !!w.footprint > 1)
		wl_usage_error(&w, "--input, --rows and --footprint each choose the matrix; give "
				   "one");
	if (o.input) {
		read_input(&w, o.input, &m);
	} else {
		int32_t rows = o.rows	     ? (int32_t)o.rows
			       : w.footprint ? rows_for_footprint(&w, w.footprint, o.row_nnz)
					     : SPMV_DEFAULT_ROWS;

		spmv_generate(&w, &m, rows, (int)o.row_nnz, w.seed);
	}
	spmv_jds_build(&w, &m, &j);
	wl_footprint(&w, spmv_footprint_bytes(&m));
	uvmemu_report_value("rows", j.rows);
	uvmemu_report_value("cols", j.cols);
	uvmemu_report_value("nnz", (double)m.nnz);
	uvmemu_report_value("jds_slots", (double)j.len);
	wl_log(&w,
	       "%d x %d, %lld entries, %d diagonals, %lld JDS slots: %lld launches of %d "
	       "CTAs of %d threads",
	       j.rows, j.cols, (long long)m.nnz, j.diags, (long long)j.len, o.reps, j.slices,
	       SPMV_SLICE);

	/* x from its own stream, so that it does not depend on the matrix's
	 * origin. */
	wl_rng_seed(&r, w.seed ^ 0x78ull);
	for (int32_t c = 0; c < j.cols; c++)
		j.x[c] = (float)wl_rng_unit(&r);
	/* The reference runs first, while the inputs are still where the CPU
	 * wrote them, so that it adds no traffic of its own. */
	ref = malloc((size_t)j.rows * sizeof(float));
	if (!ref) {
		fprintf(stderr, "spmv: out of memory for the CPU reference\n");
		return 1;
	}
	spmv_reference(&j, ref);

	uvmemu_roi_begin();
	spmv_run_gpu(&w, &j, (int)o.reps);
	uvmemu_roi_end();

	printf("spmv: checksum of y %.9g\n", wl_sum_f32(j.y, (size_t)j.rows));
	pass = wl_check_f32_exact(&w, "y", j.y, ref, (size_t)j.rows);
	pass &= spmv_check_csr(&w, &m, j.x, j.y);
	/* x too, so that a user can check y = A x against the input file. */
	wl_output_f32(&w, "x", j.x, (size_t)j.cols);
	wl_output_f32(&w, "y", j.y, (size_t)j.rows);
	free(ref);
	mtx_free(&m);
	spmv_jds_free(&w, &j);
	return wl_finish(&w, pass);
}
