/* SPDX-License-Identifier: MIT */
/*
 * cudart.h - internals of libuvmemu_cudart, the uvmemu API of a program
 * built for a real GPU (uvmemu_cuda_real.h): what the files share.
 */
#ifndef UVMC_CUDART_H
#define UVMC_CUDART_H

#include <stdbool.h>
#include <stdint.h>

#include "uvmemu.h"

/* What CUPTI counted: Unified Memory migrations, page faults and explicit
 * copies. */
struct uvmc_counters {
	uint64_t bytes_h2d, bytes_d2h;		     /* Unified Memory migrations */
	uint64_t memcpy_bytes_h2d, memcpy_bytes_d2h; /* cudaMemcpy */
	uint64_t gpu_fault_groups;		     /* summed over the fault records */
	uint64_t gpu_fault_records;		     /* one per faulting page */
	uint64_t cpu_faults;
};

/* cupti.c: loads CUPTI (UVMC_CUPTI_LIB, else the toolkit's); NULL when it
 * could, else why not (a static string). */
const char *uvmc_cupti_load(const char *lib);
/* Turns on its Unified Memory counters and copy records, once the driver is
 * up: NULL when they run, else why not. */
const char *uvmc_cupti_enable(void);
/* The region of interest begins or ends now (CUPTI's clock), for the
 * counters inside it. */
void uvmc_cupti_roi(bool begin);
/* Flushes CUPTI's buffers: the whole run's counters, those inside the region
 * of interest, and the records CUPTI dropped. */
void uvmc_cupti_finish(struct uvmc_counters *run, struct uvmc_counters *roi, uint64_t *dropped);
/* The library that was loaded (or NULL). */
const char *uvmc_cupti_path(void);

/* timing.c: kernel times from CUDA events around each launch. */
uint64_t uvmc_kernel_begin(void);
void uvmc_kernel_end(uint64_t launch);
/* Waits for the launches so far and returns their summed time. */
double uvmc_kernel_seconds(void);
uint64_t uvmc_kernel_count(void);

/* managed.c: the largest number of managed bytes live at once. */
uint64_t uvmc_managed_peak(void);

/* api.c: the program's first call of this library that comes after or
 * makes a CUDA call (a managed allocation, a launch, the region of
 * interest): CUPTI's counters start, and the report is hooked to exit. */
void uvmc_attach(void);

/* api.c: what the program reported, for report.c. */
struct uvmc_value {
	char key[48];
	double value;
};
struct uvmc_run {
	enum uvmemu_verify verify;
	bool usage_error;
	bool usage_shown; /* uvmemu_usage_shown: the usage text, no report */
	double roi_s, wall_start_s;
	struct uvmc_value values[32];
	unsigned nvalues;
	const char *report_path; /* UVMEMU_REPORT, or NULL */
	bool summary;		 /* UVMEMU_SUMMARY */
	const char *cupti_why;	 /* NULL when CUPTI counts, else why not */
};
const struct uvmc_run *uvmc_run(void);
double uvmc_now_s(void);

/* report.c: the summary on stderr and the JSON report, at exit. */
void uvmc_report(const struct uvmc_run *run);

#endif
