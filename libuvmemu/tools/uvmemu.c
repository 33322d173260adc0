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
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "emu.h"
#include "map_touch.h"
#include "placement.h"
#include "policy.h"
#include "plot.h"
#include "tracker.h"
#include "backend.h"
#include "uffd.h"

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

static int cmd_info(void)
{
	struct uvm_config cfg;
	struct uvm_placement place;
	struct uvm_uffd u = {.fd = -1};
	struct uvm_tracker t;
	struct uvm_map_touch mt;
	struct utsname un;
	char err[UVM_ERRLEN], buf[384];
	int rc = 0;

	uvm_config_defaults(&cfg);
	uname(&un);
	printf("kernel        %s %s\n", un.sysname, un.release);
	if (uvm_uffd_open_capture(&u, UVM_CAPTURE_AUTO, err, sizeof(err))) {
		printf("capture       unusable: %s\n", err);
		rc = 1;
	} else {
		const struct uvm_backend_ops *be;

		printf("capture       auto picks %s: %s\n", uvm_uffd_capture_name(&u), u.why);
		uvm_uffd_features_str(&u, buf, sizeof(buf));
		if (!u.sig)
			printf("userfaultfd   via %s; features: %s\n", u.how, buf);
		printf("zap           %s\n", u.zap_why);
		be = uvm_backend_choose("auto", &u, -1, buf, sizeof(buf));
		printf("backend       auto picks %s: %s\n", be->name, buf);
		uvm_uffd_close(&u);
	}
	uvm_map_touch_probe(&mt);
	uvm_map_touch_describe(&mt, buf, sizeof(buf));
	printf("map touch     %s\n", buf);
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
	printf("\n");
	uvm_policy_print_help(stdout);
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
