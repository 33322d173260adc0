// SPDX-License-Identifier: MIT
/*
 * plot_timeline.c - `uvmemu plot --timeline DIR`: timeline.json rebuilt from
 * the CSVs of a run (an older run's, or one whose process died before it
 * wrote its own), with the builder a live run uses (core/timeline.c).
 *
 * What the CSVs hold: batches.csv (stage times; the modelled end, dilation
 * and device memory since they were recorded), kernels.csv and, with
 * --trace-faults on, faults.csv (fault stalls). They do not record CTAs or
 * link transfers, so a rebuilt timeline has no CTA slices and no link
 * tracks; its otherData.source says it was rebuilt.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "plot.h"
#include "timeline.h"
#include "units.h"

_Static_assert(sizeof(((struct uvm_stats *)0)->ns) / sizeof(uint64_t) <= 64,
	       "read_batches: more stage times than time_col holds");
_Static_assert(sizeof(struct uvm_stats) / sizeof(uint64_t) <= 128,
	       "read_batches: more counters than stat_col holds");

static int ns_of(const struct plot_csv *c, int col, uint64_t *out, char *err, size_t len)
{
	double s;

	if (plot_csv_num(c, col, &s, err, len))
		return -1;
	if (!(s >= 0))
		return plot_csv_bad(c, err, len, "a negative time");
	*out = (uint64_t)llround(s * 1e9);
	return 0;
}

/* Optional columns read as 0 when absent (a trace older than the column). */
static int opt_u64(const struct plot_csv *c, int col, uint64_t *out, char *err, size_t len)
{
	*out = 0;
	return col < 0 ? 0 : plot_csv_u64(c, col, out, err, len);
}

static int read_batches(struct uvm_timeline *tl, const char *dir, char *err, size_t len)
{
	static const char *const need[] = {"batch", "kind", "start_s"};
	struct plot_csv c;
	int idx[3], rc, model_col, dil_col, dev_col;
	int time_col[64], stat_col[128], nt = 0, ns = 0;

	if (plot_csv_open(&c, dir, "batches.csv", err, len))
		return -1;
	if (plot_csv_need(&c, need, idx, 3, err, len))
		goto fail;
#define UVMEMU_STAT(id, unit, help) stat_col[ns++] = plot_csv_col(&c, #id);
#define UVMEMU_TIME(id, help)	    time_col[nt++] = plot_csv_col(&c, #id "_s");
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	model_col = plot_csv_col(&c, "model_end_s");
	dil_col = plot_csv_col(&c, "dilation");
	dev_col = plot_csv_col(&c, "device_bytes");
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		struct uvm_tl_batch b = {.device_bytes = UINT64_MAX};
		const char *kind = c.field[idx[1]];
		double d = 0;
		int ti = 0, si = 0;

		if (strcmp(kind, "batch") != 0 && strcmp(kind, "eviction") != 0) {
			plot_csv_bad(&c, err, len, "kind is neither 'batch' nor 'eviction'");
			goto fail;
		}
		b.eviction = kind[0] == 'e';
		if (plot_csv_u64(&c, idx[0], &b.seq, err, len) ||
		    ns_of(&c, idx[2], &b.start_ns, err, len) ||
		    (model_col >= 0 && ns_of(&c, model_col, &b.model_end_ns, err, len)) ||
		    (dil_col >= 0 && plot_csv_num(&c, dil_col, &d, err, len)) ||
		    (dev_col >= 0 && plot_csv_u64(&c, dev_col, &b.device_bytes, err, len)))
			goto fail;
		b.dilation = d;
#define UVMEMU_STAT(id, unit, help)                                                                \
	if (opt_u64(&c, stat_col[si++], &b.st.id, err, len))                                       \
		goto fail;
#define UVMEMU_TIME(id, help)                                                                      \
	if (time_col[ti] >= 0 && ns_of(&c, time_col[ti], &b.st.ns.id, err, len))                   \
		goto fail;                                                                         \
	ti++;
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
		uvm_timeline_batch(tl, &b);
	}
	if (rc < 0)
		goto fail;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	return -1;
}

static int read_kernels(struct uvm_timeline *tl, const char *dir, char *err, size_t len)
{
	static const char *const need[] = {"launch", "kernel", "begin_s", "end_s",   "grid_x",
					   "grid_y", "grid_z", "block_x", "block_y", "block_z"};
	struct plot_csv c;
	int idx[10], rc;

	if (plot_csv_open(&c, dir, "kernels.csv", err, len))
		return -1;
	if (plot_csv_need(&c, need, idx, 10, err, len))
		goto fail;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		struct uvm_tl_kernel k = {.name = c.field[idx[1]]};
		uint64_t dim[6];

		if (plot_csv_u64(&c, idx[0], &k.launch, err, len) ||
		    ns_of(&c, idx[2], &k.begin_ns, err, len) ||
		    ns_of(&c, idx[3], &k.end_ns, err, len))
			goto fail;
		for (int i = 0; i < 6; i++)
			if (plot_csv_u64(&c, idx[4 + i], &dim[i], err, len))
				goto fail;
		for (int i = 0; i < 3; i++) {
			k.grid[i] = (unsigned)dim[i];
			k.block[i] = (unsigned)dim[3 + i];
		}
		uvm_timeline_kernel(tl, &k);
	}
	if (rc < 0)
		goto fail;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	return -1;
}

