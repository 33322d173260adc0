/* SPDX-License-Identifier: MIT */
/*
 * timeline.h - a run as a timeline in the Chrome trace-event format
 * (DIR/timeline.json; Perfetto and chrome://tracing open it).
 *
 * What it shows, twice: process 1 in real time, process 2 in modelled time
 * (what the modelled GPU would have shown; see timeline_write.c). Under
 * --clock real, process 2 is process 1's records with real time cut; under
 * --clock model it is the model's own records (uvm_timeline_model_clock),
 * described below the list. Process 1:
 *   - the driver's track: each batch a slice, its stages the children
 *     (fetch, preprocess, service with policy/unmap/copy/map inside it,
 *     fault latency, throttle, replay, tracker wait), laid end to end from
 *     the batch's start: the stage times are sums, so the order inside
 *     service is the stages', not necessarily the operations';
 *   - one track per link direction, each transfer a slice over the time the
 *     model kept the direction busy with it; with several GPUs (--gpus) one
 *     more per peer link direction used ("peer link: GPU a to GPU b");
 *   - one track per executor worker (a slot of an SM): CTAs as slices, and in
 *     them the worker's fault stalls, from the batch that fetched the fault
 *     to that batch's replay; application threads' CPU faults likewise;
 *   - kernels on a track of the process, and counters: device memory in use
 *     after each batch, faults per batch.
 * Process 2 under --clock model: the driver's track holds a slice per
 * modelled batch (its faults, vablocks, pages and bytes as arguments;
 * batches that overlap, as UVMMU's faults do, take further lanes), the link
 * tracks the link's bookings, each modelled CTA slot a track of its
 * far-fault stalls, kernels at their modelled begin and end, and the faults
 * per batch at each batch's modelled start. CTAs, the real fault stalls and
 * device memory in use are real-time records only (process 1).
 *
 * The builder is fed records in any order (a live run's trace writer, or
 * `uvmemu plot --timeline` reading an older run's CSVs) and writes the file
 * at the end. It is bounded: at most max_events events per process. Past its
 * share, worker tracks are thinned (every other one is dropped, whole, so
 * the tracks shown stay complete), then records are dropped; either way they
 * are counted, and the file and the report say how many.
 *
 * Not thread-safe: one thread feeds it (the trace writer).
 */
#ifndef UVM_TIMELINE_H
#define UVM_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu.h"
#include "stats.h"
#include "trace.h"

struct uvm_timeline;

/* One row of batches.csv: a batch, or driver work outside one (eviction). */
struct uvm_tl_batch {
	uint64_t seq;
	bool eviction;
	uint64_t start_ns;     /* since the run began */
	uint64_t model_end_ns; /* when the model let it end: its last transfer or its
				* far-fault latency (0: not known, an older trace) */
	double dilation;       /* 0: not known */
	uint64_t device_bytes; /* device memory in use at its end (UINT64_MAX: not known) */
	struct uvm_stats st;
};

struct uvm_tl_kernel {
	uint64_t launch, begin_ns, end_ns;
	bool modelled; /* --clock model: its modelled begin and end follow */
	uint64_t model_begin_ns, model_end_ns;
	unsigned grid[3], block[3];
	const char *name;
};

/* What the file holds and what it lost. */
struct uvm_tl_counts {
	uint64_t events;		     /* written per process */
	uint64_t dropped;		     /* records not shown, all kinds */
	uint64_t tracks_shown, tracks_total; /* worker tracks */
};

struct uvm_timeline *uvm_timeline_new(uint64_t max_events);
void uvm_timeline_free(struct uvm_timeline *tl);

/* Times are nanoseconds since the run began. */
void uvm_timeline_batch(struct uvm_timeline *tl, const struct uvm_tl_batch *b);
void uvm_timeline_fault(struct uvm_timeline *tl, const struct uvm_trace_fault *f);
void uvm_timeline_kernel(struct uvm_timeline *tl, const struct uvm_tl_kernel *k);
void uvm_timeline_cta(struct uvm_timeline *tl, uint32_t tid, int sm, uint64_t launch, uint32_t cta,
		      bool begin, uint64_t t_ns);
void uvm_timeline_transfer(struct uvm_timeline *tl, int dir, uint64_t bytes, uint64_t start_ns,
			   uint64_t end_ns);
/* --clock model: process 2 is built from the model's records below (times
 * modelled, ns since the GPU's clock began), not from cuts of real time. */
void uvm_timeline_model_clock(struct uvm_timeline *tl);
void uvm_timeline_gpu_batch(struct uvm_timeline *tl, const struct uvm_gpu_batch *b);
/* A booking of the link: the direction busy from start to end. */
void uvm_timeline_gpu_transfer(struct uvm_timeline *tl, int dir, uint64_t bytes, uint64_t start_ns,
			       uint64_t end_ns);
/* Several GPUs: a booking of the peer link between GPUs from and to, in
 * that direction (real time, since the run began; or under the model clock
 * modelled time). Each direction of each pair is a track of its own. */
void uvm_timeline_peer_transfer(struct uvm_timeline *tl, unsigned from, unsigned to, uint64_t bytes,
				uint64_t start_ns, uint64_t end_ns);
void uvm_timeline_gpu_peer_transfer(struct uvm_timeline *tl, unsigned from, unsigned to,
				    uint64_t bytes, uint64_t start_ns, uint64_t end_ns);
void uvm_timeline_gpu_stall(struct uvm_timeline *tl, unsigned slot, uint64_t from_ns,
			    uint64_t to_ns);
/* Whether CTA records can still be shown (producers may skip them if not). */
bool uvm_timeline_wants_ctas(const struct uvm_timeline *tl);

/*
 * Writes the whole file to f; `source` says where the records came from
 * ("run", or "rebuilt from DIR's CSVs"). Records fed after this are dropped
 * (and counted). Returns 0 or -EIO with err naming what failed.
 */
int uvm_timeline_write(struct uvm_timeline *tl, FILE *f, const char *source, char *err,
		       size_t errlen);
void uvm_timeline_counts(const struct uvm_timeline *tl, struct uvm_tl_counts *out);

#endif
