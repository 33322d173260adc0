// SPDX-License-Identifier: MIT
/*
 * faults.c - what the driver says of its faults: whether they count as
 * accesses, and what became of each, told to the residency observers
 * (traces hear it there; the driver does not know who listens).
 */
#include "driver_int.h"

bool uvm_driver_counts_faults(const struct uvm_driver *d)
{
	const struct uvmemu_executor *ex = atomic_load(&d->dep.session->executor);

	return !ex || !ex->gmmu_accessors;
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
			       });
}