static int outcome_of(const char *name)
{
	for (int o = 0; o < UVM_NOUTCOMES; o++)
		if (strcmp(name, uvm_fault_outcome_name((enum uvm_fault_outcome)o)) == 0)
			return o;
	return -1;
}

/* faults.csv is there only with --trace-faults on: without it, no stalls. */
static int read_faults(struct uvm_timeline *tl, const char *dir, bool *have, char *err, size_t len)
{
	static const char *const need[] = {"time_s", "side", "page",	"access",
					   "tid",    "sm",   "outcome", "count"};
	struct plot_csv c;
	char path[PATH_MAX];
	int idx[8], rc;

	*have = plot_path(path, sizeof(path), dir, "faults.csv") == 0 && access(path, F_OK) == 0;
	if (!*have)
		return 0;
	if (plot_csv_open(&c, dir, "faults.csv", err, len))
		return -1;
	if (plot_csv_need(&c, need, idx, 8, err, len))
		goto fail;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		struct uvm_trace_fault f = {0};
		uint64_t tid, count;
		double sm;
		int o = outcome_of(c.field[idx[6]]);

		if (o < 0) {
			plot_csv_bad(&c, err, len, "an outcome this version does not know");
			goto fail;
		}
		if (ns_of(&c, idx[0], &f.t_ns, err, len) ||
		    plot_csv_u64(&c, idx[2], &f.page, err, len) ||
		    plot_csv_u64(&c, idx[4], &tid, err, len) ||
		    plot_csv_num(&c, idx[5], &sm, err, len) ||
		    plot_csv_u64(&c, idx[7], &count, err, len))
			goto fail;
		f.tid = (uint32_t)tid;
		f.sm = (int32_t)sm;
		f.count = (uint32_t)count;
		f.gpu = strcmp(c.field[idx[1]], "gpu") == 0;
		f.write = strcmp(c.field[idx[3]], "write") == 0;
		f.outcome = (uint8_t)o;
		uvm_timeline_fault(tl, &f);
	}
	if (rc < 0)
		goto fail;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	return -1;
}

int plot_timeline(const char *dir, const char *out, char *err, size_t len)
{
	char path[PATH_MAX], source[PATH_MAX + 64], werr[PLOT_ERRLEN / 2];
	long long max_events = 0;
	struct uvm_timeline *tl;
	struct uvm_tl_counts counts;
	bool faults = false;
	FILE *f;
	int rc = -1;

	if (!out) {
		if (plot_path(path, sizeof(path), dir, "timeline.json")) {
			snprintf(err, len, "%s: path too long", dir);
			return -1;
		}
		/* The run's own has CTAs and transfers the CSVs lack. */
		if (access(path, F_OK) == 0) {
			snprintf(err, len,
				 "%s exists (the run's own, with CTA slices and link transfers "
				 "the CSVs do not hold): give --out FILE to write the rebuilt one "
				 "elsewhere",
				 path);
			return -1;
		}
		out = path;
	}
	/* The same bound as a run's, from options.def's default. */
	uvm_parse_int(uvm_options[UVM_OPT_trace_events].def, &max_events);
	tl = uvm_timeline_new((uint64_t)max_events);
	if (!tl) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (read_batches(tl, dir, err, len) || read_kernels(tl, dir, err, len) ||
	    read_faults(tl, dir, &faults, err, len))
		goto done;
	f = fopen(out, "w");
	if (!f) {
		snprintf(err, len, "%s: %s", out, strerror(errno));
		goto done;
	}
	snprintf(source, sizeof(source), "rebuilt from the CSVs of %s", dir);
	rc = uvm_timeline_write(tl, f, source, werr, sizeof(werr));
	if (fclose(f) && rc == 0) {
		snprintf(werr, sizeof(werr), "%s", strerror(errno));
		rc = -1;
	}
	if (rc) {
		snprintf(err, len, "%s: %s", out, werr);
		rc = -1;
		goto done;
	}
	uvm_timeline_counts(tl, &counts);
	printf("%s: %llu events per time axis (no CTA slices or link transfers: the CSVs do not "
	       "hold them%s)\n",
	       out, (unsigned long long)counts.events,
	       faults ? "" : "; no fault stalls either: the run had no --trace-faults on");
done:
	uvm_timeline_free(tl);
	return rc;
}
