// SPDX-License-Identifier: MIT
/*
 * config.c - fuzz target for the option/variable parser
 * (libuvmemu/src/common/config.c): each input line is "NAME=VALUE", set as an
 * option (--NAME VALUE, as `uvmemu run` does) and, in a second configuration,
 * as the variable UVMEMU_NAME=VALUE (as the runtime reads its environment).
 * Every call returns 0 or -EINVAL with a one-line message, and a
 * configuration that passes its checks resolves without trouble.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *save = NULL, *line;
	char *env[MAX_VARS + 1];
	struct uvm_config opt, var;
	char err[UVM_ERRLEN] = "";
	int n = 0, ret;

	uvm_config_defaults(&opt);
	uvm_config_defaults(&var);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		check_set(&opt, line);
		if (n < MAX_VARS) {
			env[n] = malloc(strlen(line) + 8);
			if (!env[n])
				abort();
			sprintf(env[n++], "UVMEMU_%s", line);
		}
	}
	env[n] = NULL;
	check_whole(&opt);
	ret = uvm_config_from_env(&var, env, err, sizeof(err));
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL);
	if (ret)
		fuzz_one_line(err);
	else
		check_whole(&var);
	for (int i = 0; i < n; i++)
		free(env[i]);
	free(text);
	return 0;
}
