// SPDX-License-Identifier: MIT
/*
 * plot_compare.c - runs side by side: normalised time, bytes moved and
 * thrashed blocks, one bar per report.
 *
 * The time is the region of interest on the run's clock: gpu_s (modelled,
 * the report's headline) under the model clock, roi_s (the host's wall
 * time) under the real clock, or wall_s for a report without roi_s. The
 * axis says which. The host's time under the model clock is the emulator's
 * cost, not the GPU's, so it is not what runs are compared by.
 *
 * A run is labelled by its program and by what sets it apart from the
 * others: the configuration options whose values differ between the reports
 * (output paths excluded: every run has its own), and for runs of the same
 * program the workload parameters that differ (problem size, updates).
 * The time is normalised to the first report of the same program and the
 * same clock, so a sweep over several workloads compares each with its own
 * baseline, and a modelled time is never divided by a host's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* Options that name where a run wrote its output, not how it ran. */
static const char *const not_labels[] = {"config.report",	"config.trace",
					 "config.record_trace", "config.summary",
					 "config.progress",	"config.trace_faults"};

struct run {
	struct plot_report r;
	const char *program; /* basename */
	char label[400];
	double time, norm, mib, thrashed;
	const char *figure; /* the report's key the time was read from */
	int verify;	    /* 1 pass, 0 none, -1 fail */
};

/* What each figure is, for the axis and the printed lines. */
enum { FIG_GPU, FIG_ROI, FIG_WALL, FIG_N };
static const char *const figure_key[FIG_N] = {"gpu_s", "roi_s", "wall_s"};
/* The terminal is noenhanced: an underscore is printed as it is. */
static const char *const figure_axis[FIG_N] = {"gpu_s (modelled)", "roi_s (host)", "wall_s (host)"};

static bool excluded(const char *key)
{
	for (size_t i = 0; i < sizeof(not_labels) / sizeof(not_labels[0]); i++)
		if (strcmp(key, not_labels[i]) == 0)
			return true;
	return false;
}

static bool same_text(const struct plot_report *a, const struct plot_report *b, const char *key)
{
	const struct plot_json_value *x = plot_report_get(a, key), *y = plot_report_get(b, key);

	if (!x || !y)
		return x == y;
	return strcmp(x->text, y->text) == 0;
}

/* Whether `key` differs between any two runs (among those of `program` when
 * it is not NULL). */
static bool differs(const struct run *runs, int n, const char *key, const char *program)
{
	const struct run *first = NULL;

	for (int i = 0; i < n; i++) {
		if (program && strcmp(runs[i].program, program))
			continue;
		if (!first)
			first = &runs[i];
		else if (!same_text(&first->r, &runs[i].r, key))
			return true;
	}
	return false;
}

static void append(char *buf, size_t len, const char *key, const char *value)
{
	size_t used = strlen(buf);

	if (used + 2 < len)
		snprintf(buf + used, len - used, " %s=%s", key, value);
}

static int label_runs(struct run *runs, int n, char *err, size_t len)
{
	const char **keys = NULL;
	size_t nkeys = 0, cap = 0;

	/* Every config and workload key of any report, once: a key that only
	 * some reports have differs too. */
	for (int k = 0; k < n; k++) {
		for (size_t v = 0; v < runs[k].r.n; v++) {
			const char *key = runs[k].r.v[v].key;
			const char **nk;
			bool seen = false;

			if ((strncmp(key, "config.", 7) && strncmp(key, "workload.", 9)) ||
			    excluded(key))
				continue;
			for (size_t e = 0; e < nkeys && !seen; e++)
				seen = strcmp(keys[e], key) == 0;
			if (seen)
				continue;
			nk = uvm_grow(keys, &cap, nkeys, sizeof(*keys), 64);
			if (!nk) {
				free(keys);
				snprintf(err, len, "out of memory labelling reports");
				return -1;
			}
			keys = nk;
			keys[nkeys++] = key;
		}
	}
	for (int i = 0; i < n; i++) {
		struct run *w = &runs[i];

		snprintf(w->label, sizeof(w->label), "%s", w->program);
		for (size_t e = 0; e < nkeys; e++) {
			bool workload = strncmp(keys[e], "workload.", 9) == 0;

			if (differs(runs, n, keys[e], workload ? w->program : NULL))
				append(w->label, sizeof(w->label), strchr(keys[e], '.') + 1,
				       plot_report_str(&w->r, keys[e], "-"));
		}
		if (w->verify < 0)
			append(w->label, sizeof(w->label), "verify", "FAIL");
	}
	free(keys);
	return 0;
}

