/* SPDX-License-Identifier: MIT */
/*
 * plot.h - `uvmemu plot`: figures from a run's traces (the CSVs of a --trace directory) and from
 * reports (--compare), drawn by gnuplot.
 *
 * One file per job: plot.c parses the command line and runs the figures,
 * plot_csv.c reads the trace CSVs, plot_json.c reads reports, plot_gp.c owns
 * the temporary directory and runs gnuplot, and one file per figure
 * (plot_access.c, plot_batches.c, plot_allocs.c, plot_compare.c) turns its
 * input into data files and a script.
 *
 * Errors: every function that can fail returns 0 or -1 and leaves a one-line
 * message in the caller's buffer (PLOT_ERRLEN), naming the file at fault.
 * The command prints it and exits 2 for bad input, 1 when gnuplot fails.
 */
#ifndef UVM_PLOT_H
#define UVM_PLOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "grow.h"

#define PLOT_ERRLEN (2 * PATH_MAX + 512) /* room for two paths and a reason */

/* ------------------------------------------------------------------- CSV */

#define PLOT_CSV_MAXCOLS 96

/*
 * A trace CSV: a header line of column names, then rows with exactly as many
 * comma-separated fields (the trace writer never quotes; it replaces commas
 * in names). Rows are read one at a time into a reused line buffer.
 */
struct plot_csv {
	FILE *f;
	char path[PATH_MAX];
	char *line, *header;
	size_t cap;
	unsigned long lineno;
	int ncols;
	char *name[PLOT_CSV_MAXCOLS];  /* into header */
	char *field[PLOT_CSV_MAXCOLS]; /* into line, valid until the next row */
};

/* Opens DIR/NAME (or NAME when dir is NULL) and reads its header. */
int plot_csv_open(struct plot_csv *c, const char *dir, const char *name, char *err, size_t len);
void plot_csv_close(struct plot_csv *c);
/* Index of a column, -1 when the header lacks it. */
int plot_csv_col(const struct plot_csv *c, const char *name);
/* Indexes of n columns the caller cannot do without: an error names the first missing. */
int plot_csv_need(const struct plot_csv *c, const char *const *names, int *idx, int n, char *err,
		  size_t len);
/* Next row: 1, 0 at the end, -1 on a malformed row. */
int plot_csv_next(struct plot_csv *c, char *err, size_t len);
/* Field `col` of the current row as a number: hexadecimal (0x...) and
 * decimal integers, and decimal fractions. */
int plot_csv_num(const struct plot_csv *c, int col, double *out, char *err, size_t len);
int plot_csv_u64(const struct plot_csv *c, int col, uint64_t *out, char *err, size_t len);
/*
 * Reads DIR/NAME (NAME when dir is NULL) row by row: finds the n columns of
 * need (an error names the first missing), then calls row for each row with
 * their indexes. row returns 0, or -1 with a message in err (plot_csv_bad),
 * which stops the reading. Returns 0 or -1.
 */
typedef int (*plot_csv_row_fn)(const struct plot_csv *c, const int *idx, void *ctx, char *err,
			       size_t len);
int plot_csv_each(const char *dir, const char *name, const char *const *need, int n,
		  plot_csv_row_fn row, void *ctx, char *err, size_t len);
/* Reports a consistency error at the current row. */
int plot_csv_bad(const struct plot_csv *c, char *err, size_t len, const char *what);

/* ------------------------------------------------------------------ JSON */

/*
 * A report, flattened: every scalar under its path ("wall_s",
 * "config.migrate", "time_s.unmap", "allocations[2].name"). Numbers keep
 * their text as well, so labels show them as written.
 */
struct plot_json_value {
	char *key, *text; /* text: the string, or the number as written */
	double num;
	bool is_num;
};

struct plot_report {
	char path[PATH_MAX];
	struct plot_json_value *v;
	size_t n, cap;
};

/* Reads a uvmemu report (rejects JSON that is not one: no schema, config, wall_s). */
int plot_report_read(struct plot_report *r, const char *path, char *err, size_t len);
void plot_report_free(struct plot_report *r);
const struct plot_json_value *plot_report_get(const struct plot_report *r, const char *key);
/* A number the caller needs: an error names the report and the key. */
int plot_report_num(const struct plot_report *r, const char *key, double *out, char *err,
		    size_t len);
/* A string (or number as written); def when absent. */
const char *plot_report_str(const struct plot_report *r, const char *key, const char *def);

/* --------------------------------------------------------------- gnuplot */

#define PLOT_MAX_FIGURES 8

