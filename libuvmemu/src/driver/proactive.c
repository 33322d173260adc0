// SPDX-License-Identifier: MIT
/*
 * proactive.c - ETC's proactive eviction (--proactive-evict SIZE).
 *
 * Source: ETC (Li, Ausavarungnirun, Rossbach, Zhang, Mutlu, Guo, Yang, "A
 * Framework for Memory Oversubscription Management in Graphics Processing
 * Units", ASPLOS 2019), the comparison CPC makes (seed 001, Sec. VI, Table
 * II: ETC = the baseline's age-based LRU and ascending dispatch, with
 * proactive eviction and memory compression). Its abstract: "Eviction
 * latency can be hidden by eagerly creating space for demand-paged data
 * with proactive eviction"; CPC: it overlaps "eviction latency with
 * paging", and "can hide some eviction latency, but it cannot help with
 * reducing such page faults".
 *
 * The rule. Once device memory has been full (the first eviction on
 * demand: before that nothing needs room, and a workload that fits must
 * not lose blocks to a reserve), after every batch of far faults the
 * driver evicts, by the eviction policy in force, until --proactive-evict
 * bytes (whole 64 KB blocks) are free. That is its own batch of no faults:
 * the victims' write-backs are booked on the link's device-to-host
 * direction from the GPU's time after the batch, as background transfers
 * that no fault waits for, so the next batch's migrations find free frames
 * and do not wait behind a write-back; a later write-back queues behind
 * them on the link as it would on the copy engine. Victims are chosen as
 * for any eviction (the policy's order), so which blocks go is the
 * policy's, only when differs; but never from a vablock the batches just
 * serviced used. Their faulting warps have been replayed and will touch
 * those blocks next: a victim among them is a block fetched for nothing,
 * and with workers in turns, where the driver always runs this before the
 * worker's next access, the same fault again, forever (spmv under --policy
 * etc at 16 MB, 75% fitting, ran for minutes).
 *
 * What ETC also has and this does not: memory-aware throttling, which
 * ETC applies to irregular applications (fewer CTAs running when page
 * faults come often) and CPC's configuration of ETC leaves out, would need
 * the executor to stop dispatching CTAs to some SMs in mid-kernel; and
 * capacity compression, which needs a model of compressed device memory
 * (CPC finds it "hardly works" for its workloads). docs/policies.md says
 * more.
 */
#include "driver_int.h"
#include "timing.h"

/* Whether some GPU has less than --proactive-evict free. */
static bool short_of_room(const struct uvm_driver *d)
{
	for (unsigned g = 0; g < d->ngpus; g++)
		if (uvm_pool_free(uvm_driver_pool(d, g)) < d->proactive_blocks)
			return true;
	return false;
}

void uvm_driver_proactive_evict(struct uvm_driver *d, uint64_t serviced_from)
{
	uint64_t t;

	if (!d->proactive_blocks || !d->oversubscribed || !short_of_room(d))
		return;
	t = uvm_now_ns();
	d->seq++;
	uvm_model_batch_begin(&d->bt, t);
	/* What cannot go now (a pinned vablock, or one the batches just
	 * serviced used) waits for the next batch. Each GPU keeps its own
	 * room. */
	for (unsigned g = 0; g < d->ngpus; g++) {
		d->target = g;
		(void)uvm_service_make_spare_room(d, d->proactive_blocks, serviced_from);
	}
	d->target = 0;
	d->st.blocks_proactive_evicted += d->st.blocks_evicted;
	uvm_driver_claim(d, NULL, false);
	uvm_driver_publish(d, UVM_BATCH_OTHER, t);
}
