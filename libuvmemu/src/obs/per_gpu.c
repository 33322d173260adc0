// SPDX-License-Identifier: MIT
/* per_gpu.c - each GPU's far faults and copies, heard from the driver. */
#include "per_gpu.h"

#include <string.h>

#include "events.h"

void uvm_per_gpu_init(struct uvm_per_gpu *p, unsigned ngpus)
{
	memset(p, 0, sizeof(*p));
	p->ngpus = ngpus < UVM_MAX_GPUS ? ngpus : UVM_MAX_GPUS;
}

/* One writer (the driver thread): a relaxed add is enough. */
static void add(_Atomic uint64_t *c)
{
	atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

static uint64_t get(_Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

/* Whether a fault event is a far fault's last word: not a duplicate (its
 * survivor carries it in its count: a duplicate of a sampled fault is no
 * far fault either), not deferred or throttled (it is told again when
 * serviced), not a prefetched block's row, nor one of the emulator's own
 * faults (sampling, probes, refreshes), which gpu_faults leaves out too. */
static bool counts_as_far_fault(const struct uvm_fault_event *f)
{
	if (!f->gpu)
		return false;
	switch ((enum uvm_fault_outcome)f->outcome) {
	case UVM_OUT_DUPLICATE:
	case UVM_OUT_DEFERRED:
	case UVM_OUT_THROTTLED:
	case UVM_OUT_PREFETCHED:
	case UVM_OUT_SAMPLED:
	case UVM_OUT_PROBED:
	case UVM_OUT_REFRESHED:
		return false;
	default:
		return true;
	}
}

static void on_fault(void *ctx, const struct uvm_fault_event *f)
{
	struct uvm_per_gpu *p = ctx;

	/* Its count: the messages merged into it, duplicates included, as
	 * gpu_faults counts them. */
	if (counts_as_far_fault(f) && f->dev < p->ngpus)
		atomic_fetch_add_explicit(&p->gpu[f->dev].far_faults, f->count,
					  memory_order_relaxed);
}

/* Whether the residency event under way is of one of our GPUs (*g). */
static bool event_gpu(const struct uvm_per_gpu *p, unsigned *g)
{
	*g = uvm_res_event_gpu(p->res);
	return *g < p->ngpus;
}

static void on_resident(void *ctx, size_t b)
{
	struct uvm_per_gpu *p = ctx;
	unsigned g;

	(void)b;
	if (event_gpu(p, &g))
		add(&p->gpu[g].blocks_in);
}

/* A copy that went: an evicted one went to a peer if the block is on a
 * device, and not duplicated there, now; else the host has it. */
static void on_released(void *ctx, size_t b)
{
	struct uvm_per_gpu *p = ctx;
	unsigned g;

	if (!event_gpu(p, &g))
		return;
	add(&p->gpu[g].blocks_out);
	if (!uvm_res_event_evicted(p->res))
		return;
	if (p->res->space->block[b].state == UVM_DEVICE)
		add(&p->gpu[g].evicted_peer);
	else
		add(&p->gpu[g].evicted_host);
}

static void on_peer_mapped(void *ctx, size_t b)
{
	struct uvm_per_gpu *p = ctx;
	unsigned g;

	(void)b;
	if (event_gpu(p, &g))
		add(&p->gpu[g].peer_mapped);
}

struct uvm_res_observer uvm_per_gpu_observer(struct uvm_per_gpu *p)
{
	return (struct uvm_res_observer){
	    .p = p,
	    .resident = on_resident,
	    .released = on_released,
	    .fault = on_fault,
	    .peer_mapped = on_peer_mapped,
	    .res = &p->res,
	};
}

void uvm_per_gpu_counts(struct uvm_per_gpu *p, unsigned g, struct uvm_gpu_counts *out)
{
	*out = (struct uvm_gpu_counts){
	    .far_faults = get(&p->gpu[g].far_faults),
	    .blocks_in = get(&p->gpu[g].blocks_in),
	    .blocks_out = get(&p->gpu[g].blocks_out),
	    .evicted_to_host = get(&p->gpu[g].evicted_host),
	    .evicted_to_peer = get(&p->gpu[g].evicted_peer),
	    .peer_mapped = get(&p->gpu[g].peer_mapped),
	};
}
