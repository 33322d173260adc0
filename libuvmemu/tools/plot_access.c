// SPDX-License-Identifier: MIT
/*
 * plot_access.c - the page-access pattern: block number against time, kernel
 * launches as vertical lines, allocations as horizontal bands (the figure
 * style of the CPC and adaptive-migration papers).
 *
 * With DIR/faults.csv (--trace-faults on) every fault is a point coloured by
 * its outcome. A long run has millions of faults, far more than a figure has
 * pixels: points are binned to a grid of TIME_BINS columns by block and
 * outcome, and each occupied cell is drawn once, so the figure shows every
 * block touched in every time slice without drawing the same pixel a
 * thousand times. Without faults.csv, DIR/accesses.csv gives per launch the
 * blocks touched and how often: each is a segment across its launch,
 * coloured by its access count; the title says which source was used.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define TIME_BINS  2000
#define MAX_LABELS 40 /* allocation names drawn beside the plot; more would overlap */

enum cat { C_OTHER, C_MIGRATED, C_ZERO, C_PREFETCHED, C_REMOTE, C_READDUP, C_CPU, NCAT };

static const struct {
	const char *file, *title, *colour;
} cats[NCAT] = {
    [C_OTHER] = {"acc-other.dat", "other GPU fault (duplicate, stale, deferred, throttled)",
		 "#b0b0b0"},
    [C_MIGRATED] = {"acc-migrated.dat", "migrated", "#1f5fbf"},
    [C_ZERO] = {"acc-zero.dat", "zero-filled (first touch)", "#17becf"},
    [C_PREFETCHED] = {"acc-prefetched.dat", "prefetched", "#2ca02c"},
    [C_REMOTE] = {"acc-remote.dat", "remote (zero-copy)", "#d62728"},
    [C_READDUP] = {"acc-readdup.dat", "read-duplicated", "#9467bd"},
    [C_CPU] = {"acc-cpu.dat", "CPU fault", "#ff7f0e"},
};

static enum cat cat_of(const char *side, const char *outcome)
{
	if (strcmp(side, "cpu") == 0)
		return C_CPU;
	if (strcmp(outcome, "migrated") == 0)
		return C_MIGRATED;
	if (strcmp(outcome, "zero-fill") == 0)
		return C_ZERO;
	/* The driver does not write prefetched blocks to faults.csv (they did
	 * not fault); a trace that does gets them drawn. */
	if (strcmp(outcome, "prefetched") == 0)
		return C_PREFETCHED;
	if (strcmp(outcome, "remote") == 0)
		return C_REMOTE;
	if (strcmp(outcome, "read-dup") == 0)
		return C_READDUP;
	return C_OTHER;
}

/* Open-addressing set of (time bin, block, category) cells. */
struct cellset {
	uint64_t *slot; /* key + 1; 0 is empty */
	size_t cap, n;
};

static int cell_add(struct cellset *s, uint64_t key, bool *fresh)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1 << 16;
		uint64_t *ns = calloc(cap, sizeof(*ns));

		if (!ns)
			return -1;
		for (size_t k = 0; k < s->cap; k++) {
			if (!s->slot[k])
				continue;
			for (i = (s->slot[k] * 0x9e3779b97f4a7c15ull) >> 20 & (cap - 1); ns[i];
			     i = (i + 1) & (cap - 1))
				;
			ns[i] = s->slot[k];
		}
		free(s->slot);
		s->slot = ns;
		s->cap = cap;
	}
	key++;
	for (i = (key * 0x9e3779b97f4a7c15ull) >> 20 & (s->cap - 1); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == key) {
			*fresh = false;
			return 0;
		}
	s->slot[i] = key;
	s->n++;
	*fresh = true;
	return 0;
}

struct fig {
	const char *dir;
	struct plot_allocs allocs;
	struct plot_kernels kernels;
	double tmin, tmax;
	uint64_t ymax; /* one past the highest block drawn */
	uint64_t count[NCAT];
	uint64_t rows;
	double amax; /* highest access count of a segment (accesses.csv) */
};

