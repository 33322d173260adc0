/* SPDX-License-Identifier: MIT */
/*
 * events.h - what the fault path tells its observers (residency.h's
 * observer interface carries them): each fault and what became of it, and
 * each batch's counters when they are published. The driver emits them;
 * observation (traces, the timeline) hears them without the driver knowing
 * who listens.
 */
#ifndef UVM_EVENTS_H
#define UVM_EVENTS_H

#include <stdint.h>

#include "stats.h"

/* What became of a fault. */
enum uvm_fault_outcome {
	UVM_OUT_MIGRATED,   /* moved to the device (or back to the host) */
	UVM_OUT_ZERO_FILL,  /* first GPU touch: zero-filled on the device */
	UVM_OUT_HOST_FILL,  /* first CPU touch: populated on the host */
	UVM_OUT_REMOTE,	    /* mapped remotely, data stays on the host */
	UVM_OUT_STALE,	    /* already resolved when serviced */
	UVM_OUT_DUPLICATE,  /* same page as an earlier fault of the batch */
	UVM_OUT_DEFERRED,   /* conflicting with the other side: next batch */
	UVM_OUT_THROTTLED,  /* thrashing mitigation held it back */
	UVM_OUT_REMAPPED,   /* host page mapped again (minor fault) */
	UVM_OUT_FREED,	    /* its allocation was freed meanwhile */
	UVM_OUT_READ_DUP,   /* read-duplicated (read-mostly advice) */
	UVM_OUT_PREFETCHED, /* no fault: a block the prefetcher brought along */
	UVM_OUT_SAMPLED,    /* a REMOTE block sampling had unmapped: counted, mapped again
			     * (or migrated, its count having met the threshold) */
	UVM_OUT_PROBED,	    /* a DEVICE block a reuse probe had unmapped: mapped again */
	UVM_OUT_REFRESHED,  /* a page the kernel had unmapped behind the driver: mapped again */
	UVM_NOUTCOMES
};

const char *uvm_fault_outcome_name(enum uvm_fault_outcome o);

/* One fault as serviced. */
struct uvm_fault_event {
	uint64_t t_ns;	 /* when its batch began (uvm_now_ns clock) */
	uint64_t page;	 /* arena offset of the faulting 4 KB page */
	uint64_t launch; /* current launch index (UINT64_MAX: none yet) */
	uint32_t tid;	 /* faulting thread */
	uint32_t count;	 /* fault messages coalesced into this one */
	uint8_t gpu, write, outcome;
	uint8_t dev; /* a far fault's (gpu 1): the GPU whose device view it hit */
};

/* Why a batch's counters were published. */
enum uvm_batch_kind {
	UVM_BATCH_FAULTS, /* a batch of faults */
	UVM_BATCH_OTHER,  /* work between batches: evictions, prefetches, sampling */
};

struct uvm_batch_event {
	enum uvm_batch_kind kind;
	uint64_t seq;
	uint64_t start_ns;	/* uvm_now_ns clock */
	uint64_t model_end_ns;	/* when the model let it end (its far-fault latency and
				 * its last transfer; before the replay, its transfers' so far) */
	double dilation;	/* the model's D at the time */
	const struct uvm_stats *st; /* its counters */
};

#endif
