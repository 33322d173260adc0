// SPDX-License-Identifier: MIT
/*
 * plot_batches.c - the driver's batches (the 2024 UVM batch study's figures):
 *
 *   batch_stages  stacked stage times per batch: fetch, preprocess, the
 *                 parts of service (policy, unmap, copy, map, the rest of
 *                 service), then the stages after it (throttle, fault
 *                 latency, replay, tracker wait);
 *   batch_cost    batch time against bytes moved, with a linear fit by
 *                 gnuplot's `fit`, and the copy stage alone for scale.
 *
 * The stages come from batches.csv's header (every *_s column but start_s
 * and model_end_s, which are times of day, not durations),
 * so a stage added to stats.def is drawn without a change here; the four
 * parts of service are named below because stats.def says so only in prose.
 * Only rows of kind "batch" count: eviction rows (evictions outside a batch)
 * are not batches. With more batches than a figure has room for bars, bars
 * show the mean of consecutive batches, and the axis says how many.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define MAX_BARS   500
#define MAX_STAGES 32

/* Parts of the service stage (stats.def: "part of service"). */
static const char *const service_parts[] = {"policy_s", "unmap_s", "copy_s", "map_s"};
#define NPARTS 4

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
				      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
				      "#393b79", "#d62728", "#8cd17d", "#17becf", "#7f7f7f"};

struct layer {
	char name[48];
	int col;    /* batches.csv column; -1 for the rest of service */
	double sum; /* over all batches, seconds */
};

struct batches {
	struct layer layer[MAX_STAGES];
	int nlayers;
	int col_service, col_parts[NPARTS];
	double *v; /* n rows of nlayers stage times (s) */
	double *mb, *total, *copy;
	uint64_t faults, vablocks, gpu_batches; /* gpu_batches: batches with GPU faults */
	bool *evicting;
	size_t n, cap;
};

