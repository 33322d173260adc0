// SPDX-License-Identifier: MIT
/* cli.c - run options and the preloading environment (cli.h). */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef UVMEMU_LIBDIR
#define UVMEMU_LIBDIR "lib"
#endif

extern char **environ;

/*
 * The options before the program, one at a time: --name VALUE or
 * --name=VALUE (an option's name or an nvidia-uvm parameter's alias). With
 * cfg NULL only --config's value is looked for (the last one given), so that
 * the file can be read before the variables and options that win over it.
 * Returns the index of the program, or -1 after an error.
 */
static int scan_options(const char *cmd, int argc, char **argv, struct uvm_config *cfg,
			const char **config)
{
	char err[UVM_ERRLEN];
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *val, *eq;
		char name[64], origin[80];
		size_t n;

		if (strcmp(a, "--") == 0)
			return i + 1;
		if (strncmp(a, "--", 2) != 0)
			break; /* the program */
		a += 2;
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		snprintf(name, sizeof(name), "%.*s", (int)n, a);
		if (!uvm_config_name_known(name)) {
			fprintf(stderr, "%s: unknown option '--%s' (uvmemu --help lists them)\n",
				cmd, name);
			return -1;
		}
		val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val) {
			fprintf(stderr, "%s: option '--%s' needs a value\n", cmd, name);
			return -1;
		}
		if (!cfg) {
			if (uvm_option_find(name) == UVM_OPT_config)
				*config = val;
			continue;
		}
		snprintf(origin, sizeof(origin), "--%s", name);
		if (uvm_config_set(cfg, name, val, origin, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", cmd, err);
			return -1;
		}
	}
	return i;
}

int uvm_cli_options(const char *cmd, int argc, char **argv, struct uvm_config *cfg, int *prog)
{
	char err[UVM_ERRLEN];
	const char *config = NULL;
	int i;

	uvm_config_defaults(cfg);
	if (scan_options(cmd, argc, argv, NULL, &config) < 0)
		return 2;
	/* The file, then variables already set, then the options. */
	if (uvm_config_load(cfg, environ, config, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return 2;
	}
	i = scan_options(cmd, argc, argv, cfg, NULL);
	if (i < 0)
		return 2;
	if (i >= argc) {
		fprintf(stderr, "%s: no program given (%s [options] -- PROGRAM [ARGS...])\n", cmd,
			cmd);
		return 2;
	}
	*prog = i;
	return 0;
}

int uvm_cli_self_dir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	char *slash;

	if (n < 0)
		return -errno;
	out[n] = '\0';
	slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

/* The emulator library `name` (libuvmemu.so, or libuvmemu_4k.so for
 * --page-size 4k) next to this binary: ../lib (build tree, or the install's
 * libdir). */
static int find_library(const char *name, char *out, size_t len)
{
	static const char *const dirs[] = {"/../lib/", "/../" UVMEMU_LIBDIR "/"};
	char self[PATH_MAX];
	int rc = uvm_cli_self_dir(self, sizeof(self));

	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int n2 = snprintf(out, len, "%s%s%s", self, dirs[i], name);

		if (n2 > 0 && (size_t)n2 < len && access(out, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

int uvm_cli_environment(const char *cmd, struct uvm_config *cfg)
{
	char err[UVM_ERRLEN], lib[PATH_MAX], preload[2 * PATH_MAX];
	const char *old, *name;

	uvm_config_resolve(cfg);
	if (uvm_config_check(cfg, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return 2;
	}
	for (int id = 0; id < UVM_OPT_COUNT; id++) {
		char var[64];

		if (!cfg->v[id].given)
			continue;
		uvm_option_env_name(id, var, sizeof(var));
		setenv(var, cfg->v[id].s, 1);
	}
	name = uvm_page_size_library(cfg);
	if (find_library(name, lib, sizeof(lib))) {
		fprintf(stderr,
			"%s: %s not found next to this program (looked in ../lib and ../%s)\n", cmd,
			name, UVMEMU_LIBDIR);
		return 2;
	}
	old = getenv("LD_PRELOAD");
	snprintf(preload, sizeof(preload), "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
	setenv("LD_PRELOAD", preload, 1);
	return 0;
}