/* Faults.csv in two passes: the time span first (bins need it), then the cells. */
static int faults_span(struct fig *g, bool *have, char *err, size_t len)
{
	static const char *const cols[] = {"time_s", "block"};
	struct plot_csv c;
	int idx[2], rc;

	*have = false;
	if (plot_csv_open(&c, g->dir, "faults.csv", err, len))
		return -1;
	if (plot_csv_need(&c, cols, idx, 2, err, len))
		goto fail;
	g->tmin = INFINITY;
	g->tmax = -INFINITY;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		double t;
		uint64_t b;

		if (plot_csv_num(&c, idx[0], &t, err, len) ||
		    plot_csv_u64(&c, idx[1], &b, err, len))
			goto fail;
		if (b >= UINT32_MAX) {
			plot_csv_bad(&c, err, len, "block number out of range");
			goto fail;
		}
		g->tmin = fmin(g->tmin, t);
		g->tmax = fmax(g->tmax, t);
		if (b + 1 > g->ymax)
			g->ymax = b + 1;
		g->rows++;
	}
	if (rc < 0)
		goto fail;
	*have = g->rows > 0;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	return -1;
}

static int faults_cells(struct plot_job *j, struct fig *g, char *err, size_t len)
{
	static const char *const cols[] = {"time_s", "side", "block", "outcome"};
	struct cellset set = {0};
	FILE *out[NCAT] = {0};
	struct plot_csv c;
	int idx[4], rc = -1;
	double span = g->tmax > g->tmin ? g->tmax - g->tmin : 1;

	if (plot_csv_open(&c, g->dir, "faults.csv", err, len))
		return -1;
	if (plot_csv_need(&c, cols, idx, 4, err, len))
		goto out;
	for (int k = 0; k < NCAT; k++)
		if (!(out[k] = plot_job_create(j, cats[k].file, err, len)))
			goto out;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		double t;
		uint64_t b, bin;
		enum cat k;
		bool fresh;

		rc = -1;
		if (plot_csv_num(&c, idx[0], &t, err, len) ||
		    plot_csv_u64(&c, idx[2], &b, err, len))
			goto out;
		k = cat_of(c.field[idx[1]], c.field[idx[3]]);
		g->count[k]++;
		bin = (uint64_t)((t - g->tmin) / span * (TIME_BINS - 1));
		if (cell_add(&set, (bin << 35) | (b << 3) | (uint64_t)k, &fresh)) {
			plot_csv_bad(&c, err, len, "out of memory");
			goto out;
		}
		if (fresh) /* the cell's centre, so all points of a bin line up */
			fprintf(out[k], "%.9g %" PRIu64 "\n",
				g->tmin + ((double)bin + 0.5) * span / (TIME_BINS - 1), b);
	}
out:
	for (int k = 0; k < NCAT; k++)
		if (out[k] && plot_job_fclose(j, out[k], cats[k].file, err, len))
			rc = -1;
	plot_csv_close(&c);
	free(set.slot);
	return rc < 0 ? -1 : 0;
}

static const struct plot_kernel *launch_of(const struct fig *g, uint64_t launch)
{
	/* Launches are written in order of their end; look near the index first. */
	if (launch < g->kernels.n && g->kernels.k[launch].launch == launch)
		return &g->kernels.k[launch];
	for (size_t i = 0; i < g->kernels.n; i++)
		if (g->kernels.k[i].launch == launch)
			return &g->kernels.k[i];
	return NULL;
}