static double per(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static bool is_part(const char *name)
{
	for (int i = 0; i < NPARTS; i++)
		if (strcmp(name, service_parts[i]) == 0)
			return true;
	return false;
}

static void add_layer(struct batches *b, const char *name, int col)
{
	struct layer *l = &b->layer[b->nlayers++];
	size_t n = strlen(name);

	/* "unmap_s" -> "unmap"; parts of service say so. */
	if (n > 2 && strcmp(name + n - 2, "_s") == 0)
		n -= 2;
	snprintf(l->name, sizeof(l->name), "%s%.*s", is_part(name) ? "service: " : "", (int)n,
		 name);
	l->col = col;
}

/* Layers bottom to top: stages before service, service's parts and the
 * rest of it, then the stages after service. */
static int layers_of(struct batches *b, const struct plot_csv *c, char *err, size_t len)
{
	int service = -1;

	for (int i = 0; i < NPARTS; i++) {
		b->col_parts[i] = plot_csv_col(c, service_parts[i]);
		if (b->col_parts[i] < 0) {
			snprintf(err, len, "%s: no column '%s' in the header", c->path,
				 service_parts[i]);
			return -1;
		}
	}
	for (int i = 0; i < c->ncols; i++) {
		size_t n = strlen(c->name[i]);

		if (n < 3 || strcmp(c->name[i] + n - 2, "_s") ||
		    strcmp(c->name[i], "start_s") == 0 || strcmp(c->name[i], "model_end_s") == 0 ||
		    is_part(c->name[i]))
			continue;
		if (b->nlayers + NPARTS + 2 > MAX_STAGES) {
			snprintf(err, len, "%s: more stage columns than this tool draws (%d)",
				 c->path, MAX_STAGES);
			return -1;
		}
		if (strcmp(c->name[i], "service_s") == 0) {
			service = i;
			b->col_service = i;
			for (int p = 0; p < NPARTS; p++)
				add_layer(b, service_parts[p], b->col_parts[p]);
			snprintf(b->layer[b->nlayers].name, sizeof(b->layer[0].name),
				 "service: other");
			b->layer[b->nlayers++].col = -1;
			continue;
		}
		add_layer(b, c->name[i], i);
	}
	if (service < 0) {
		snprintf(err, len, "%s: no column 'service_s' in the header", c->path);
		return -1;
	}
	return 0;
}

static int grow(struct batches *b)
{
	size_t cap = b->cap ? 2 * b->cap : 1024;
	double *v = realloc(b->v, cap * (size_t)b->nlayers * sizeof(*v));
	double *mb = v ? realloc(b->mb, cap * sizeof(*mb)) : NULL;
	double *total = mb ? realloc(b->total, cap * sizeof(*total)) : NULL;
	double *copy = total ? realloc(b->copy, cap * sizeof(*copy)) : NULL;
	bool *ev = copy ? realloc(b->evicting, cap * sizeof(*ev)) : NULL;

	/* Each realloc that succeeded owns its block now, even if a later failed. */
	if (v)
		b->v = v;
	if (mb)
		b->mb = mb;
	if (total)
		b->total = total;
	if (copy)
		b->copy = copy;
	if (!ev)
		return -1;
	b->evicting = ev;
	b->cap = cap;
	return 0;
}

static int read_row(struct batches *b, const struct plot_csv *c, const int *idx, char *err,
		    size_t len)
{
	double *row, parts = 0, service, h2d, d2h, faults, vablocks, ev, t = 0;

	if (b->n == b->cap && grow(b))
		return plot_csv_bad(c, err, len, "out of memory");
	row = &b->v[b->n * (size_t)b->nlayers];
	if (plot_csv_num(c, b->col_service, &service, err, len))
		return -1;
	for (int i = 0; i < b->nlayers; i++) {
		if (b->layer[i].col >= 0) {
			if (plot_csv_num(c, b->layer[i].col, &row[i], err, len))
				return -1;
			if (row[i] < 0)
				return plot_csv_bad(c, err, len, "a negative stage time");
			if (is_part(c->name[b->layer[i].col]))
				parts += row[i];
		}
	}
	for (int i = 0; i < b->nlayers; i++) {
		if (b->layer[i].col < 0) /* timing granularity may make parts exceed service */
			row[i] = service > parts ? service - parts : 0;
		t += row[i];
		b->layer[i].sum += row[i];
	}
	if (plot_csv_num(c, idx[0], &h2d, err, len) || plot_csv_num(c, idx[1], &d2h, err, len) ||
	    plot_csv_num(c, idx[2], &faults, err, len) ||
	    plot_csv_num(c, idx[3], &vablocks, err, len) || plot_csv_num(c, idx[4], &ev, err, len))
		return -1;
	b->mb[b->n] = (h2d + d2h) / (1024.0 * 1024.0);
	b->total[b->n] = t;
	b->copy[b->n] = 0;
	for (int i = 0; i < b->nlayers; i++)
		if (b->layer[i].col >= 0 && strcmp(c->name[b->layer[i].col], "copy_s") == 0)
			b->copy[b->n] = row[i];
	b->evicting[b->n] = ev != 0;
	/* The 2024 study's per-batch figures are of GPU fault batches; a batch
	 * of CPU faults alone would dilute them. */
	if (faults > 0) {
		b->faults += (uint64_t)faults;
		b->vablocks += (uint64_t)vablocks;
		b->gpu_batches++;
	}
	b->n++;
	return 0;
}

static int read_batches(struct batches *b, const char *dir, char *err, size_t len)
{
	static const char *const cols[] = {"bytes_h2d",		"bytes_d2h",	"gpu_faults",
					   "vablocks_serviced", "any_eviction", "kind"};
	struct plot_csv c;
	int idx[6], rc;

	if (plot_csv_open(&c, dir, "batches.csv", err, len))
		return -1;
	if (plot_csv_need(&c, cols, idx, 6, err, len) || layers_of(b, &c, err, len))
		goto fail;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		const char *kind = c.field[idx[5]];

		if (strcmp(kind, "eviction") == 0)
			continue;
		if (strcmp(kind, "batch") != 0) {
			plot_csv_bad(&c, err, len, "kind is neither batch nor eviction");
			goto fail;
		}
		if (read_row(b, &c, idx, err, len))
			goto fail;
	}
	if (rc < 0)
		goto fail;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	return -1;
}