static int read_run(struct run *w, const char *path, char *err, size_t len)
{
	double h2d, d2h;
	const char *prog, *verify;

	if (plot_report_read(&w->r, path, err, len))
		return -1;
	/* The model clock's headline is gpu_s; a real-clock report (or one
	 * from before the model clock, which names none) is timed by the
	 * host: roi_s, or wall_s where it has no region of interest. */
	if (strcmp(plot_report_str(&w->r, "clock", "real"), "model") == 0)
		w->figure = figure_key[FIG_GPU];
	else if (plot_report_get(&w->r, "roi_s"))
		w->figure = figure_key[FIG_ROI];
	else
		w->figure = figure_key[FIG_WALL];
	if (plot_report_num(&w->r, w->figure, &w->time, err, len) ||
	    plot_report_num(&w->r, "bytes_h2d", &h2d, err, len) ||
	    plot_report_num(&w->r, "bytes_d2h", &d2h, err, len) ||
	    plot_report_num(&w->r, "thrashed_blocks", &w->thrashed, err, len))
		return -1;
	w->mib = (h2d + d2h) / (1024.0 * 1024.0);
	prog = plot_report_str(&w->r, "program", "?");
	w->program = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
	verify = plot_report_str(&w->r, "verify", "none");
	w->verify = strcmp(verify, "pass") == 0 ? 1 : strcmp(verify, "fail") == 0 ? -1 : 0;
	return 0;
}

static int write_data(struct plot_job *j, struct run *runs, int n, char *err, size_t len)
{
	FILE *f = plot_job_create(j, "compare.dat", err, len);

	if (!f)
		return -1;
	for (int i = 0; i < n; i++) {
		struct run *w = &runs[i];

		for (int k = 0; k < i && w->norm == 0; k++)
			if (strcmp(runs[k].program, w->program) == 0 && runs[k].figure == w->figure)
				w->norm = runs[k].time > 0 ? w->time / runs[k].time : 0;
		if (w->norm == 0)
			w->norm = w->time > 0 ? 1 : 0;
		for (char *p = w->label; *p; p++)
			if (*p == '"')
				*p = '\'';
		fprintf(f, "%d \"%s\" %.9g %.9g %.9g %d\n", i, w->label, w->norm, w->mib,
			w->thrashed, w->verify);
		printf("%-60s %-6s %8.3f s (x%.3f)  moved %10.1f MiB  thrashed %8.0f  verify %s\n",
		       w->label, w->figure, w->time, w->norm, w->mib, w->thrashed,
		       plot_report_str(&w->r, "verify", "none"));
	}
	return plot_job_fclose(j, f, "compare.dat", err, len);
}

/* Layout: three panels side by side over a numbered list of the runs'
 * labels (labels under the bars would be unreadable past a few runs). */
#define LEGEND_LINE 16 /* pixels per legend line */
#define PLOT_HEIGHT 480

static void panel(FILE *gp, int i, double bottom, bool small, const char *ylabel, int col,
		  const char *fmt)
{
	double left = 0.06 + i * 0.333;

	fprintf(gp,
		"set lmargin at screen %.3f\nset rmargin at screen %.3f\n"
		"set bmargin at screen %.4f\nset tmargin at screen 0.96\n",
		left, left + 0.25, bottom);
	fprintf(gp,
		"set ylabel '%s'\nplot 'compare.dat' using 1:%d:($6 < 0 ? 0xd62728 : $6 > 0 ? "
		"0x4e79a7 : 0x9a9a9a):xticlabels(sprintf('%%d', $1 + 1)) with boxes lc rgb "
		"variable, 'compare.dat' using 1:%d:(sprintf('%s', $%d)) with labels "
		"offset 0,0.7 font ',%d'\n",
		ylabel, col, col, fmt, col, small ? 6 : 8);
}

