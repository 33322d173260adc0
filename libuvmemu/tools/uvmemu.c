// SPDX-License-Identifier: MIT
/*
 * uvmemu - the command: run a program under the emulator, describe this
 * machine's support for it.
 *
 *   uvmemu run [options] -- PROGRAM [ARGS...]
 *   uvmemu info
 *   uvmemu --help | --version
 *
 * `run` validates every option with the same table the library uses, turns
 * them into UVMEMU_* variables, preloads libuvmemu.so and executes PROGRAM.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "emu.h"
#include "placement.h"
#include "plot.h"
#include "tracker.h"
#include "backend.h"
#include "uffd.h"

#ifndef UVMEMU_VERSION
#define UVMEMU_VERSION "unknown"
#endif
#ifndef UVMEMU_LIBDIR
#define UVMEMU_LIBDIR "lib"
#endif

extern char **environ;

static void usage(FILE *f)
{
	fprintf(f, "usage: uvmemu run [options] -- PROGRAM [ARGS...]\n"
		   "       uvmemu info\n"
		   "       uvmemu plot DIR | --compare [--out PREFIX] REPORT.json...  (figures; "
		   "uvmemu plot --help)\n"
		   "       uvmemu --help | --version\n\n"
		   "Runs PROGRAM (linked to libuvmemu_native.so) with GPU unified memory "
		   "emulated:\nmanaged memory takes real page faults, migrates between host "
		   "and device\nmemory, and is evicted when device memory is full.\n\n"
		   "run options (each also a variable: --device-mem is UVMEMU_DEVICE_MEM):\n");
	uvm_config_print_help(f);
	fprintf(f, "\nSizes take K, M, G, T (powers of 1024); bandwidths K, M, G (powers of "
		   "1000) per second;\ndurations ns, us, ms or s (a bare number is "
		   "microseconds).\n");
}

/* libuvmemu.so next to this binary: ../lib (build tree, or the install's libdir). */
static int find_library(char *out, size_t len)
{
	static const char *const dirs[] = {"/../lib/", "/../" UVMEMU_LIBDIR "/"};
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n < 0)
		return -errno;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int n2 = snprintf(out, len, "%s%slibuvmemu.so", self, dirs[i]);

		if (n2 > 0 && (size_t)n2 < len && access(out, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

static int cmd_run(int argc, char **argv)
{
	struct uvm_config cfg;
	char err[UVM_ERRLEN], lib[PATH_MAX], preload[2 * PATH_MAX];
	const char *old;
	int i;

	uvm_config_defaults(&cfg);
	/* Variables already set count first; options override them. */
	if (uvm_config_from_env(&cfg, environ, err, sizeof(err))) {
		fprintf(stderr, "uvmemu run: %s\n", err);
		return 2;
	}
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *val, *eq;
		char name[64], origin[80];
		size_t n;

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strncmp(a, "--", 2) != 0)
			break; /* the program */
		a += 2;
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		snprintf(name, sizeof(name), "%.*s", (int)n, a);
		if (uvm_option_find(name) < 0) {
			fprintf(stderr,
				"uvmemu run: unknown option '--%s' (uvmemu --help lists them)\n",
				name);
			return 2;
		}
		val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val) {
			fprintf(stderr, "uvmemu run: option '--%s' needs a value\n", name);
			return 2;
		}
		snprintf(origin, sizeof(origin), "--%s", name);
		if (uvm_config_set(&cfg, name, val, origin, err, sizeof(err))) {
			fprintf(stderr, "uvmemu run: %s\n", err);
			return 2;
		}
	}
	uvm_config_resolve(&cfg);
	if (uvm_config_check(&cfg, err, sizeof(err))) {
		fprintf(stderr, "uvmemu run: %s\n", err);
		return 2;
	}
	if (i >= argc) {
		fprintf(stderr, "uvmemu run: no program given (uvmemu run [options] -- PROGRAM "
				"[ARGS...])\n");
		return 2;
	}
	for (int id = 0; id < UVM_OPT_COUNT; id++) {
		char var[64];

		if (!cfg.v[id].given)
			continue;
		uvm_option_env_name(id, var, sizeof(var));
		setenv(var, cfg.v[id].s, 1);
	}
	if (find_library(lib, sizeof(lib))) {
		fprintf(stderr,
			"uvmemu run: libuvmemu.so not found next to this program "
			"(looked in ../lib and ../%s)\n",
			UVMEMU_LIBDIR);
		return 2;
	}
	old = getenv("LD_PRELOAD");
	snprintf(preload, sizeof(preload), "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
	setenv("LD_PRELOAD", preload, 1);
	execvp(argv[i], &argv[i]);
	fprintf(stderr, "uvmemu run: cannot run '%s': %s\n", argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}

static int cmd_info(void)
{
	struct uvm_config cfg;
	struct uvm_placement place;
	struct uvm_uffd u = {.fd = -1};
	struct uvm_tracker t;
	struct utsname un;
	char err[UVM_ERRLEN], buf[256];
	int rc = 0;

	uvm_config_defaults(&cfg);
	uname(&un);
	printf("kernel        %s %s\n", un.sysname, un.release);
	if (uvm_uffd_open(&u, err, sizeof(err))) {
		printf("userfaultfd   unusable: %s\n", err);
		rc = 1;
	} else {
		const struct uvm_backend_ops *be;

		uvm_uffd_features_str(&u, buf, sizeof(buf));
		printf("userfaultfd   via %s; features: %s\n", u.how, buf);
		be = uvm_backend_choose("auto", &u, -1, buf, sizeof(buf));
		printf("backend       auto picks %s: %s\n", be->name, buf);
		uvm_uffd_close(&u);
	}
	uvm_tracker_init(&t, NULL, true);
	printf("io_uring      %s\n", t.async ? "available (asynchronous unmaps)" : t.why_sync);
	uvm_tracker_destroy(&t);
	if (uvm_placement_init(&place, &cfg, err, sizeof(err)) == 0) {
		printf("numa nodes    %s%s\n", place.nodes,
		       place.nnodes == 1 ? " (single node: --device-node/--host-node accept 0)"
					 : "");
	} else {
		printf("numa          %s\n", err);
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("uvmemu %s\n", UVMEMU_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 2, argv + 2);
	if (strcmp(argv[1], "info") == 0)
		return cmd_info();
	if (strcmp(argv[1], "plot") == 0)
		return uvm_cmd_plot(argc - 2, argv + 2);
	fprintf(stderr,
		"uvmemu: unknown command '%s'; commands are run, info, plot (uvmemu --help)\n",
		argv[1]);
	return 2;
}
