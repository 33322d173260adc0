// SPDX-License-Identifier: MIT
/*
 * cmd_profile.c - `uvmemu profile --out FILE [options] -- PROGRAM [ARGS...]`:
 * runs PROGRAM under the emulator once, recording which allocations each
 * kernel launch used and which of their 64 KB blocks it touched, and writes
 * the object profile (objects/profile.h) that --objects-profile reads.
 *
 * Exactness. The run's access trace lists, per launch, the blocks whose
 * access counters grew during it. With GMMU accessors every access counts.
 * Without them only far faults count, and a block still on the device from
 * an earlier launch would not fault; so the profile runs with
 * --flush-launches on (every managed block back on the host before each
 * launch: each block a launch touches then faults in that launch, and its
 * accesses are counted from the launch's start), --prefetch none (a block
 * brought along by a prefetcher would not fault), no object manager, and
 * unlimited device memory (no block is evicted and faulted again within a
 * launch, so the accesses are the launch's own). Given explicitly with other
 * values, those options are an error. --trace DIR keeps the traces (else a
 * temporary directory under $TMPDIR is removed with all they wrote);
 * --record-trace FILE writes the same access trace for --evict opt. The
 * trace never drops an access, kernel or allocation record (their producers
 * wait for the writer: trace.h), so a loaded machine cannot thin a profile.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "plot.h"
#include "profile.h"
#include "tmpdir.h"

#define CMD "uvmemu profile"

static const struct {
	const char *name, *value, *why;
} forced[] = {
    {"flush-launches", "on", "every block a launch touches must fault in it"},
    {"prefetch", "none", "a prefetched block would not fault when the launch touches it"},
    {"objects", "none", "an object manager would move blocks before the launch"},
    {"device-mem", "0", "an eviction within a launch would count its blocks twice"},
    {"oversub", "0", "an eviction within a launch would count its blocks twice"},
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: " CMD " --out FILE [run options] -- PROGRAM [ARGS...]\n\n"
	    "Runs PROGRAM under the emulator and writes its object profile to FILE: per kernel\n"
	    "launch, the allocations it used, the bytes of each it touched, the access density\n"
	    "(touched / size) and the launches until each is used again. --objects "
	    "host|lru|rlm|glm|rdm\n"
	    "--objects-profile FILE plans from it. The format is described in\n"
	    "libuvmemu/src/objects/profile.h and docs/policies.md.\n\n"
	    "The run uses --flush-launches on, --prefetch none, --objects none and unlimited\n"
	    "device memory; --trace DIR keeps its traces, --record-trace FILE writes the access\n"
	    "trace --evict opt reads. Other run options (uvmemu --help) pass through.\n");
}

/* Takes --out FILE (or --out=FILE) out of the options before the program. */
static int take_out(int *argc, char **argv, const char **out)
{
	for (int i = 0; i < *argc; i++) {
		const char *a = argv[i];
		int drop;

		if (strcmp(a, "--") == 0 || strncmp(a, "--", 2) != 0)
			break;
		if (strncmp(a, "--out=", 6) == 0) {
			*out = a + 6;
			drop = 1;
		} else if (strcmp(a, "--out") == 0) {
			if (i + 1 >= *argc) {
				fprintf(stderr, CMD ": --out needs a file name\n");
				return 2;
			}
			*out = argv[i + 1];
			drop = 2;
		} else {
			/* an option's value may follow it */
			if (!strchr(a, '=') && i + 1 < *argc)
				i++;
			continue;
		}
		memmove(&argv[i], &argv[i + drop], (size_t)(*argc - i - drop + 1) * sizeof(*argv));
		*argc -= drop;
		i--;
	}
	if (!*out || !**out) {
		fprintf(stderr, CMD ": --out FILE is required (where the profile goes)\n");
		return 2;
	}
	return 0;
}