static int access_segments(struct plot_job *j, struct fig *g, char *err, size_t len)
{
	static const char *const cols[] = {"launch", "block", "accesses"};
	struct plot_csv c;
	int idx[3], rc = -1;
	FILE *f;

	if (plot_csv_open(&c, g->dir, "accesses.csv", err, len))
		return -1;
	if (plot_csv_need(&c, cols, idx, 3, err, len))
		goto out;
	f = plot_job_create(j, "acc-segments.dat", err, len);
	if (!f)
		goto out;
	g->tmin = INFINITY;
	g->tmax = -INFINITY;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		const struct plot_kernel *k;
		uint64_t launch, b, n;

		rc = -1;
		if (plot_csv_u64(&c, idx[0], &launch, err, len) ||
		    plot_csv_u64(&c, idx[1], &b, err, len) ||
		    plot_csv_u64(&c, idx[2], &n, err, len))
			break;
		k = launch_of(g, launch);
		if (!k) {
			plot_csv_bad(&c, err, len, "a launch with no row in kernels.csv");
			break;
		}
		fprintf(f, "%.9g %" PRIu64 " %.9g %" PRIu64 "\n", k->begin, b, k->end - k->begin,
			n);
		g->tmin = fmin(g->tmin, k->begin);
		g->tmax = fmax(g->tmax, k->end);
		g->amax = fmax(g->amax, (double)n);
		if (b + 1 > g->ymax)
			g->ymax = b + 1;
		g->rows++;
	}
	if (plot_job_fclose(j, f, "acc-segments.dat", err, len))
		rc = -1;
out:
	plot_csv_close(&c);
	return rc < 0 ? -1 : 0;
}

/* Kernel launches as vertical lines; allocations as lines at their first
 * block, named on the right. */
static int write_context(struct plot_job *j, struct fig *g, FILE *gp, char *err, size_t len)
{
	FILE *f = plot_job_create(j, "acc-kernels.dat", err, len);
	char label[80];

	if (!f)
		return -1;
	for (size_t i = 0; i < g->kernels.n; i++)
		fprintf(f, "%.9g\n", g->kernels.k[i].begin);
	if (plot_job_fclose(j, f, "acc-kernels.dat", err, len))
		return -1;
	for (size_t i = 0; i < g->allocs.n; i++) {
		const struct plot_alloc *a = &g->allocs.a[i];

		if (a->first_block + a->blocks > g->ymax)
			g->ymax = a->first_block + a->blocks;
		fprintf(gp,
			"set arrow from graph 0, first %" PRIu64 " to graph 1, first %" PRIu64
			" nohead lc rgb '#808080' dt 3 lw 0.8\n",
			a->first_block, a->first_block);
		if (g->allocs.n <= MAX_LABELS) {
			fprintf(gp, "set label ");
			plot_gp_str(gp, plot_alloc_label(a, label, sizeof(label)));
			fprintf(gp, " at graph 1.01, first %.1f left font ',9'\n",
				(double)a->first_block + (double)a->blocks / 2);
		}
	}
	return 0;
}

static void write_title(struct fig *g, FILE *gp, bool from_faults)
{
	char title[600];

	if (from_faults)
		snprintf(title, sizeof(title),
			 "page-access pattern of %s: from faults.csv, %" PRIu64
			 " faults (one dot per block and time slice)%s",
			 g->dir, g->rows,
			 g->count[C_PREFETCHED] ? ""
						: "\nprefetched blocks are not in faults.csv: "
						  "blocks_prefetched in batches.csv counts them");
	else
		snprintf(title, sizeof(title),
			 "page-access pattern of %s: from accesses.csv, per launch (no faults.csv: "
			 "--trace-faults on gives outcomes)\ncolour: accesses per block in the "
			 "launch",
			 g->dir);
	fprintf(gp, "set title ");
	plot_gp_qstr(gp, title);
	fputc('\n', gp);
}

