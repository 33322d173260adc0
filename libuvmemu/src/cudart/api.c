// SPDX-License-Identifier: MIT
/*
 * api.c - the uvmemu.h calls a workload makes, on a real GPU: the region of
 * interest, the verdict, report values, and the launch hooks emu-gpu's CUDA
 * build calls (emu-gpu/cuda/launch.c).
 *
 * Options come from the environment, as the emulator's do, and are checked
 * before main: the emulator's UVMEMU_REPORT=FILE (the JSON report) and
 * UVMEMU_SUMMARY=on|off (the line on stderr at exit), and this library's own
 * UVMC_CUPTI=on|off (CUPTI's Unified Memory counters; off leaves only the
 * CUDA events) and UVMC_CUPTI_LIB=PATH (which libcupti to load), named apart
 * because the emulator refuses UVMEMU_ variables it does not know.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cudart.h"

static struct uvmc_run run = {.summary = true};
static bool exit_hooked, active;
static double roi_start_s;
static int roi_depth;

double uvmc_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const struct uvmc_run *uvmc_run(void)
{
	return &run;
}

static bool on_off(const char *name, bool dflt)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return dflt;
	if (strcmp(v, "on") == 0)
		return true;
	if (strcmp(v, "off") == 0)
		return false;
	fprintf(stderr, "uvmemu: %s='%s': accepted values are on, off\n", name, v);
	exit(2);
}

/* Options are checked before main, so that a bad one stops the program
 * before any work; CUPTI is loaded then, and started at uvmc_attach. */
__attribute__((constructor)) static void uvmc_init(void)
{
	const char *lib = getenv("UVMC_CUPTI_LIB");

	run.wall_start_s = uvmc_now_s();
	run.report_path = getenv("UVMEMU_REPORT");
	if (run.report_path && !*run.report_path)
		run.report_path = NULL;
	run.summary = on_off("UVMEMU_SUMMARY", true);
	if (on_off("UVMC_CUPTI", true))
		run.cupti_why = uvmc_cupti_load(lib && *lib ? lib : NULL);
	else
		run.cupti_why = "off (UVMC_CUPTI=off)";
}

/* A program that launched and timed nothing (gpu-info, or one stopped by a
 * usage error or after its usage text) has nothing to report. */
static void at_exit(void)
{
	if (active && !run.usage_error && !run.usage_shown)
		uvmc_report(&run);
}

/*
 * The report flushes CUPTI and reads CUDA events, so it must run before the
 * CUDA runtime's own exit handler tears the context down: handlers run in
 * the reverse order of registration, and the runtime registers its own at
 * the program's first CUDA call, which this makes if the program has not
 * (uvmc_cupti_enable's cudaGetDeviceCount, or cudaFree(NULL)).
 */
void uvmc_attach(void)
{
	if (exit_hooked)
		return;
	exit_hooked = true;
	if (!run.cupti_why)
		run.cupti_why = uvmc_cupti_enable();
	else
		cudaFree(NULL);
	atexit(at_exit);
}

void uvmemu_roi_begin(void)
{
	uvmc_attach();
	active = true;
	if (roi_depth++ == 0) {
		/* Work queued before the region is not the region's. */
		cudaDeviceSynchronize();
		uvmc_cupti_roi(true);
		roi_start_s = uvmc_now_s();
	}
}

void uvmemu_roi_end(void)
{
	if (roi_depth > 0 && --roi_depth == 0) {
		cudaDeviceSynchronize();
		run.roi_s += uvmc_now_s() - roi_start_s;
		uvmc_cupti_roi(false);
	}
}

void uvmemu_report_value(const char *key, double value)
{
	for (unsigned i = 0; i < run.nvalues; i++)
		if (strcmp(run.values[i].key, key) == 0) {
			run.values[i].value = value;
			return;
		}
	if (run.nvalues == sizeof(run.values) / sizeof(run.values[0]))
		return;
	snprintf(run.values[run.nvalues].key, sizeof(run.values[0].key), "%s", key);
	run.values[run.nvalues++].value = value;
}

void uvmemu_set_verify(enum uvmemu_verify verdict)
{
	run.verify = verdict;
}

void uvmemu_usage_error(void)
{
	run.usage_error = true;
}

void uvmemu_usage_shown(void)
{
	run.usage_shown = true;
}

/* Names are for the emulator's traces; a real GPU has none. */
void uvmemu_label(const void *p, const char *name)
{
	(void)p;
	(void)name;
}

bool uvmemu_is_emulated(void)
{
	return false;
}

uint64_t uvmemu_kernel_begin(const struct uvmemu_launch *launch)
{
	(void)launch;
	uvmc_attach();
	active = true;
	return uvmc_kernel_begin();
}

void uvmemu_kernel_end(uint64_t launch_index)
{
	uvmc_kernel_end(launch_index);
}
