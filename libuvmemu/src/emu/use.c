// SPDX-License-Identifier: MIT
/* use.c - the allocations a kernel launch uses (use.h). */
#include "use.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "emu_int.h"

int uvm_objuse_init(struct uvm_emu *e)
{
	void *p = mmap(NULL, e->space.nvablocks, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	e->reached = p;
	return 0;
}

void uvm_objuse_destroy(struct uvm_emu *e)
{
	if (e->reached)
		munmap(e->reached, e->space.nvablocks);
	e->reached = NULL;
}

void uvm_objuse_forget(struct uvm_emu *e, uint64_t off, uint64_t len)
{
	if (e->reached)
		memset(e->reached + (off >> UVM_VABLOCK_SHIFT), 0,
		       (len + UVM_VABLOCK_SIZE - 1) >> UVM_VABLOCK_SHIFT);
}

static bool listed(const struct uvm_trace_objs *o, uint32_t id)
{
	for (uint32_t i = 0; i < o->nargs + o->ndev; i++)
		if (o->id[i] == id)
			return true;
	return false;
}

/* Appends id to the list being filled (the arguments' while ndev is 0). */
static void add(struct uvm_trace_objs *o, uint32_t id, bool dev)
{
	if (listed(o, id))
		return;
	if (o->nargs + o->ndev == UVM_TRACE_OBJS) {
		if (dev)
			o->more_dev++;
		else
			o->more_args++;
		return;
	}
	o->id[o->nargs + o->ndev] = id;
	if (dev)
		o->ndev++;
	else
		o->nargs++;
}

/* The allocation id of a live managed or zero-copy allocation holding the
 * host-view address a, or -1. */
static long alloc_of(struct uvm_emu *e, uintptr_t a)
{
	struct uvm_range r;

	if (uvm_ranges_find(&e->ranges, a, &r) ||
	    (r.kind != UVM_PTR_MANAGED && r.kind != UVM_PTR_HOST_PINNED))
		return -1;
	return e->space.vablock[(r.base - e->arena.host) >> UVM_VABLOCK_SHIFT].alloc;
}

void uvm_objuse_args(struct uvm_emu *e, const struct uvmemu_launch *l, struct uvm_trace_objs *o)
{
	const unsigned char *args = l->args;

	memset(o, 0, sizeof(*o));
	if (!args)
		return;
	/* The executor translated every pointer word into a live allocation to
	 * the device view: those are the words to look for. */
	for (size_t off = 0; off + sizeof(uint64_t) <= l->args_size; off += sizeof(uint64_t)) {
		uintptr_t a;
		uint64_t aoff;
		long id;

		memcpy(&a, args + off, sizeof(a));
		if (uvm_arena_gpu_of(&e->arena, a, &aoff) < 0)
			continue;
		id = alloc_of(e, e->arena.host + aoff);
		if (id >= 0)
			add(o, (uint32_t)id, false);
	}
}

struct reached_scan {
	struct uvm_emu *e;
	struct uvm_trace_objs *o;
};

static void scan_range(const struct uvm_range *r, void *arg)
{
	struct reached_scan *s = arg;
	struct uvm_emu *e = s->e;
	size_t first = (r->base - e->arena.host) >> UVM_VABLOCK_SHIFT;
	size_t end = (r->base - e->arena.host + r->mapped) >> UVM_VABLOCK_SHIFT;
	bool hit = false;

	for (size_t v = first; v < end; v++) {
		if (!__atomic_load_n(&e->reached[v], __ATOMIC_RELAXED))
			continue;
		hit = true;
		__atomic_store_n(&e->reached[v], 0, __ATOMIC_RELAXED);
	}
	if (hit)
		add(s->o, e->space.vablock[first].alloc, true);
}

void uvm_objuse_reached(struct uvm_emu *e, struct uvm_trace_objs *o)
{
	struct reached_scan s = {e, o};

	if (!e->reached)
		return;
	uvm_ranges_each(&e->ranges, UVM_PTR_MANAGED, scan_range, &s);
	uvm_ranges_each(&e->ranges, UVM_PTR_HOST_PINNED, scan_range, &s);
}
