// SPDX-License-Identifier: MIT
/*
 * uvmemu - the command: run a program under the emulator, describe this
 * machine's support for it.
 *
 *   uvmemu run [options] -- PROGRAM [ARGS...]
 *   uvmemu profile --out FILE [options] -- PROGRAM [ARGS...]
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
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "emu.h"
#include "plot.h"
#include "policy.h"

#ifndef UVMEMU_VERSION
#define UVMEMU_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	fprintf(f, "usage: uvmemu run [options] -- PROGRAM [ARGS...]\n"
		   "       uvmemu profile --out FILE [options] -- PROGRAM [ARGS...]  (the object "
		   "profile\n"
		   "                      of --objects; uvmemu profile --help)\n"
		   "       uvmemu calibrate [--runs N] [--out FILE]  (the executor's bandwidth, "
		   "saved for\n"
		   "                      --dilation auto)\n"
		   "       uvmemu info\n"
		   "       uvmemu plot DIR | --compare [--out PREFIX] REPORT.json... | --timeline "
		   "DIR\n"
		   "                                    (figures, timeline; uvmemu plot --help)\n"
		   "       uvmemu --help | --version\n\n"
		   "Runs PROGRAM (linked to libuvmemu_native.so) with GPU unified memory "
		   "emulated:\nmanaged memory takes real page faults, migrates between host "
		   "and device\nmemory, and is evicted when device memory is full.\n\n"
		   "run options (each also a variable: --device-mem is UVMEMU_DEVICE_MEM, and a\n"
		   "line of a --config file: device-mem = 512M; options win over variables,\n"
		   "variables over the file):\n");
	uvm_config_print_help(f);
	fputc('\n', f);
	uvm_policy_print_help(f);
	fprintf(f, "\nSizes take K, M, G, T (powers of 1024); bandwidths K, M, G (powers of "
		   "1000) per second;\ndurations ns, us, ms or s (a bare number is "
		   "microseconds).\n");
}

static int cmd_run(int argc, char **argv)
{
	static struct uvm_config cfg; /* large (a config file's text): not on the stack */
	int prog, rc;

	rc = uvm_cli_options("uvmemu run", argc, argv, &cfg, &prog);
	if (!rc)
		rc = uvm_cli_environment("uvmemu run", &cfg);
	if (rc)
		return rc;
	execvp(argv[prog], &argv[prog]);
	fprintf(stderr, "uvmemu run: cannot run '%s': %s\n", argv[prog], strerror(errno));
	return errno == ENOENT ? 127 : 126;
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
		return uvm_emu_info(stdout);
	if (strcmp(argv[1], "plot") == 0)
		return uvm_cmd_plot(argc - 2, argv + 2);
	if (strcmp(argv[1], "profile") == 0)
		return uvm_cmd_profile(argc - 2, argv + 2);
	if (strcmp(argv[1], "calibrate") == 0)
		return uvm_cmd_calibrate(argc - 2, argv + 2);
	fprintf(stderr,
		"uvmemu: unknown command '%s'; commands are run, profile, calibrate, info, plot "
		"(uvmemu --help)\n",
		argv[1]);
	return 2;
}
