// SPDX-License-Identifier: MIT
/*
 * replay.c - the end of a batch: the wait for the model, then the wake-ups.
 *
 * A batch with far faults costs the far-fault latency, and no thread wakes
 * before the last of its transfers completes on the link (model.h computes
 * both). Whatever real time servicing took counts against them; what remains
 * is waited here, first as fault latency, then as link throttle, and a batch
 * whose real cost already passed its modelled end is a model overrun. Then
 * its counters are published.
 */
#include "driver_int.h"

#include <string.h>

#include "timing.h"

static void model_wait(struct uvm_driver *d, bool gpu)
{
	uint64_t t0 = d->bt.t0;
	uint64_t lat_end = uvm_model_latency_end(d->dep.model, t0, gpu);
	uint64_t end = lat_end > d->bt.end ? lat_end : d->bt.end;
	uint64_t now = uvm_now_ns();
	uint64_t lat_part;

	if (gpu || d->bt.end > t0)
		d->st.modelled_batches++;
	d->bt.end = end; /* the batch's modelled end, as its trace row reports it */
	if (now >= end) {
		if (now > end && (gpu || end > t0))
			d->st.model_overruns++;
		return;
	}
	lat_part = lat_end > now ? lat_end - now : 0;
	/* A wake-up later than a tenth of the batch's modelled time is the
	 * model overrun by the host's scheduler, not by the emulator's work. */
	if (uvm_driver_wait(d, end) > (end - t0) / 10)
		d->st.late_wakes++;
	d->st.ns.fault_latency += lat_part;
	d->st.ns.throttle += end - now - lat_part;
}

uint64_t uvm_driver_wait(struct uvm_driver *d, uint64_t end)
{
	uint64_t late = uvm_model_wait_until(end);

	d->st.ns.late_wake += late;
	return late;
}

void uvm_driver_wake_all(struct uvm_driver *d)
{
	uvm_assert_driver_thread(d);
	for (size_t i = 0; i < d->nwake; i++) {
		int rc = uvm_uffd_wake(d->dep.uffd, d->wake[i].addr, d->wake[i].len);

		if (rc)
			uvm_bug("waking faulting threads", 0, rc);
	}
	d->nwake = 0;
}

/* The replay stage is the wake-ups alone. Under the model clock nothing
 * waits: the batch's GPU faults go to the GPU's clock, whose modelled
 * batches say when their warps go on, before their threads wake. */
void uvm_driver_replay(struct uvm_driver *d, bool gpu)
{
	if (d->dep.gpu)
		uvm_driver_commit_faults(d);
	else
		model_wait(d, gpu);
	UVM_TIMED(d->st.ns.replay, uvm_driver_wake_all(d));
}

/* Folds the batch's counters into the run's totals and, when tracing, writes
 * them as one row: the rows add up to the totals. Evictions outside a batch
 * (a shrinking pool) get a row of their own. */
void uvm_driver_publish(struct uvm_driver *d, enum uvm_batch_kind kind, uint64_t start)
{
	static const struct uvm_stats zero;

	if (memcmp(&d->st, &zero, sizeof(zero)) == 0)
		return;
	uvm_mutex_lock(&d->stats_lock);
	uvm_stats_add(&d->totals, &d->st);
	uvm_mutex_unlock(&d->stats_lock);
	uvm_res_batch(&d->res, &(struct uvm_batch_event){
				   .kind = kind,
				   .seq = d->seq,
				   .start_ns = start,
				   .model_end_ns = d->bt.end,
				   .dilation = uvm_model_dilation(d->dep.model),
				   .st = &d->st,
			       });
	memset(&d->st, 0, sizeof(d->st));
}
