// SPDX-License-Identifier: MIT
/*
 * plot_timeline.c - `uvmemu plot --timeline DIR`: timeline.json rebuilt from
 * the CSVs of a run (an older run's, or one whose process died before it
 * wrote its own), with the builder a live run uses (core/timeline.c).
 *
 * What the CSVs hold: batches.csv (stage times; the modelled end, dilation
 * and device memory since they were recorded), kernels.csv and, with
 * --trace-faults on, faults.csv (fault stalls). They do not record CTAs or
 * real-time link transfers, so a rebuilt timeline has no CTA slices and no
 * real-time link tracks; its otherData.source says it was rebuilt. A run
 * under --clock model also wrote the model's records (gpu_batches.csv,
 * gpu_transfers.csv, gpu_stalls.csv, kernels.csv's model_begin_s and
 * model_end_s): where they are, process 2 is made of them, as the run's was.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "plot.h"
#include "timeline.h"
#include "units.h"

_Static_assert(sizeof(((struct uvm_stats *)0)->ns) / sizeof(uint64_t) <= 64,
	       "struct batch_cols: more stage times than it holds");
_Static_assert(sizeof(struct uvm_stats) / sizeof(uint64_t) <= 128,
	       "struct batch_cols: more counters than it holds");

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

/* batches.csv's columns, found at its first row: stats.def's, and those
 * added since (absent: -1, the value unknown). */
struct batch_cols {
	struct uvm_timeline *tl;
	bool found;
	int time[64], stat[128], model_end, dilation, device;
};

static void find_batch_cols(struct batch_cols *b, const struct plot_csv *c)
{
	int nt = 0, ns = 0;

#define UVMEMU_STAT(id, unit, help) b->stat[ns++] = plot_csv_col(c, #id);
#define UVMEMU_TIME(id, help)	    b->time[nt++] = plot_csv_col(c, #id "_s");
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	b->model_end = plot_csv_col(c, "model_end_s");
	b->dilation = plot_csv_col(c, "dilation");
	b->device = plot_csv_col(c, "device_bytes");
	b->found = true;
}

/* Columns: batch, kind, start_s. */
static int batch_row(const struct plot_csv *c, const int *idx, void *ctx, char *err, size_t len)
{
	struct batch_cols *k = ctx;
	struct uvm_tl_batch b = {.device_bytes = UINT64_MAX};
	const char *kind = c->field[idx[1]];
	double d = 0;
	int ti = 0, si = 0;

	if (!k->found)
		find_batch_cols(k, c);
	if (strcmp(kind, "batch") != 0 && strcmp(kind, "eviction") != 0)
		return plot_csv_bad(c, err, len, "kind is neither 'batch' nor 'eviction'");
	b.eviction = kind[0] == 'e';
	if (plot_csv_u64(c, idx[0], &b.seq, err, len) || ns_of(c, idx[2], &b.start_ns, err, len) ||
	    (k->model_end >= 0 && ns_of(c, k->model_end, &b.model_end_ns, err, len)) ||
	    (k->dilation >= 0 && plot_csv_num(c, k->dilation, &d, err, len)) ||
	    (k->device >= 0 && plot_csv_u64(c, k->device, &b.device_bytes, err, len)))
		return -1;
	b.dilation = d;
#define UVMEMU_STAT(id, unit, help)                                                                \
	if (opt_u64(c, k->stat[si++], &b.st.id, err, len))                                         \
		return -1;
#define UVMEMU_TIME(id, help)                                                                      \
	if (k->time[ti] >= 0 && ns_of(c, k->time[ti], &b.st.ns.id, err, len))                      \
		return -1;                                                                         \
	ti++;
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	uvm_timeline_batch(k->tl, &b);
	return 0;
}

/* Its modelled begin and end where the row has them (--clock model; empty
 * under --clock real, absent from older traces). */
static int kernel_modelled(const struct plot_csv *c, struct uvm_tl_kernel *k, char *err, size_t len)
{
	int b = plot_csv_col(c, "model_begin_s"), e = plot_csv_col(c, "model_end_s");

	if (b < 0 || e < 0 || !*c->field[b])
		return 0;
	k->modelled = true;
	if (ns_of(c, b, &k->model_begin_ns, err, len) || ns_of(c, e, &k->model_end_ns, err, len))
		return -1;
	return 0;
}

