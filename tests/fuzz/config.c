// SPDX-License-Identifier: MIT
/*
 * config.c - fuzz target for the option/variable parser
 * (libuvmemu/src/common/config.c): each input line is "NAME=VALUE", set as an
 * option (--NAME VALUE, as `uvmemu run` does); in a second configuration as a
 * variable (UVMEMU_NAME=VALUE, or the nvidia-uvm name uvm_perf_...=VALUE as
 * given, as the runtime reads its environment); and the whole input is read
 * as a --config file by a third. Every call returns 0 or -EINVAL with a
 * one-line message, and a configuration that passes its checks resolves.
 */
#include <errno.h>

#include "config.h"
#include "fuzz.h"

#define MAX_VARS 64

static void check_set(struct uvm_config *cfg, char *line)
{
	char *eq = strchr(line, '='), err[UVM_ERRLEN] = "";
	int ret;

	if (!eq)
		return;
	*eq = '\0';
	ret = uvm_config_set(cfg, line, eq + 1, "--fuzz", err, sizeof(err));
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL);
	if (ret)
		fuzz_one_line(err);
	*eq = '=';
}

static void check_whole(struct uvm_config *cfg)
{
	char err[UVM_ERRLEN] = "";
	int ret = uvm_config_check(cfg, err, sizeof(err));

	FUZZ_ASSERT(ret == 0 || ret == -EINVAL);
	if (ret) {
		fuzz_one_line(err);
		return;
	}
	uvm_config_resolve(cfg);
	uvm_config_resolve(cfg); /* idempotent */
}

/* The environment variable for a line: driver names as they are, the rest
 * as UVMEMU_ variables. UVMEMU_CONFIG is left out: it would read a file the
 * input names. */
static char *variable(const char *line)
{
	bool driver = strncmp(line, "uvm_perf_", 9) == 0;
	char *v = malloc(strlen(line) + 8);

	if (!v)
		abort();
	sprintf(v, "%s%s", driver ? "" : "UVMEMU_", line);
	if (strncmp(v, "UVMEMU_CONFIG=", 14) == 0)
		v[0] = 'X';
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Large (a config file's text): not on the stack. The defaults parse
	 * once: a copy is the same and leaves the time to the input's lines. */
	static struct uvm_config defaults, opt, var, file;
	static bool have_defaults;
	char *text = fuzz_string(data, size), *save = NULL, *line;
	char *env[MAX_VARS + 1];
	char err[UVM_ERRLEN] = "";
	int n = 0, ret;

	if (!have_defaults) {
		uvm_config_defaults(&defaults);
		have_defaults = true;
	}
	opt = var = file = defaults;
	ret = uvm_config_read_file(&file, fuzz_path(data, size), err, sizeof(err));
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL);
	if (ret)
		fuzz_one_line(err);
	else
		check_whole(&file);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		check_set(&opt, line);
		if (n < MAX_VARS)
			env[n++] = variable(line);
	}
	env[n] = NULL;
	check_whole(&opt);
	err[0] = '\0';
	ret = uvm_config_from_env(&var, env, err, sizeof(err));
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL);
	if (ret)
		fuzz_one_line(err);
	for (int i = 0; i < n; i++)
		free(env[i]);
	free(text);
	return 0;
}
