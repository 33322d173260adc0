/* SPDX-License-Identifier: MIT */
/*
 * trace.h - per-run traces, written by a background thread.
 *
 * With --trace DIR a run writes, as CSV with a header line:
 *   DIR/batches.csv   one row per batch (and per eviction outside a batch):
 *                     every counter and stage time of stats.def, so that the
 *                     rows add up to the report's totals
 *   DIR/kernels.csv   one row per kernel launch: name, shape, begin and end, data
 *                     reuse (touched and reused blocks, rate, source: reuse.h),
 *                     and the allocations it used: arg_allocs, those it was
 *                     given pointers into as arguments; dev_allocs, the others
 *                     its kernel reached through EMU_DEV (allocation ids as in
 *                     allocations.csv, space-separated; a list too long for
 *                     the row ends in "+N", the ids left out); under
 *                     --clock model its modelled begin and end,
 *                     model_begin_s and model_end_s (empty otherwise)
 *   DIR/accesses.csv  per launch, the blocks it touched and how often
 *                     (from far faults, or from the GMMU accessors)
 *   DIR/allocations.csv  one row per allocation (and per label given it):
 *                     id, kind, first block, blocks, bytes, name
 *   DIR/faults.csv    with --trace-faults on: one row per fault and outcome;
 *                     its last column, gpu_id, is a far fault's GPU (the
 *                     device view it hit; empty for a CPU fault)
 *   and under --clock model the model's own records, times in modelled
 *   seconds since the GPU's clock began (the run's start):
 *   DIR/gpu_batches.csv    one row per modelled batch: batch (its number),
 *                     start_s, end_s, faults, vablocks, pages (distinct),
 *                     h2d_bytes, d2h_bytes (the transfers charged to it)
 *   DIR/gpu_transfers.csv  one row per booking of the link: dir (h2d, d2h),
 *                     start_s, end_s (the direction busy; its latency
 *                     follows), bytes (the CPU-GPU link's: the peer links'
 *                     bookings are the timeline's alone)
 *   DIR/gpu_stalls.csv     one row per stall of a modelled CTA slot on its
 *                     far faults: slot, start_s, end_s
 *   DIR/timeline.json the run as a Perfetto / chrome://tracing timeline
 *                     (timeline.h), written when the run ends: batches,
 *                     CTAs, fault stalls, link transfers, kernels
 * --record-trace FILE writes the access rows to FILE as well (the input of
 * --evict opt in a later run). A "block" in these files is a 64 KB basic
 * block (arena offset >> 16) at either migration unit: the access counters
 * count per basic block, and a trace written under --page-size 4k reads as
 * one written under 64k (uvmemu profile, the plots, --opt-trace).
 *
 * Producers (the driver, the executor's threads at kernel and CTA
 * boundaries, the link at each booking, the GPU's clock at each modelled
 * batch and stall) append fixed-size records to a bounded queue. An
 * observation (a batch, fault, CTA, transfer or stall) never waits: when the
 * queue is full it is dropped and counted, and the report says how many.
 * The accesses, kernels and allocations are data (uvmemu profile and
 * --evict opt read them), made on the program's threads at kernel ends and
 * allocations: their producer waits for room, so they are never dropped.
 */
#ifndef UVM_TRACE_H
#define UVM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "events.h"
#include "gpu.h"
#include "model.h"
#include "pool.h"
#include "residency.h"
#include "reuse.h"
#include "stats.h"
#include "uvmemu.h"
#include "tidmap.h"

struct uvm_trace;

/* What the trace reads besides its records: device memory in use (batch
 * rows), the model's link (its transfers, for the timeline) and which SM
 * each thread is (fault rows). Any may be NULL. */
struct uvm_trace_deps {
	struct uvm_pool *pool;
	struct uvm_model *model;
	const struct uvm_tidmap *workers; /* thread id -> SM */
};