/* The time panel's axis: the figures the runs were timed by (each with what
 * it is), over the first run of the same program (and clock, where the
 * runs' clocks differ). */
static const char *time_axis(const struct run *runs, int n, char *buf, size_t len)
{
	int kinds = 0;

	buf[0] = '\0';
	for (int f = 0; f < FIG_N; f++) {
		bool any = false;

		for (int i = 0; i < n && !any; i++)
			any = runs[i].figure == figure_key[f];
		if (any) {
			size_t used = strlen(buf);

			snprintf(buf + used, len - used, "%s%s", kinds ? " or " : "",
				 figure_axis[f]);
			kinds++;
		}
	}
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, " / first run of the program%s",
		 kinds > 1 ? " and clock" : "");
	return buf;
}

int plot_compare(struct plot_job *j, char *const *paths, int n, const char *prefix, char *err,
		 size_t len)
{
	struct run *runs = calloc((size_t)n, sizeof(*runs));
	int rc = -1, cols = n > 12 ? 2 : 1, rows = (n + cols - 1) / cols;
	int width = n <= 12 ? 1500 : 1500 + 40 * (n - 12);
	int height = PLOT_HEIGHT + LEGEND_LINE * rows + 40;
	double bottom = (double)(LEGEND_LINE * rows + 70) / height;
	char axis[160];
	FILE *gp;

	if (width > 4000)
		width = 4000;
	if (!runs) {
		snprintf(err, len, "out of memory for %d reports", n);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (read_run(&runs[i], paths[i], err, len))
			goto out;
	if (label_runs(runs, n, err, len) || write_data(j, runs, n, err, len))
		goto out;
	gp = plot_job_create(j, "compare.gp", err, len);
	if (!gp)
		goto out;
	fprintf(gp,
		"reset\nset multiplot title 'runs compared (%d reports; blue: verify pass, "
		"red: fail, grey: no check)'\n"
		"set style fill solid 0.85 noborder\nset boxwidth 0.7\nset key off\n"
		"set grid ytics lc rgb '#e0e0e0'\nset xtics font ',8'%s\n"
		"set xrange [-0.6:%d.6]\nset yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n",
		n, n > 30 ? " rotate by 90 right" : "", n - 1);
	for (int i = 0; i < n; i++) {
		char line[sizeof(runs[0].label) + 16];

		snprintf(line, sizeof(line), "%d: %s", i + 1, runs[i].label);
		fprintf(gp, "set label %d ", i + 1);
		plot_gp_str(gp, line);
		fprintf(gp, " at screen %.4f, screen %.4f left font ',9'%s\n",
			0.02 + 0.5 * (i / rows),
			(double)(LEGEND_LINE * (rows - i % rows) + 8) / height,
			runs[i].verify < 0 ? " tc rgb '#d62728'" : "");
	}
	panel(gp, 0, bottom, n > 12, time_axis(runs, n, axis, sizeof(axis)), 3, "%.2f");
	panel(gp, 1, bottom, n > 12, "bytes moved, both ways (MiB)", 4, "%.0f");
	panel(gp, 2, bottom, n > 12, "thrashed blocks (evicted, then back)", 5, "%.0f");
	fprintf(gp, "unset multiplot\n");
	if (plot_job_fclose(j, gp, "compare.gp", err, len))
		goto out;
	rc = plot_job_render(j, "compare.gp", NULL, prefix, width, height, err, len);
out:
	for (int i = 0; i < n; i++)
		plot_report_free(&runs[i].r);
	free(runs);
	return rc;
}
