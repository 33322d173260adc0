// SPDX-License-Identifier: MIT
/*
 * faults.c - what the driver says of its faults: whether they count as
 * accesses, and what became of each, told to the residency observers
 * (traces hear it there; the driver does not know who listens).
 */
#include "driver_int.h"

#include <string.h>

bool uvm_driver_counts_faults(const struct uvm_driver *d)
{
	const struct uvmemu_executor *ex = atomic_load(&d->dep.session->executor);

	/* --gmmu measure: accessors only measure; faults count as without them. */
	return !ex || !ex->gmmu_accessors ||
	       uvm_cfg_i(d->dep.cfg, UVM_OPT_gmmu) == UVM_GMMU_MEASURE;
}

void uvm_driver_trace_fault(struct uvm_driver *d, const struct uvm_fault *f)
{
	uint64_t launch = atomic_load_explicit(&d->launch, memory_order_relaxed);

	if (!uvm_res_wants_faults(&d->res))
		return;
	uvm_res_fault(&d->res, &(struct uvm_fault_event){
				   .t_ns = d->bt.t0,
				   .page = f->page,
				   .launch = launch ? launch - 1 : UINT64_MAX,
				   .tid = f->tid,
				   .count = f->count,
				   .gpu = f->gpu,
				   .write = f->write,
				   .outcome = f->outcome,
				   .dev = f->dev,
			       });
}

/* The batch's fault on page `page` of the GPU side (faults are sorted by
 * vablock, GPU first, then page: batch.c), NULL if none. */
static const struct uvm_fault *gpu_fault_at(const struct uvm_driver *d, uint64_t page)
{
	size_t lo = 0, hi = d->nfault;
	uint64_t v = page >> UVM_VABLOCK_SHIFT;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct uvm_fault *f = &d->fault[mid];
		uint64_t fv = f->page >> UVM_VABLOCK_SHIFT;
		int c = fv != v		 ? (fv < v ? -1 : 1)
			: !f->gpu	 ? 1
			: f->page < page ? -1
					 : f->page > page;

		if (c == 0)
			return f;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct uvm_gpu_stamp uvm_driver_stamp_of(const struct uvm_driver *d, uint64_t page)
{
	for (size_t i = 0; i < d->nstamped; i++)
		if (d->stamped[i].page == page)
			return d->stamped[i].s;
	return (struct uvm_gpu_stamp){.slot = -1};
}

void uvm_driver_commit_one(struct uvm_driver *d, struct uvm_gpu_stamp s, const struct uvm_fault *f)
{
	switch ((enum uvm_fault_outcome)f->outcome) {
	case UVM_OUT_MIGRATED:
	case UVM_OUT_ZERO_FILL:
	case UVM_OUT_REMOTE:
	case UVM_OUT_READ_DUP:
		uvm_gpu_commit(d->dep.gpu, s, f->page, true, f->hold);
		break;
	case UVM_OUT_STALE:
		uvm_gpu_commit(d->dep.gpu, s, f->page, false, f->hold);
		break;
	default:
		/* The emulator's own faults (sampled, probe, refreshed) and
		 * those of freed memory: no GPU would take them. */
		break;
	}
}

void uvm_driver_commit_faults(struct uvm_driver *d)
{
	for (size_t i = 0; i < d->nstamped; i++) {
		const struct uvm_stamped *s = &d->stamped[i];
		const struct uvm_fault *f = gpu_fault_at(d, s->page);

		if (f)
			uvm_driver_commit_one(d, s->s, f);
	}
	d->nstamped = 0;
	/* The host's faults cost it the model's CPU-fault path and what their
	 * service moved, from the host's time they were read at. */
	if (d->host.at)
		uvm_gpu_host_fault(d->dep.gpu, d->host.at, d->host.bytes, d->host.xfers);
	memset(&d->host, 0, sizeof(d->host));
}

void uvm_driver_claim(struct uvm_driver *d, const struct uvm_fault *lead, bool host)
{
	struct uvm_batch_time *bt = &d->bt;

	/* Runs were recorded only under the model clock (service.c). */
	if (lead && lead->gpu)
		for (unsigned i = 0; i < d->arrived.count; i++)
			uvm_gpu_follow(d->dep.gpu, lead->page >> UVM_BLOCK_SHIFT,
				       d->arrived.first[i], d->arrived.n[i]);
	d->arrived.open = false;
	d->arrived.count = 0;

	if (d->dep.gpu && bt->peer_xfers) {
		if (lead)
			uvm_gpu_claim_peer(d->dep.gpu, lead->page >> UVM_BLOCK_SHIFT, bt->peer_link,
					   bt->peer_dir, bt->peer_bytes, bt->peer_xfers);
		else
			uvm_model_transfer_peer(d->dep.model, bt->peer_link, bt->peer_dir,
						bt->peer_bytes, uvm_gpu_now(d->dep.gpu));
		bt->peer_bytes = 0;
		bt->peer_xfers = 0;
	}
	if (!d->dep.gpu || (!bt->xfers[UVM_H2D] && !bt->xfers[UVM_D2H]))
		return;
	if (lead) {
		uvm_gpu_claim(d->dep.gpu, lead->page >> UVM_BLOCK_SHIFT, bt->xfer_bytes[UVM_H2D],
			      bt->xfers[UVM_H2D], bt->xfer_bytes[UVM_D2H], bt->xfers[UVM_D2H]);
	} else if (host) {
		for (int dir = 0; dir < 2; dir++) {
			d->host.bytes[dir] += bt->xfer_bytes[dir];
			d->host.xfers[dir] += bt->xfers[dir];
		}
	} else {
		uvm_gpu_background(d->dep.gpu, bt->xfer_bytes, bt->xfers);
	}
	bt->xfer_bytes[UVM_H2D] = bt->xfer_bytes[UVM_D2H] = 0;
	bt->xfers[UVM_H2D] = bt->xfers[UVM_D2H] = 0;
}