static int force(struct uvm_config *cfg)
{
	char err[UVM_ERRLEN];

	for (size_t i = 0; i < sizeof(forced) / sizeof(forced[0]); i++) {
		int id = uvm_option_find(forced[i].name);
		struct uvm_config probe;

		/* The same value written differently (0 and 0M) is the same. */
		uvm_config_defaults(&probe);
		uvm_config_set(&probe, forced[i].name, forced[i].value, "profile", err,
			       sizeof(err));
		if (cfg->v[id].given &&
		    (cfg->v[id].i != probe.v[id].i || cfg->v[id].d != probe.v[id].d)) {
			fprintf(stderr, CMD ": --%s %s: a profile runs with --%s %s (%s)\n",
				forced[i].name, cfg->v[id].s, forced[i].name, forced[i].value,
				forced[i].why);
			return 2;
		}
		if (uvm_config_set(cfg, forced[i].name, forced[i].value, "profile", err,
				   sizeof(err))) {
			fprintf(stderr, CMD ": %s\n", err);
			return 2;
		}
	}
	return 0;
}

/* ------------------------------------------------------- the traces */

static int cmp_alloc(const void *a, const void *b)
{
	uint32_t x = ((const struct plot_alloc *)a)->id, y = ((const struct plot_alloc *)b)->id;

	return x < y ? -1 : x > y;
}

static const struct plot_alloc *alloc_of(const struct plot_allocs *al, uint32_t id)
{
	for (size_t i = 0; i < al->n; i++)
		if (al->a[i].id == id)
			return &al->a[i];
	return NULL;
}

/* One id list of kernels.csv ("0 3 5"); ids of no managed object are skipped. */
static int kernel_uses(const struct plot_csv *c, int col, struct uvm_objprof *p, uint64_t launch,
		       char *err, size_t len)
{
	const char *s = c->field[col];

	while (*s) {
		char *end;
		unsigned long long id;

		if (*s == ' ') {
			s++;
			continue;
		}
		if (*s == '+')
			return plot_csv_bad(
			    c, err, len, "the launch used more allocations than kernels.csv lists");
		errno = 0;
		id = strtoull(s, &end, 10);
		if (end == s || errno || id > UINT32_MAX || (*end && *end != ' '))
			return plot_csv_bad(c, err, len, "an allocation id list that is not one");
		s = end;
		if (uvm_objprof_find(p, (uint32_t)id) >= 0 &&
		    uvm_objprof_add_use(p, launch, (uint32_t)id, 0, 0))
			return plot_csv_bad(c, err, len, "out of memory");
	}
	return 0;
}

static int kernel_row(const struct plot_csv *c, const int *idx, void *arg, char *err, size_t len)
{
	struct uvm_objprof *p = arg;
	uint64_t launch;

	if (plot_csv_u64(c, idx[0], &launch, err, len))
		return -1;
	if (launch != p->nlaunch)
		return plot_csv_bad(c, err, len, "launches are not 0, 1, 2, ... in order");
	if (uvm_objprof_add_launch(p, c->field[idx[1]]))
		return plot_csv_bad(c, err, len, "out of memory");
	return kernel_uses(c, idx[2], p, launch, err, len) ||
		       kernel_uses(c, idx[3], p, launch, err, len)
		   ? -1
		   : 0;
}

struct accesses {
	const struct plot_allocs *al;
	struct uvm_objprof *p;
};

/* A block a launch touched: its bytes (the last block cut at the
 * allocation's end) and accesses. */
static int access_row(const struct plot_csv *c, const int *idx, void *arg, char *err, size_t len)
{
	struct accesses *a = arg;
	uint64_t launch, id, block, accesses, at;
	const struct plot_alloc *al;

	if (plot_csv_u64(c, idx[0], &launch, err, len) || plot_csv_u64(c, idx[1], &id, err, len) ||
	    plot_csv_u64(c, idx[2], &block, err, len) ||
	    plot_csv_u64(c, idx[3], &accesses, err, len))
		return -1;
	if (id > UINT32_MAX || uvm_objprof_find(a->p, (uint32_t)id) < 0)
		return 0; /* zero-copy memory: not an object to place */
	al = alloc_of(a->al, (uint32_t)id);
	at = (block - al->first_block) * 65536;
	if (block < al->first_block || at >= al->bytes || launch >= a->p->nlaunch)
		return plot_csv_bad(
		    c, err, len, "a block outside its allocation, or a launch kernels.csv lacks");
	if (uvm_objprof_add_use(a->p, launch, (uint32_t)id,
				al->bytes - at < 65536 ? al->bytes - at : 65536, accesses))
		return plot_csv_bad(c, err, len, "out of memory");
	return 0;
}