struct plot_figure {
	char body[64];	       /* script in tmp */
	char prefix[PATH_MAX]; /* absolute output path without extension */
	int width, height;
};

struct plot_job {
	char tmp[PATH_MAX];			  /* scripts and data files */
	struct plot_figure fig[PLOT_MAX_FIGURES]; /* queued until every input is read */
	int nfig;
	char gnuplot[PATH_MAX]; /* the gnuplot found in PATH */
	bool keep;		/* leave tmp behind (--keep) */
	int written;		/* output files reported so far */
	bool tool_failed;	/* gnuplot ran and failed (not the input's fault) */
};

/* Finds gnuplot (a clear error naming the package when it is missing) and
 * makes the temporary directory. */
int plot_job_open(struct plot_job *j, bool keep, char *err, size_t len);
void plot_job_close(struct plot_job *j);
/* Creates tmp/name for writing. */
FILE *plot_job_create(struct plot_job *j, const char *name, char *err, size_t len);
/*
 * Queues a figure: its body script `body` (already written to tmp) is drawn
 * once every input has been read, so bad input writes no figure at all.
 * outdir/out_prefix: the outputs without extension (out_prefix alone when
 * outdir is NULL).
 */
int plot_job_render(struct plot_job *j, const char *body, const char *outdir,
		    const char *out_prefix, int width, int height, char *err, size_t len);
/*
 * Draws the queued figures: per figure a script that sets the PNG terminal
 * and loads the body, then the same for SVG; runs gnuplot in tmp, checks
 * both outputs exist and are not empty, and prints their paths.
 */
int plot_job_flush(struct plot_job *j, char *err, size_t len);
/* Opens tmp/name for reading (a result gnuplot left there); NULL if absent. */
FILE *plot_job_open_result(struct plot_job *j, const char *name);
/* dir/name into out (name alone when dir is NULL); -1 when it does not fit. */
int plot_path(char *out, size_t size, const char *dir, const char *name);
/* Runs a gnuplot script in tmp without rendering (a fit); output to log. */
int plot_job_exec(struct plot_job *j, const char *script, char *err, size_t len);
/* Writes s as a gnuplot single-quoted string literal. */
void plot_gp_str(FILE *f, const char *s);
/* Writes s double-quoted, its line breaks as \n (titles of two lines). */
void plot_gp_qstr(FILE *f, const char *s);
/* Closes a script or data file; a failed write is an error naming it. */
int plot_job_fclose(struct plot_job *j, FILE *f, const char *name, char *err, size_t len);

/* `uvmemu plot ARGS`: argc/argv after the word plot; returns the exit status. */
int uvm_cmd_plot(int argc, char **argv);

/* --------------------------------------------------------------- figures */

/* allocations.csv: the allocations of a run, by id, with their last names. */
struct plot_alloc {
	uint32_t id;
	uint64_t first_block, blocks, bytes;
	char kind[16];
	char name[64];
};

struct plot_allocs {
	struct plot_alloc *a;
	size_t n, cap;
};

int plot_allocs_read(struct plot_allocs *out, const char *dir, char *err, size_t len);
void plot_allocs_free(struct plot_allocs *a);
/* "name" or "alloc N" when unnamed, into buf. */
const char *plot_alloc_label(const struct plot_alloc *a, char *buf, size_t len);

/* kernels.csv: launch begin and end times. */
struct plot_kernel {
	uint64_t launch;
	double begin, end;
	char name[48];
};

struct plot_kernels {
	struct plot_kernel *k;
	size_t n, cap;
};

int plot_kernels_read(struct plot_kernels *out, const char *dir, char *err, size_t len);
void plot_kernels_free(struct plot_kernels *k);

/* Each figure reads DIR's traces and writes DIR/<figure>.png and .svg. */
int plot_access_pattern(struct plot_job *j, const char *dir, const char *outdir, char *err,
			size_t len);
int plot_batches(struct plot_job *j, const char *dir, const char *outdir, char *err, size_t len);
/* After the figures are drawn: prints the batch cost fit gnuplot found. */
int plot_batches_fit_summary(struct plot_job *j, char *err, size_t len);
int plot_alloc_freq(struct plot_job *j, const char *dir, const char *outdir, char *err, size_t len);
/* DIR's CSVs as a timeline (core/timeline.h) into out, or DIR/timeline.json
 * when out is NULL and there is none yet. Needs no gnuplot. */
int plot_timeline(const char *dir, const char *out, char *err, size_t len);
/* Reports side by side into PREFIX.png and PREFIX.svg. */
int plot_compare(struct plot_job *j, char *const *paths, int n, const char *prefix, char *err,
		 size_t len);

#endif
