/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the commands that start a program under the emulator share
 * (`uvmemu run`, `uvmemu profile`): the run options, validated with the
 * library's own table, and the environment that preloads libuvmemu.so.
 * Errors print one line "CMD: reason" and return 2.
 */
#ifndef UVM_CLI_H
#define UVM_CLI_H

#include "config.h"

/*
 * Reads a --config file, the UVMEMU_* variables, then the options in argv up
 * to the program
 * (after "--", or the first word not starting with "--") into cfg; *prog is
 * the program's index in argv. Options are not resolved yet (presets): a
 * caller may still set some, then calls uvm_cli_environment.
 */
int uvm_cli_options(const char *cmd, int argc, char **argv, struct uvm_config *cfg, int *prog);
/* Resolves and checks cfg, exports every option given as its UVMEMU_*
 * variable and puts libuvmemu.so first in LD_PRELOAD. */
int uvm_cli_environment(const char *cmd, struct uvm_config *cfg);
/* The directory of the running program (/proc/self/exe); 0 or -errno. */
int uvm_cli_self_dir(char *out, size_t len);

/* `uvmemu profile ARGS` (argv after the word profile): the exit status. */
int uvm_cmd_profile(int argc, char **argv);
/* `uvmemu calibrate ARGS`: the exit status. */
int uvm_cmd_calibrate(int argc, char **argv);

#endif
