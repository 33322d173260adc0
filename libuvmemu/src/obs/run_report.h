/* SPDX-License-Identifier: MIT */
/*
 * run_report.h - what an emulated run's report adds to the common one: the facts
 * the emulator gathers from its parts at the end of a run (emu/report.c),
 * written as the report's JSON keys and the summary's lines.
 */
#ifndef UVM_RUN_REPORT_H
#define UVM_RUN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fault_cost.h"
#include "gpu.h"
#include "json.h"
#include "map_touch.h"
#include "per_gpu.h"
#include "reuse.h"
#include "stats.h"
#include "trace.h"

/* One allocation's row of the thrashing table. */
struct uvm_report_alloc {
	uint64_t id;
	const char *name;
	uint64_t bytes, thrashed, distinct;
};

/* Several GPUs: one GPU's figures, and one peer link's bookings. */
struct uvm_report_gpu {
	struct uvm_gpu_counts c;
	uint64_t peak_device_bytes; /* its pool's peak */
};
struct uvm_report_peer {
	unsigned a, b; /* the pair, a < b */
	const char *link;
	uint64_t bytes_ab, bytes_ba; /* booked a -> b and b -> a */
};

struct uvm_run_facts {
	/* The model, undilated, and the dilation it ran at. */
	const char *link;
	double link_bw;
	uint64_t link_latency_ns;
	bool link_unlimited;
	double dilation;
	double block_ns; /* --compute blocks: CPU ns per counted block; 0: CPU time */
	bool counted;	 /* the executor's programs count their blocks */
	bool uvmmu; /* --fault-path uvmmu: fault_latency_ns is --uvmmu-latency */
	uint64_t fault_latency_ns;
	double calib_measured, calib_target; /* bytes/s; 0 when not calibrated */
	const char *calib_gpu, *calib_source;
	/* The mechanisms. */
	const char *backend, *backend_why;
	bool shared_frames;
	const char *capture, *capture_why, *uffd_via, *uffd_features, *zap;
	bool capture_blind; /* the capture does not see kernel-mode touches */
	const char *sync_reason, *driver_wait, *driver_sched;
	bool driver_realtime;
	const char *placement;
	int device_node, host_node;
	const char *capacity_note;
	bool counts_faults; /* far faults count accesses (no GMMU accessors) */
	uint64_t remote_blocks;
	/* --gmmu measure: what the accessors measured crossing remotely. */
	bool remote_measured;
	uint64_t exact_bytes, exact_xacts;
	struct uvm_stats st;
	/* Thrashing: blocks by round trips, and per allocation. */
	const uint64_t *trips;
	size_t ntrips;
	const struct uvm_report_alloc *allocs;
	size_t nallocs;
	/* --gpus N > 1: per GPU (N of them) and per peer link (N(N-1)/2);
	 * ngpus 1 writes neither. */
	unsigned ngpus;
	const struct uvm_report_gpu *gpus;
	const struct uvm_report_peer *peers;
	size_t npeers;
	/* The model clock's figures (NULL: the real clock). */
	const struct uvm_gpu_figures *gpu;
	/* Observation. */
	const struct uvm_map_touch *map_touch;
	/* The model clock's take-off per far fault (NULL: not probed). */
	const struct uvm_fault_cost *fault_cost;
	const struct uvm_reuse_run *reuse;
	struct uvm_trace *trace; /* NULL when none was written */
};

void uvm_obs_report_json(const struct uvm_run_facts *f, struct uvm_json *j);
void uvm_obs_report_text(const struct uvm_run_facts *f, FILE *out);

#endif