/* Columns: launch, kernel, begin_s, end_s, grid_x..z, block_x..z. */
static int kernel_row(const struct plot_csv *c, const int *idx, void *ctx, char *err, size_t len)
{
	struct uvm_tl_kernel k = {.name = c->field[idx[1]]};
	uint64_t dim[6];

	if (plot_csv_u64(c, idx[0], &k.launch, err, len) ||
	    ns_of(c, idx[2], &k.begin_ns, err, len) || ns_of(c, idx[3], &k.end_ns, err, len) ||
	    kernel_modelled(c, &k, err, len))
		return -1;
	for (int i = 0; i < 6; i++)
		if (plot_csv_u64(c, idx[4 + i], &dim[i], err, len))
			return -1;
	for (int i = 0; i < 3; i++) {
		k.grid[i] = (unsigned)dim[i];
		k.block[i] = (unsigned)dim[3 + i];
	}
	uvm_timeline_kernel(ctx, &k);
	return 0;
}

static int outcome_of(const char *name)
{
	for (int o = 0; o < UVM_NOUTCOMES; o++)
		if (strcmp(name, uvm_fault_outcome_name((enum uvm_fault_outcome)o)) == 0)
			return o;
	return -1;
}

/* Columns: time_s, side, page, access, tid, sm, outcome, count. */
static int fault_row(const struct plot_csv *c, const int *idx, void *ctx, char *err, size_t len)
{
	struct uvm_trace_fault f = {0};
	uint64_t tid, count;
	double sm;
	int o = outcome_of(c->field[idx[6]]);

	if (o < 0)
		return plot_csv_bad(c, err, len, "an outcome this version does not know");
	if (ns_of(c, idx[0], &f.t_ns, err, len) || plot_csv_u64(c, idx[2], &f.page, err, len) ||
	    plot_csv_u64(c, idx[4], &tid, err, len) || plot_csv_num(c, idx[5], &sm, err, len) ||
	    plot_csv_u64(c, idx[7], &count, err, len))
		return -1;
	f.tid = (uint32_t)tid;
	f.sm = (int32_t)sm;
	f.count = (uint32_t)count;
	f.gpu = strcmp(c->field[idx[1]], "gpu") == 0;
	f.write = strcmp(c->field[idx[3]], "write") == 0;
	f.outcome = (uint8_t)o;
	uvm_timeline_fault(ctx, &f);
	return 0;
}

/* Columns: batch, start_s, end_s, faults, vablocks, pages, h2d_bytes, d2h_bytes. */
static int gpu_batch_row(const struct plot_csv *c, const int *idx, void *ctx, char *err, size_t len)
{
	struct uvm_gpu_batch b = {0};
	uint64_t n[3];

	if (plot_csv_u64(c, idx[0], &b.seq, err, len) || ns_of(c, idx[1], &b.start_ns, err, len) ||
	    ns_of(c, idx[2], &b.end_ns, err, len) || plot_csv_u64(c, idx[3], &n[0], err, len) ||
	    plot_csv_u64(c, idx[4], &n[1], err, len) || plot_csv_u64(c, idx[5], &n[2], err, len) ||
	    plot_csv_u64(c, idx[6], &b.h2d_bytes, err, len) ||
	    plot_csv_u64(c, idx[7], &b.d2h_bytes, err, len))
		return -1;
	b.faults = (uint32_t)n[0];
	b.vablocks = (uint32_t)n[1];
	b.pages = (uint32_t)n[2];
	uvm_timeline_gpu_batch(ctx, &b);
	return 0;
}

/* Columns: dir, start_s, end_s, bytes. */
static int gpu_transfer_row(const struct plot_csv *c, const int *idx, void *ctx, char *err,
			    size_t len)
{
	const char *dir = c->field[idx[0]];
	uint64_t start, end, bytes;

	if (strcmp(dir, "h2d") != 0 && strcmp(dir, "d2h") != 0)
		return plot_csv_bad(c, err, len, "dir is neither 'h2d' nor 'd2h'");
	if (ns_of(c, idx[1], &start, err, len) || ns_of(c, idx[2], &end, err, len) ||
	    plot_csv_u64(c, idx[3], &bytes, err, len))
		return -1;
	uvm_timeline_gpu_transfer(ctx, dir[0] == 'd', bytes, start, end);
	return 0;
}