static int stages_figure(struct plot_job *j, struct batches *b, const char *dir, const char *outdir,
			 char *err, size_t len)
{
	size_t group = b->n > MAX_BARS ? (b->n + MAX_BARS - 1) / MAX_BARS : 1;
	double all = 0;
	char title[512], xlabel[96];
	FILE *f = plot_job_create(j, "stages.dat", err, len), *gp;

	if (!f)
		return -1;
	for (int i = 0; i < b->nlayers; i++)
		all += b->layer[i].sum;
	/* Cumulative means per group, microseconds: layer i is drawn from 0 up
	 * to the sum of layers 0..i, the higher sums first. */
	for (size_t g0 = 0; g0 < b->n; g0 += group) {
		size_t g1 = g0 + group < b->n ? g0 + group : b->n;
		double cum = 0;

		fprintf(f, "%.3f", (double)(g0 + g1 + 1) / 2);
		for (int i = 0; i < b->nlayers; i++) {
			double s = 0;

			for (size_t r = g0; r < g1; r++)
				s += b->v[r * (size_t)b->nlayers + i];
			cum += s / (double)(g1 - g0) * 1e6;
			fprintf(f, " %.6g", cum);
		}
		fputc('\n', f);
	}
	if (plot_job_fclose(j, f, "stages.dat", err, len))
		return -1;
	gp = plot_job_create(j, "stages.gp", err, len);
	if (!gp)
		return -1;
	snprintf(title, sizeof(title),
		 "batch cost breakdown of %s: %zu batches, mean %.1f us/batch\n%zu with GPU "
		 "faults: %.2f faults/batch, %.2f vablocks/batch (stage shares of all batch time "
		 "in the key)",
		 dir, b->n, b->n ? all / (double)b->n * 1e6 : 0, (size_t)b->gpu_batches,
		 per(b->faults, b->gpu_batches), per(b->vablocks, b->gpu_batches));
	if (group > 1)
		snprintf(xlabel, sizeof(xlabel),
			 "batch (each bar: the mean of %zu consecutive batches)", group);
	else
		snprintf(xlabel, sizeof(xlabel), "batch");
	fprintf(gp, "reset\nset title ");
	plot_gp_qstr(gp, title);
	fprintf(gp,
		"\nset xlabel '%s'\nset ylabel 'time per batch (us)'\n"
		"set key outside right top font ',9'\nset style fill solid 1.0 noborder\n"
		"set boxwidth %.3f absolute\nset grid ytics lc rgb '#e0e0e0'\nset yrange [0:*]\n",
		xlabel, 0.9 * (double)group);
	if (b->n == 0) {
		fprintf(gp, "set label 'no batches in this run' at graph 0.5, graph 0.5 center\n"
			    "plot [0:1][0:1] NaN notitle\n");
	} else {
		fprintf(gp, "set xrange [0.5:%.1f]\nplot ", (double)b->n + 0.5);
		for (int i = b->nlayers - 1; i >= 0; i--) {
			char key[96];

			snprintf(key, sizeof(key), "%s %.1f%%", b->layer[i].name,
				 all > 0 ? 100 * b->layer[i].sum / all : 0);
			fprintf(gp, "'stages.dat' using 1:%d with boxes lc rgb '%s' title ", i + 2,
				palette[i % (int)(sizeof(palette) / sizeof(palette[0]))]);
			plot_gp_str(gp, key);
			fprintf(gp, "%s", i ? ", " : "\n");
		}
	}
	if (plot_job_fclose(j, gp, "stages.gp", err, len))
		return -1;
	return plot_job_render(j, "stages.gp", outdir, "batch_stages", 1400, 700, err, len);
}

/* Least squares of total against mb: gnuplot's fit starts from here (it then
 * has nothing left to find, but the line drawn is the one gnuplot fitted). */
static bool line_fit(const struct batches *b, double *a, double *slope)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = (double)b->n, d;

	for (size_t i = 0; i < b->n; i++) {
		double x = b->mb[i], y = b->total[i] * 1e6;

		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	d = n * sxx - sx * sx;
	if (b->n < 3 || d <= 1e-12 * n * sxx)
		return false; /* fewer than two distinct amounts moved: no line */
	*slope = (n * sxy - sx * sy) / d;
	*a = (sy - *slope * sx) / n;
	return true;
}

int plot_batches_fit_summary(struct plot_job *j, char *err, size_t len)
{
	FILE *f = plot_job_open_result(j, "fit.txt");
	double a, slope, r2, n;

	if (!f)
		return 0; /* no fit was asked for: fewer than two distinct amounts moved */
	if (fscanf(f, "%lf %lf %lf %lf", &a, &slope, &r2, &n) != 4) {
		fclose(f);
		snprintf(err, len, "%s/fit.txt: gnuplot's fit left no result", j->tmp);
		return -1;
	}
	fclose(f);
	printf("batch cost fit: time = %.2f us + %.2f us/MiB x bytes moved, R^2 %.3f (%.0f "
	       "batches)\n",
	       a, slope, r2, n);
	return 0;
}