static int write_body(struct plot_job *j, struct fig *g, bool from_faults, char *err, size_t len)
{
	FILE *gp = plot_job_create(j, "access.gp", err, len);
	double pad;
	bool first = true;

	if (!gp)
		return -1;
	fprintf(gp, "reset\nset border lw 0.8\nset grid noxtics ytics lc rgb '#e0e0e0'\n"
		    "set xlabel 'time since the run began (s)'\n"
		    "set ylabel 'block (64 KB) number'\nset rmargin 16\n"
		    "set key outside top center horizontal font ',9'\n");
	if (g->rows == 0) {
		g->tmin = 0;
		g->tmax = 1;
	}
	for (size_t i = 0; i < g->kernels.n; i++) {
		g->tmin = fmin(g->tmin, g->kernels.k[i].begin);
		g->tmax = fmax(g->tmax, g->kernels.k[i].end);
	}
	if (write_context(j, g, gp, err, len)) {
		fclose(gp);
		return -1;
	}
	if (g->ymax == 0)
		g->ymax = 1;
	pad = g->tmax > g->tmin ? (g->tmax - g->tmin) * 0.01 : 0.5;
	fprintf(gp, "set xrange [%.9g:%.9g]\nset yrange [0:%" PRIu64 "]\n", g->tmin - pad,
		g->tmax + pad, g->ymax);
	write_title(g, gp, from_faults);
	if (g->rows == 0)
		fprintf(gp,
			"set label 'no GPU accesses recorded' at graph 0.5, graph 0.5 center\n");
	if (!from_faults && g->rows)
		/* The colour box goes right of the allocation names. */
		fprintf(gp,
			"set rmargin 26\nset colorbox user origin screen 0.905, screen 0.12 "
			"size screen 0.015, screen 0.7\n"
			"set logscale cb\nset cbrange [1:%.9g]\nset cblabel 'accesses in the "
			"launch'\nset palette defined (0 '#c6dbef', 1 '#4292c6', 2 '#08306b', "
			"3 '#d62728')\n",
			fmax(g->amax, 2));
	fprintf(gp, "plot ");
	if (g->kernels.n) {
		fprintf(gp,
			"'acc-kernels.dat' using 1:(0):(0):(%" PRIu64 ") with vectors nohead "
			"lc rgb '#a0a0a0' dt 2 lw 0.8 title 'kernel launch'",
			g->ymax);
		first = false;
	}
	if (!from_faults && g->rows) {
		fprintf(gp,
			"%s'acc-segments.dat' using 1:2:3:(0):4 with vectors nohead lw 2 "
			"lc palette notitle",
			first ? "" : ", ");
		first = false;
	}
	for (int k = 0; from_faults && k < NCAT; k++) {
		if (!g->count[k])
			continue;
		fprintf(gp,
			"%s'%s' using 1:2 with points pt 7 ps 0.35 lc rgb '%s' title '%s (%" PRIu64
			")'",
			first ? "" : ", ", cats[k].file, cats[k].colour, cats[k].title,
			g->count[k]);
		first = false;
	}
	if (first) /* nothing at all: an empty frame */
		fprintf(gp, "NaN notitle");
	fputc('\n', gp);
	return plot_job_fclose(j, gp, "access.gp", err, len);
}

int plot_access_pattern(struct plot_job *j, const char *dir, const char *outdir, char *err,
			size_t len)
{
	struct fig g = {.dir = dir};
	bool from_faults = false;
	int rc = -1;

	if (plot_allocs_read(&g.allocs, dir, err, len))
		return -1;
	if (plot_kernels_read(&g.kernels, dir, err, len))
		goto out;
	{
		char probe[PATH_MAX];
		FILE *f;

		if (plot_path(probe, sizeof(probe), dir, "faults.csv")) {
			snprintf(err, len, "%s/faults.csv: path too long", dir);
			goto out;
		}
		f = fopen(probe, "r");
		if (f) {
			fclose(f);
			if (faults_span(&g, &from_faults, err, len))
				goto out;
		}
	}
	if (from_faults) {
		if (faults_cells(j, &g, err, len))
			goto out;
	} else {
		g.rows = 0;
		g.ymax = 0;
		if (access_segments(j, &g, err, len))
			goto out;
	}
	if (write_body(j, &g, from_faults, err, len))
		goto out;
	rc = plot_job_render(j, "access.gp", outdir, "access_pattern", 1400, 800, err, len);
out:
	plot_allocs_free(&g.allocs);
	plot_kernels_free(&g.kernels);
	return rc;
}