/* Columns: slot, start_s, end_s. */
static int gpu_stall_row(const struct plot_csv *c, const int *idx, void *ctx, char *err, size_t len)
{
	uint64_t slot, from, to;

	if (plot_csv_u64(c, idx[0], &slot, err, len) || ns_of(c, idx[1], &from, err, len) ||
	    ns_of(c, idx[2], &to, err, len))
		return -1;
	uvm_timeline_gpu_stall(ctx, (unsigned)slot, from, to);
	return 0;
}

static bool has_csv(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return plot_path(path, sizeof(path), dir, name) == 0 && access(path, F_OK) == 0;
}

/* The model clock's records: all three files, where the run wrote them. */
static int read_gpu_csvs(struct uvm_timeline *tl, const char *dir, char *err, size_t len)
{
	static const char *const batch_cols[] = {"batch",    "start_s", "end_s",     "faults",
						 "vablocks", "pages",	"h2d_bytes", "d2h_bytes"};
	static const char *const xfer_cols[] = {"dir", "start_s", "end_s", "bytes"};
	static const char *const stall_cols[] = {"slot", "start_s", "end_s"};

	uvm_timeline_model_clock(tl);
	if (plot_csv_each(dir, "gpu_batches.csv", batch_cols, 8, gpu_batch_row, tl, err, len) ||
	    plot_csv_each(dir, "gpu_transfers.csv", xfer_cols, 4, gpu_transfer_row, tl, err, len) ||
	    plot_csv_each(dir, "gpu_stalls.csv", stall_cols, 3, gpu_stall_row, tl, err, len))
		return -1;
	return 0;
}

static int read_csvs(struct uvm_timeline *tl, const char *dir, bool *faults, bool *model, char *err,
		     size_t len)
{
	static const char *const batch_cols[] = {"batch", "kind", "start_s"};
	static const char *const kernel_cols[] = {"launch",  "kernel", "begin_s", "end_s",
						  "grid_x",  "grid_y", "grid_z",  "block_x",
						  "block_y", "block_z"};
	static const char *const fault_cols[] = {"time_s", "side", "page",    "access",
						 "tid",	   "sm",   "outcome", "count"};
	struct batch_cols b = {.tl = tl};

	if (plot_csv_each(dir, "batches.csv", batch_cols, 3, batch_row, &b, err, len) ||
	    plot_csv_each(dir, "kernels.csv", kernel_cols, 10, kernel_row, tl, err, len))
		return -1;
	*model = has_csv(dir, "gpu_batches.csv");
	if (*model && read_gpu_csvs(tl, dir, err, len))
		return -1;
	/* faults.csv is there only with --trace-faults on: without it, no stalls. */
	*faults = has_csv(dir, "faults.csv");
	return *faults ? plot_csv_each(dir, "faults.csv", fault_cols, 8, fault_row, tl, err, len)
		       : 0;
}

int plot_timeline(const char *dir, const char *out, char *err, size_t len)
{
	char path[PATH_MAX], source[PATH_MAX + 64], werr[PLOT_ERRLEN / 2];
	long long max_events = 0;
	struct uvm_timeline *tl;
	struct uvm_tl_counts counts;
	bool faults = false, model = false;
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
	/* The same bound as a run's, from uvmemu_options.def's default. */
	uvm_parse_int(uvm_options[UVM_OPT_trace_events].def, &max_events);
	tl = uvm_timeline_new((uint64_t)max_events);
	if (!tl) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (read_csvs(tl, dir, &faults, &model, err, len))
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
	printf("%s: %llu events per time axis (no CTA slices or real-time link transfers: the CSVs "
	       "do not hold them%s%s)\n",
	       out, (unsigned long long)counts.events,
	       faults ? "" : "; no fault stalls either: the run had no --trace-faults on",
	       model ? "; modelled time from the model clock's CSVs" : "");
done:
	uvm_timeline_free(tl);
	return rc;
}