/* A fault row (faults.csv, the timeline's stalls). */
struct uvm_trace_fault {
	uint64_t t_ns, page; /* time since the run began; arena offset of the page */
	uint64_t launch;     /* current launch index (UINT64_MAX: none yet) */
	uint32_t tid;
	int32_t sm;	/* -1 when the thread is not an executor worker */
	uint32_t count; /* fault messages coalesced into this one */
	uint8_t gpu, write, outcome;
	uint8_t dev; /* a far fault's GPU (faults.csv's gpu_id) */
};

/* A kernel's modelled begin and end (--clock model), for its kernels.csv row. */
struct uvm_trace_span {
	uint64_t begin_ns, end_ns;
};

/* The allocations a launch used, for its kernels.csv row. */
#define UVM_TRACE_OBJS 48
struct uvm_trace_objs {
	uint32_t nargs, ndev;	      /* id[0 .. nargs): arguments; then ndev by EMU_DEV */
	uint32_t more_args, more_dev; /* ids of each list that did not fit */
	uint32_t id[UVM_TRACE_OBJS];
};


/* Opens the files cfg asks for (nothing when it asks for none: *out NULL);
 * a directory or file that cannot be written is a one-line error. */
int uvm_trace_open(struct uvm_trace **out, const struct uvm_config *cfg, uint64_t start_ns,
		   const struct uvm_trace_deps *deps, char *err, size_t errlen);
/* Waits until every record queued so far is written and the files flushed,
 * and writes timeline.json (at exit, when producers may still add a few rows
 * after: those reach the CSVs only). */
void uvm_trace_flush(struct uvm_trace *t);
/* Drains the queue, closes the files and frees the trace. */
void uvm_trace_close(struct uvm_trace *t);

bool uvm_trace_wants_faults(const struct uvm_trace *t);
bool uvm_trace_wants_accesses(const struct uvm_trace *t);
/* Whether CTA boundaries are wanted (the timeline has room for them). */
bool uvm_trace_wants_ctas(const struct uvm_trace *t);

/* The fault path's events it writes (batch rows, fault rows): an observer of
 * the driver's (residency.h); NULL callbacks where t writes none. */
struct uvm_res_observer uvm_trace_observer(struct uvm_trace *t);
/* The model's records it writes (gpu_batches.csv, gpu_stalls.csv, the
 * timeline's process 2): an observer of the GPU's clock (gpu.h); NULL
 * callbacks under --clock real or without a trace directory. */
struct uvm_gpu_observer uvm_trace_gpu_observer(struct uvm_trace *t);
void uvm_trace_access(struct uvm_trace *t, uint64_t launch, const char *kernel, uint32_t alloc,
		      uint64_t block, uint64_t count, bool from_gmmu);
/* begin_ns, end_ns: uvm_now_ns() times; modelled: NULL under --clock real. */
void uvm_trace_kernel(struct uvm_trace *t, uint64_t launch, const struct uvmemu_launch *l,
		      uint64_t begin_ns, uint64_t end_ns, const struct uvm_trace_span *modelled,
		      const struct uvm_reuse_launch *reuse, const struct uvm_trace_objs *objs);
void uvm_trace_allocation(struct uvm_trace *t, uint32_t id, const char *kind, uint64_t first,
			  uint64_t bytes, const char *name);
/* A CTA began or ended on worker thread tid (times from uvm_now_ns()). */
void uvm_trace_cta(struct uvm_trace *t, uint32_t tid, unsigned sm, uint64_t launch, unsigned cta,
		   bool begin, uint64_t t_ns);

/* Rows written and records dropped so far; the directory (or ""). */
void uvm_trace_counts(struct uvm_trace *t, uint64_t *written, uint64_t *dropped);
/* timeline.json once written: its events per process, what it dropped and
 * its worker tracks; false if there is none (yet), with a reason in why. */
struct uvm_tl_counts;
bool uvm_trace_timeline(struct uvm_trace *t, struct uvm_tl_counts *out, char *why, size_t len);
const char *uvm_trace_dir(const struct uvm_trace *t);

#endif
