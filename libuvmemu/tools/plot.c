// SPDX-License-Identifier: MIT
/*
 * plot.c - `uvmemu plot`: the command line.
 *
 *   uvmemu plot [--keep] DIR
 *       figures from the traces of one run (uvmemu run --trace DIR), written
 *       next to them: access_pattern, batch_stages, batch_cost, alloc_freq,
 *       each as .png and .svg
 *   uvmemu plot --compare [--out PREFIX] [--keep] REPORT.json...
 *       reports side by side into PREFIX.png and PREFIX.svg (./compare)
 *   uvmemu plot --timeline [--out FILE] DIR
 *       DIR/timeline.json (or FILE) rebuilt from the run's CSVs
 *
 * Exit status: 0 when every figure was written, 2 for bad input (a missing
 * directory, a missing or malformed CSV, a report that cannot be read) or a
 * missing gnuplot, 1 when gnuplot itself failed.
 */
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: uvmemu plot [--keep] DIR\n"
		   "       uvmemu plot --compare [--out PREFIX] [--keep] REPORT.json...\n"
		   "       uvmemu plot --timeline [--out FILE] DIR\n\n"
		   "DIR: the traces of a run (uvmemu run --trace DIR; --trace-faults on adds "
		   "per-fault\noutcomes). Writes DIR/access_pattern, DIR/batch_stages, "
		   "DIR/batch_cost and\nDIR/alloc_freq, each .png and .svg.\n"
		   "--compare: normalised time (gpu_s under the model clock, roi_s under the\n"
		   "real clock), bytes moved and thrashed blocks per report, into PREFIX.png\n"
		   "and PREFIX.svg (default ./compare).\n"
		   "--timeline: DIR/timeline.json (Perfetto, chrome://tracing) rebuilt from the "
		   "CSVs of\nan older run: batches, kernels, fault stalls (with faults.csv); "
		   "--out FILE writes\nit elsewhere (needed when the run wrote its own).\n"
		   "--keep: keep the gnuplot scripts and data (the path is printed).\n"
		   "Needs gnuplot (Debian: apt-get install gnuplot-nox).\n");
}

static int fail(const char *err, bool tool)
{
	fprintf(stderr, "uvmemu plot: %s\n", err);
	return tool ? 1 : 2;
}

static int plot_dir(const char *dir, bool keep)
{
	static const char *const required[] = {"batches.csv", "kernels.csv", "accesses.csv",
					       "allocations.csv"};
	char err[PLOT_ERRLEN], path[PATH_MAX];
	struct plot_job j;
	struct stat st;
	int rc;

	if (stat(dir, &st)) {
		snprintf(err, sizeof(err), "%s: %s", dir, strerror(errno));
		return fail(err, false);
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, sizeof(err), "%s: not a directory (uvmemu run --trace DIR)", dir);
		return fail(err, false);
	}
	/* Every input file is there before any figure is drawn. */
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		if (plot_path(path, sizeof(path), dir, required[i])) {
			snprintf(err, sizeof(err), "%s: path too long", dir);
			return fail(err, false);
		}
		if (access(path, R_OK)) {
			snprintf(err, sizeof(err), "%s: %s", path, strerror(errno));
			return fail(err, false);
		}
	}
	if (plot_job_open(&j, keep, err, sizeof(err)))
		return fail(err, false);
	rc = plot_access_pattern(&j, dir, dir, err, sizeof(err));
	if (rc == 0)
		rc = plot_batches(&j, dir, dir, err, sizeof(err));
	if (rc == 0)
		rc = plot_alloc_freq(&j, dir, dir, err, sizeof(err));
	if (rc == 0)
		rc = plot_job_flush(&j, err, sizeof(err));
	if (rc == 0)
		rc = plot_batches_fit_summary(&j, err, sizeof(err));
	plot_job_close(&j);
	return rc ? fail(err, j.tool_failed) : 0;
}

static int plot_reports(char *const *paths, int n, const char *prefix, bool keep)
{
	char err[PLOT_ERRLEN];
	struct plot_job j;
	int rc;

	if (n < 1)
		return fail("--compare needs at least one report (REPORT.json...)", false);
	/* Reports are read before gnuplot is looked for, so that a bad report
	 * is named even on a machine without gnuplot. */
	for (int i = 0; i < n; i++) {
		struct plot_report r;

		if (plot_report_read(&r, paths[i], err, sizeof(err)))
			return fail(err, false);
		plot_report_free(&r);
	}
	if (plot_job_open(&j, keep, err, sizeof(err)))
		return fail(err, false);
	rc = plot_compare(&j, paths, n, prefix, err, sizeof(err));
	if (rc == 0)
		rc = plot_job_flush(&j, err, sizeof(err));
	plot_job_close(&j);
	return rc ? fail(err, j.tool_failed) : 0;
}

int uvm_cmd_plot(int argc, char **argv)
{
	const char *out = NULL;
	bool compare = false, keep = false, timeline = false, options = true;
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	char err[PLOT_ERRLEN];
	int npos = 0, rc;

	if (!pos)
		return fail("out of memory", false);
	/* Options may come before or after the operands, up to "--". */
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!options || strncmp(a, "-", 1) != 0 || strcmp(a, "-") == 0) {
			pos[npos++] = argv[i];
		} else if (strcmp(a, "--") == 0) {
			options = false;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			free(pos);
			return 0;
		} else if (strcmp(a, "--compare") == 0) {
			compare = true;
		} else if (strcmp(a, "--keep") == 0) {
			keep = true;
		} else if (strcmp(a, "--timeline") == 0) {
			timeline = true;
		} else if (strcmp(a, "--out") == 0 || strncmp(a, "--out=", 6) == 0) {
			out = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
			if (!out || !*out) {
				free(pos);
				return fail("--out needs a file name or prefix", false);
			}
		} else {
			snprintf(err, sizeof(err), "unknown option '%s' (uvmemu plot --help)", a);
			free(pos);
			return fail(err, false);
		}
	}
	if (compare && timeline) {
		rc = fail("--compare and --timeline are separate commands", false);
	} else if (compare) {
		rc = plot_reports(pos, npos, out ? out : "compare", keep);
	} else if (timeline && npos == 1) {
		rc = plot_timeline(pos[0], out, err, sizeof(err)) ? fail(err, false) : 0;
	} else if (npos != 1) {
		usage(stderr);
		rc = 2;
	} else {
		rc = plot_dir(pos[0], keep);
	}
	free(pos);
	return rc;
}
