/* SPDX-License-Identifier: MIT */
/*
 * per_gpu.h - what each GPU of a run of several (--gpus N > 1) saw: its far
 * faults, the copies it gained and lost, and where the copies evicted from
 * it went (the report's `gpus` array). An observer of the driver's
 * residency and fault-path events (residency.h, events.h); the emulator
 * gives it to the driver only when there are several GPUs, so that a run of
 * one does no more work than before.
 *
 * The driver thread alone writes the counts; the report reads them from any
 * thread, at the end of a run or when a signal ends it.
 */
#ifndef UVM_PER_GPU_H
#define UVM_PER_GPU_H

#include <stdatomic.h>
#include <stdint.h>

#include "residency.h"
#include "space.h" /* UVM_MAX_GPUS */

/* One GPU's counts, as the report writes them. */
struct uvm_gpu_counts {
	/* GPU far faults whose device view was this GPU's: fault messages
	 * (duplicates included) with their final outcome, as gpu_faults counts
	 * them; a deferred fault counts once, where it ends. */
	uint64_t far_faults;
	uint64_t blocks_in;  /* copies gained (migrated, zero-filled, duplicated, from a peer) */
	uint64_t blocks_out; /* copies lost (migrated, evicted, dropped, freed) */
	/* Of those lost, the evicted ones: to a peer GPU (--evict-to peer),
	 * or to the host (a read-duplicated copy dropped, the host's copy
	 * being valid, counts here). Summed over the GPUs: blocks_evicted
	 * and blocks_evicted_peer. */
	uint64_t evicted_to_host, evicted_to_peer;
	/* Times this GPU mapped a block another GPU holds over the peer link
	 * (summed over the GPUs: blocks_peer_mapped). */
	uint64_t peer_mapped;
};

struct uvm_per_gpu {
	unsigned ngpus;
	const struct uvm_residency *res; /* the driver's, written when it registers us */
	struct {
		_Atomic uint64_t far_faults, blocks_in, blocks_out, evicted_host, evicted_peer,
		    peer_mapped;
	} gpu[UVM_MAX_GPUS];
};

void uvm_per_gpu_init(struct uvm_per_gpu *p, unsigned ngpus);
/* The observer to give the driver (driver.h's deps.observers). */
struct uvm_res_observer uvm_per_gpu_observer(struct uvm_per_gpu *p);
/* GPU g's counts so far. */
void uvm_per_gpu_counts(struct uvm_per_gpu *p, unsigned g, struct uvm_gpu_counts *out);

#endif
