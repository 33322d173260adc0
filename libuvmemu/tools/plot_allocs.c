// SPDX-License-Identifier: MIT
/*
 * plot_allocs.c - access frequency per allocation: which data structures are
 * hot (dense, many accesses per block) and which cold (sparse, few), as the
 * adaptive-migration paper separates them for irregular workloads.
 *
 * accesses.csv gives, per launch, the blocks touched and how often; summed
 * over launches that is each block's count. Left: per allocation, its
 * blocks' counts in decreasing order against the fraction of the allocation
 * (a rank-frequency curve: flat for uniform use, steep for a few hot
 * blocks; where the curve stops, the rest was never touched). Right: mean
 * accesses per block of each allocation, with the share of blocks touched.
 * The counts come from far faults unless the executor counts accesses with
 * GMMU accessors (the source column); the titles say which.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define MAX_CURVES 12 /* allocations drawn as curves, the busiest first */

struct usage {
	const struct plot_alloc *a;
	uint64_t *count; /* per block of the allocation */
	uint64_t total, touched;
};

static int cmp_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_total(const void *x, const void *y)
{
	const struct usage *a = x, *b = y;

	return a->total < b->total ? 1 : a->total > b->total ? -1 : 0;
}

static int read_counts(struct usage *u, size_t n, const char *dir, bool *gmmu, bool *faults,
		       char *err, size_t len)
{
	static const char *const cols[] = {"alloc", "block", "accesses", "source"};
	struct plot_csv c;
	int idx[4], rc;

	if (plot_csv_open(&c, dir, "accesses.csv", err, len))
		return -1;
	if (plot_csv_need(&c, cols, idx, 4, err, len))
		goto fail;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		uint64_t id, b, k;
		struct usage *w = NULL;

		if (plot_csv_u64(&c, idx[0], &id, err, len) ||
		    plot_csv_u64(&c, idx[1], &b, err, len) ||
		    plot_csv_u64(&c, idx[2], &k, err, len))
			goto fail;
		for (size_t i = 0; i < n && !w; i++)
			if (u[i].a->id == id)
				w = &u[i];
		if (!w) {
			plot_csv_bad(&c, err, len, "an allocation with no row in allocations.csv");
			goto fail;
		}
		if (b < w->a->first_block || b >= w->a->first_block + w->a->blocks) {
			plot_csv_bad(&c, err, len, "a block outside its allocation");
			goto fail;
		}
		w->count[b - w->a->first_block] += k;
		w->total += k;
		if (strcmp(c.field[idx[3]], "gmmu") == 0)
			*gmmu = true;
		else
			*faults = true;
	}
	if (rc < 0)
		goto fail;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	return -1;
}

static int write_data(struct plot_job *j, struct usage *u, size_t n, char *err, size_t len)
{
	FILE *f = plot_job_create(j, "freq.dat", err, len);
	FILE *bars = f ? plot_job_create(j, "density.dat", err, len) : NULL;
	char label[80];

	if (!bars) {
		if (f)
			fclose(f);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct usage *w = &u[i];

		qsort(w->count, w->a->blocks, sizeof(*w->count), cmp_desc);
		/* Each block's step spans [r, r+1) / blocks; a last point closes
		 * the final step, so the curve ends at the fraction touched. */
		for (uint64_t r = 0; r < w->a->blocks && w->count[r]; r++)
			fprintf(f, "%.6g %" PRIu64 "\n", (double)r / (double)w->a->blocks,
				w->count[r]);
		if (w->touched)
			fprintf(f, "%.6g %" PRIu64 "\n", (double)w->touched / (double)w->a->blocks,
				w->count[w->touched - 1]);
		fprintf(f, "\n\n"); /* one gnuplot index per allocation */
		plot_alloc_label(w->a, label, sizeof(label));
		for (char *p = label; *p; p++)
			if (*p == '"')
				*p = '\'';
		fprintf(bars, "%zu \"%s\" %.9g %.1f\n", i, label,
			w->a->blocks ? (double)w->total / (double)w->a->blocks : 0,
			w->a->blocks ? 100.0 * (double)w->touched / (double)w->a->blocks : 0);
	}
	if (plot_job_fclose(j, f, "freq.dat", err, len)) {
		fclose(bars);
		return -1;
	}
	return plot_job_fclose(j, bars, "density.dat", err, len);
}

