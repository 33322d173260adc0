// SPDX-License-Identifier: MIT
/*
 * cmd_calibrate.c - `uvmemu calibrate`: measure the executor's stream
 * bandwidth in several fresh processes and save the median for
 * --dilation auto (front/calibration.h).
 *
 * The measurement itself is the executor's (emu-gpu's emugpu-calibrate,
 * installed next to this command): libuvmemu never depends on emu-gpu, it
 * only reads what the program prints:
 *   build STRING          how the executor was built
 *   bytes_per_s NUMBER    one measurement
 *   block_ns NUMBER       CPU ns per basic block of its kernel (builds that count)
 *   gpu NAME NUMBER       a --gpu preset's bandwidth (for the dilations shown)
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "calibration.h"
#include "cli.h"
#include "median.h"

#define MAX_RUNS 100
#define MAX_GPUS 16

struct calib_run {
	double bw[MAX_RUNS];
	unsigned n;
	double block_ns[MAX_RUNS]; /* a counting build's (nblock of them) */
	unsigned nblock;
	char build[64];
	struct {
		char name[32];
		double bytes_per_s;
	} gpu[MAX_GPUS];
	unsigned ngpu;
};

/* emugpu-calibrate next to this binary. */
static int find_tool(char *out, size_t len)
{
	char self[PATH_MAX];
	int n = uvm_cli_self_dir(self, sizeof(self));

	if (n)
		return n;
	n = snprintf(out, len, "%s/emugpu-calibrate", self);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return access(out, X_OK) ? -errno : 0;
}

/* Runs the tool once and reads what it printed into r. */
static int run_once(const char *tool, struct calib_run *r)
{
	char line[256], cmd[PATH_MAX + 96];
	bool got = false;
	FILE *p;
	int st;

	/* The tool runs natively (plain memory): no preloaded emulator, no
	 * calibration of its own start, no summary of the native run. */
	snprintf(cmd, sizeof(cmd), "env -u LD_PRELOAD -u UVMEMU_DILATION UVMEMU_SUMMARY=off '%s'",
		 tool);
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	while (fgets(line, sizeof(line), p)) {
		double v;
		char name[32];

		if (sscanf(line, "bytes_per_s %lf", &v) == 1 && v > 0 && r->n < MAX_RUNS) {
			r->bw[r->n++] = v;
			got = true;
		} else if (sscanf(line, "block_ns %lf", &v) == 1 && v > 0 && r->nblock < MAX_RUNS) {
			r->block_ns[r->nblock++] = v;
		} else if (sscanf(line, "build %63s", r->build) == 1) {
			continue;
		} else if (sscanf(line, "gpu %31s %lf", name, &v) == 2 && r->ngpu < MAX_GPUS) {
			bool seen = false;

			for (unsigned i = 0; i < r->ngpu; i++)
				seen |= strcmp(r->gpu[i].name, name) == 0;
			if (!seen) {
				snprintf(r->gpu[r->ngpu].name, sizeof(r->gpu[0].name), "%s", name);
				r->gpu[r->ngpu++].bytes_per_s = v;
			}
		}
	}
	st = pclose(p);
	return st == 0 && got ? 0 : -EIO;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "uvmemu calibrate: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

int uvm_cmd_calibrate(int argc, char **argv)
{
	const char *out_opt = NULL;
	char tool[PATH_MAX], path[PATH_MAX], why[512];
	struct calib_run r = {0};
	struct uvm_calib c = {0};
	long runs = 10;
	time_t now = time(NULL);
	int rc;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf(
			    "usage: uvmemu calibrate [--runs N] [--out FILE]\n"
			    "Measures the executor's stream bandwidth in N fresh processes "
			    "(default 10)\nand saves the median, which --dilation auto then uses "
			    "on this machine and\nbuild (FILE: default --calibration's, "
			    "~/.cache/uvmemu/calibration).\n");
			return 0;
		}
		if (strcmp(argv[i], "--runs") && strcmp(argv[i], "--out"))
			return usage_error("unknown option '%s' (--runs N, --out FILE)", argv[i]);
		if (i + 1 >= argc)
			return usage_error("option '%s' needs a value (--runs N, --out FILE)",
					   argv[i]);
		if (strcmp(argv[i], "--runs") == 0) {
			char *end;

			runs = strtol(argv[++i], &end, 10);
			if (*end || end == argv[i] || runs < 1 || runs > MAX_RUNS)
				return usage_error(
				    "--runs '%s': expected a whole number from 1 to 100", argv[i]);
		} else {
			out_opt = argv[++i];
		}
	}
	rc = uvm_calib_path(out_opt ? out_opt : getenv("UVMEMU_CALIBRATION"), path, sizeof(path),
			    why, sizeof(why));
	if (rc == -EPERM)
		return usage_error("%s: give --out FILE", why);
	if (rc)
		return usage_error("%s", "no file to write (--out FILE)");
	if (find_tool(tool, sizeof(tool))) {
		fprintf(stderr, "uvmemu calibrate: emugpu-calibrate not found next to this program "
				"(build emu-gpu)\n");
		return 2;
	}
	for (long i = 0; i < runs; i++) {
		if (run_once(tool, &r)) {
			fprintf(stderr, "uvmemu calibrate: %s failed (run %ld)\n", tool, i + 1);
			return 1;
		}
		printf("run %2ld: %.2f GB/s\n", i + 1, r.bw[r.n - 1] / 1e9);
	}
	c.bytes_per_s = uvm_median(r.bw, r.n);
	uvm_calib_machine(c.machine, sizeof(c.machine));
	snprintf(c.build, sizeof(c.build), "%s", *r.build ? r.build : "unknown");
	strftime(c.date, sizeof(c.date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	c.runs = r.n;
	c.min_bytes_per_s = r.bw[0];
	c.max_bytes_per_s = r.bw[r.n - 1];
	/* Every run of a counting build prints one; a mix would be a bug. */
	c.block_ns = r.nblock == r.n ? uvm_median(r.block_ns, r.nblock) : 0;
	rc = uvm_calib_write(path, &c);
	if (rc) {
		fprintf(stderr, "uvmemu calibrate: cannot write %s: %s\n", path, strerror(-rc));
		return 1;
	}
	printf("median %.2f GB/s (range %.2f-%.2f, %+.1f%%/%+.1f%% of the median) over %u runs\n",
	       c.bytes_per_s / 1e9, c.min_bytes_per_s / 1e9, c.max_bytes_per_s / 1e9,
	       100 * (c.min_bytes_per_s / c.bytes_per_s - 1),
	       100 * (c.max_bytes_per_s / c.bytes_per_s - 1), c.runs);
	if (c.block_ns > 0)
		printf("kernel code: %.3g ns of CPU time per basic block (range %.3g-%.3g), "
		       "the price of a block under --compute blocks\n",
		       c.block_ns, r.block_ns[0], r.block_ns[r.nblock - 1]);
	for (unsigned i = 0; i < r.ngpu; i++)
		printf("--dilation auto --gpu %s: D = %.2f\n", r.gpu[i].name,
		       r.gpu[i].bytes_per_s / c.bytes_per_s);
	printf("saved: %s (machine %s, build %s)\n", path, c.machine, c.build);
	return 0;
}