/* The profile of the run whose traces are in dir. */
static int build(const char *dir, struct uvm_objprof *p, char *err, size_t len)
{
	static const char *const kernel_cols[] = {"launch", "kernel", "arg_allocs", "dev_allocs"};
	static const char *const access_cols[] = {"launch", "alloc", "block", "accesses"};
	struct plot_allocs al;
	struct accesses acc = {&al, p};
	int rc = -1;

	uvm_objprof_init(p);
	if (plot_allocs_read(&al, dir, err, len))
		return -1;
	qsort(al.a, al.n, sizeof(*al.a), cmp_alloc);
	for (size_t i = 0; i < al.n; i++) {
		if (strcmp(al.a[i].kind, "managed") != 0)
			continue;
		if (uvm_objprof_add_object(p, al.a[i].id, al.a[i].bytes, al.a[i].name)) {
			snprintf(err, len, "out of memory");
			goto out;
		}
	}
	if (plot_csv_each(dir, "kernels.csv", kernel_cols, 4, kernel_row, p, err, len) ||
	    plot_csv_each(dir, "accesses.csv", access_cols, 4, access_row, &acc, err, len))
		goto out;
	if (!p->nlaunch) {
		snprintf(err, len, "the program launched no kernel: nothing to profile");
		goto out;
	}
	if (uvm_objprof_finish(p, NULL)) {
		snprintf(err, len, "%s: inconsistent traces (more bytes touched than allocated)",
			 dir);
		goto out;
	}
	rc = 0;
out:
	plot_allocs_free(&al);
	if (rc)
		uvm_objprof_free(p);
	return rc;
}

static int write_profile(const char *out, const struct uvm_objprof *p, char *err, size_t len)
{
	char tmp[PATH_MAX];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= (int)sizeof(tmp)) {
		snprintf(err, len, "%s: name too long", out);
		return -1;
	}
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, len, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	if (uvm_objprof_write(p, f) | fclose(f) || rename(tmp, out)) {
		snprintf(err, len, "cannot write %s: %s", out, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- the command */

static int run_program(char **argv)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		fprintf(stderr, CMD ": fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, CMD ": cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int uvm_cmd_profile(int argc, char **argv)
{
	static struct uvm_config cfg; /* large (a config file's text): not on the stack */
	char dir[PATH_MAX];
	char err[PLOT_ERRLEN];
	const char *out = NULL;
	struct uvm_objprof p;
	bool own_dir = false;
	int prog, rc, st;

	if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	rc = take_out(&argc, argv, &out);
	if (!rc)
		rc = uvm_cli_options(CMD, argc, argv, &cfg, &prog);
	if (!rc)
		rc = force(&cfg);
	if (rc)
		return rc;
	snprintf(dir, sizeof(dir), "%s", uvm_cfg_s(&cfg, UVM_OPT_trace));
	if (!*dir) {
		if (tool_tmpdir_make(dir, sizeof(dir), "uvmemu-profile-", err, sizeof(err))) {
			fprintf(stderr, CMD ": %s\n", err);
			return 1;
		}
		own_dir = true;
		uvm_config_set(&cfg, "trace", dir, "profile", err, sizeof(err));
	}
	rc = uvm_cli_environment(CMD, &cfg);
	if (rc)
		goto out;
	st = run_program(&argv[prog]);
	if (st != 0) {
		fprintf(stderr, CMD ": %s exited with status %d; no profile written\n", argv[prog],
			st);
		rc = st > 0 ? st : 1;
		goto out;
	}
	if (build(dir, &p, err, sizeof(err))) {
		fprintf(stderr, CMD ": %s\n", err);
		rc = 2;
		goto out;
	}
	if (write_profile(out, &p, err, sizeof(err))) {
		fprintf(stderr, CMD ": %s\n", err);
		rc = 1;
	} else {
		fprintf(stderr, CMD ": wrote %s: %zu objects, %zu launches, %zu uses\n", out,
			p.nobj, p.nlaunch, p.nuse);
	}
	uvm_objprof_free(&p);
out:
	if (own_dir)
		tool_tmpdir_remove(dir);
	return rc;
}