static int write_body(struct plot_job *j, struct usage *u, size_t n, const char *dir,
		      const char *source, char *err, size_t len)
{
	FILE *gp = plot_job_create(j, "allocs.gp", err, len);
	char title[512], label[80];
	bool any = false;
	/* The bars' log axis starts below the smallest mean: with a
	 * prefetcher most blocks come unasked, and a mean under one access
	 * per block would fall below a fixed floor and leave gnuplot nothing
	 * to draw. */
	double low = 0.5;

	if (!gp)
		return -1;
	for (size_t i = 0; i < n; i++) {
		double half = u[i].a->blocks ? (double)u[i].total / (double)u[i].a->blocks / 2 : 0;

		any |= u[i].total > 0;
		if (half > 0 && half < low)
			low = half;
	}
	snprintf(title, sizeof(title),
		 "access frequency per allocation, %s (accesses.csv: %s)\nleft: blocks by "
		 "accesses, busiest first; right: mean accesses per block, %% of blocks touched",
		 dir, source);
	fprintf(gp, "reset\nset multiplot layout 1,2 title ");
	plot_gp_qstr(gp, title);
	fprintf(gp, "\nset grid lc rgb '#e0e0e0'\nset key top right font ',9'\n");
	if (!any) {
		fprintf(gp, "set label 'no accesses recorded' at graph 0.5, graph 0.5 center\n"
			    "plot [0:1][0:1] NaN notitle\nunset label\nplot [0:1][0:1] NaN "
			    "notitle\nunset multiplot\n");
		return plot_job_fclose(j, gp, "allocs.gp", err, len);
	}
	fprintf(gp, "set xlabel 'fraction of the allocation (blocks, busiest first)'\n"
		    "set ylabel 'accesses per 64 KB block'\nset logscale y\n"
		    "set xrange [0:1]\nset yrange [0.7:*]\nplot ");
	for (size_t i = 0, drawn = 0; i < n && drawn < MAX_CURVES; i++) {
		if (!u[i].total)
			continue;
		fprintf(gp, "%s'freq.dat' index %zu using 1:2 with steps lw 2 title ",
			drawn ? ", " : "", i);
		plot_gp_str(gp, plot_alloc_label(u[i].a, label, sizeof(label)));
		drawn++;
	}
	fprintf(gp,
		"\nset xlabel ''\nset key off\n"
		"set ylabel 'mean accesses per block'\nset style fill solid 0.8 noborder\n"
		"set boxwidth 0.7\nset xtics rotate by 35 right font ',9'\n"
		"set xrange [-0.6:%zu.4]\nset yrange [%.6g:*]\nset offsets 0, 0, graph 0.12, 0\n"
		"plot 'density.dat' using 1:($3 > 0 ? $3 : NaN):xticlabels(2) with boxes "
		"lc rgb '#4e79a7', 'density.dat' using 1:($3 > 0 ? $3 : %.6g):(sprintf('%%.0f%%%%'"
		", $4)) with labels offset 0,0.8 font ',8'\nunset multiplot\n",
		n - 1, low, low);
	return plot_job_fclose(j, gp, "allocs.gp", err, len);
}

int plot_alloc_freq(struct plot_job *j, const char *dir, const char *outdir, char *err, size_t len)
{
	struct plot_allocs allocs;
	struct usage *u = NULL;
	bool gmmu = false, faults = false;
	char label[80];
	int rc = -1;

	if (plot_allocs_read(&allocs, dir, err, len))
		return -1;
	u = calloc(allocs.n ? allocs.n : 1, sizeof(*u));
	if (!u) {
		snprintf(err, len, "%s/accesses.csv: out of memory", dir);
		goto out;
	}
	for (size_t i = 0; i < allocs.n; i++) {
		u[i].a = &allocs.a[i];
		u[i].count = calloc(allocs.a[i].blocks ? allocs.a[i].blocks : 1, sizeof(uint64_t));
		if (!u[i].count) {
			snprintf(err, len, "%s/allocations.csv: allocation %u too large to count",
				 dir, allocs.a[i].id);
			goto out;
		}
	}
	if (read_counts(u, allocs.n, dir, &gmmu, &faults, err, len))
		goto out;
	for (size_t i = 0; i < allocs.n; i++)
		for (uint64_t b = 0; b < u[i].a->blocks; b++)
			u[i].touched += u[i].count[b] > 0;
	qsort(u, allocs.n, sizeof(*u), cmp_total);
	for (size_t i = 0; i < allocs.n; i++)
		printf("allocation %s: %" PRIu64 " blocks, %.1f%% touched, %.2f accesses/block\n",
		       plot_alloc_label(u[i].a, label, sizeof(label)), u[i].a->blocks,
		       u[i].a->blocks ? 100.0 * (double)u[i].touched / (double)u[i].a->blocks : 0,
		       u[i].a->blocks ? (double)u[i].total / (double)u[i].a->blocks : 0);
	if (write_data(j, u, allocs.n, err, len) ||
	    write_body(j, u, allocs.n, dir,
		       gmmu && faults ? "counted by GMMU accessors and far faults"
		       : gmmu	      ? "counted by GMMU accessors"
				      : "counted from far faults: a fault is one access",
		       err, len))
		goto out;
	rc = plot_job_render(j, "allocs.gp", outdir, "alloc_freq", 1400, 650, err, len);
out:
	for (size_t i = 0; u && i < allocs.n; i++)
		free(u[i].count);
	free(u);
	plot_allocs_free(&allocs);
	return rc;
}