static int cost_figure(struct plot_job *j, struct batches *b, const char *dir, const char *outdir,
		       char *err, size_t len)
{
	FILE *f = plot_job_create(j, "cost.dat", err, len), *gp;
	double a0 = 0, s0 = 0, sst = 0, my = 0;
	bool fit = line_fit(b, &a0, &s0);
	char title[400];

	if (!f)
		return -1;
	/* R^2 = 1 - residuals / total sum of squares; gnuplot knows the first
	 * (FIT_WSSR, weights 1), the second is computed here. */
	for (size_t i = 0; i < b->n; i++)
		my += b->total[i] * 1e6 / (double)b->n;
	for (size_t i = 0; i < b->n; i++)
		sst += (b->total[i] * 1e6 - my) * (b->total[i] * 1e6 - my);
	for (size_t i = 0; i < b->n; i++)
		fprintf(f, "%.9g %.9g %.9g %d\n", b->mb[i], b->total[i] * 1e6, b->copy[i] * 1e6,
			b->evicting[i]);
	if (plot_job_fclose(j, f, "cost.dat", err, len))
		return -1;
	gp = plot_job_create(j, "cost.gp", err, len);
	if (!gp)
		return -1;
	snprintf(title, sizeof(title), "batch time against bytes moved, %s: %zu batches", dir,
		 b->n);
	fprintf(gp, "reset\nset title ");
	plot_gp_qstr(gp, title);
	fprintf(gp, "\nset xlabel 'bytes moved in the batch, host to device + device to host "
		    "(MiB)'\nset ylabel 'time (us)'\nset key left top font ',9'\n"
		    "set grid lc rgb '#e0e0e0'\n");
	if (b->n == 0) {
		fprintf(gp, "set label 'no batches in this run' at graph 0.5, graph 0.5 center\n"
			    "plot [0:1][0:1] NaN notitle\n");
	} else {
		if (fit)
			fprintf(gp,
				"f(x) = a + b*x\na = %.9g\nb = %.9g\nset fit quiet\n"
				"set fit logfile 'fit.log'\n"
				"fit f(x) 'cost.dat' using 1:2 via a, b\n"
				"set print 'fit.txt'\nprint sprintf('%%.9g %%.9g %%.9g %zu', a, b, "
				"%.9g > 0 ? 1 - FIT_WSSR / %.9g : 1)\nset print\n",
				a0 + (a0 == 0), s0 + (s0 == 0), b->n, sst, sst);
		fprintf(gp, "plot 'cost.dat' using 1:($4 == 0 ? $2 : NaN) with points pt 7 ps 0.5 "
			    "lc rgb '#1f5fbf' title 'batch time, no eviction', "
			    "'cost.dat' using 1:($4 != 0 ? $2 : NaN) with points pt 7 ps 0.5 "
			    "lc rgb '#d62728' title 'batch time, with eviction', "
			    "'cost.dat' using 1:3 with points pt 6 ps 0.4 lc rgb '#909090' "
			    "title 'copy stage alone'");
		if (fit)
			fprintf(gp, ", f(x) with lines lw 2 lc rgb '#000000' title sprintf('fit: "
				    "%%.1f us + %%.1f us/MiB', a, b)");
		else
			fprintf(gp, ", NaN title 'no fit: fewer than two distinct amounts moved' "
				    "lc rgb 'white'");
		fputc('\n', gp);
	}
	if (plot_job_fclose(j, gp, "cost.gp", err, len))
		return -1;
	return plot_job_render(j, "cost.gp", outdir, "batch_cost", 1000, 700, err, len);
}

int plot_batches(struct plot_job *j, const char *dir, const char *outdir, char *err, size_t len)
{
	struct batches b = {0};
	double all = 0;
	int rc = -1;

	if (read_batches(&b, dir, err, len))
		goto out;
	for (int i = 0; i < b.nlayers; i++)
		all += b.layer[i].sum;
	printf("batches: %zu, mean %.1f us/batch; with GPU faults %" PRIu64 ": faults/batch %.2f, "
	       "vablocks/batch %.2f, faults/vablock %.2f; shares:",
	       b.n, b.n ? all / (double)b.n * 1e6 : 0, b.gpu_batches, per(b.faults, b.gpu_batches),
	       per(b.vablocks, b.gpu_batches), per(b.faults, b.vablocks));
	for (int i = 0; i < b.nlayers; i++)
		printf(" %s %.1f%%%s", b.layer[i].name, all > 0 ? 100 * b.layer[i].sum / all : 0,
		       i + 1 < b.nlayers ? "," : "\n");
	if (stages_figure(j, &b, dir, outdir, err, len) ||
	    cost_figure(j, &b, dir, outdir, err, len))
		goto out;
	rc = 0;
out:
	free(b.v);
	free(b.mb);
	free(b.total);
	free(b.copy);
	free(b.evicting);
	return rc;
}
