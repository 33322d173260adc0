// SPDX-License-Identifier: MIT
/*
 * alloc.c - managed, zero-copy and cudaMalloc memory: the arena's slots, the
 * views' mappings and registrations, the metadata the driver reads, and what
 * the emulator remembers of each allocation (its name, size and place).
 */
#include "emu_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fork.h"
#include "use.h"

static uint64_t round_up(uint64_t n, uint64_t to)
{
	return (n + to - 1) / to * to;
}

/* Remembers an allocation's size, place and name for the report's thrashing
 * table and the object manager. */
void uvm_emu_note_allocation(struct uvm_emu *e, uint32_t id, uint64_t bytes, uint64_t off,
			     const char *name)
{
	uvm_mutex_lock(&e->lock);
	if (id >= e->nalloc_info) {
		size_t n = id + 64;
		struct uvm_alloc_info *a = realloc(e->alloc_info, n * sizeof(*a));

		if (!a) {
			uvm_mutex_unlock(&e->lock);
			return;
		}
		memset(a + e->nalloc_info, 0, (n - e->nalloc_info) * sizeof(*a));
		e->alloc_info = a;
		e->nalloc_info = n;
	}
	e->alloc_info[id].bytes = bytes;
	e->alloc_info[id].off = off;
	e->alloc_info[id].live = true;
	if (*name)
		snprintf(e->alloc_info[id].name, sizeof(e->alloc_info[id].name), "%s", name);
	uvm_mutex_unlock(&e->lock);
}

/* A forked child inherits none of the views (fork.h): an inherited host view
 * would write into the parent's frames. The DMA view is mapped only where
 * device frames are the device view's own (copy backend). */
static int keep_from_children(const struct uvm_arena *a, uint64_t off, uint64_t len,
			      bool shared_frames)
{
	int rc = uvm_fork_protect((void *)uvm_host_addr(a, off), len);

	for (unsigned g = 0; !rc && g < a->ngpus; g++)
		rc = uvm_fork_protect((void *)uvm_dev_addr_g(a, g, off), len);
	if (!rc && !shared_frames)
		rc = uvm_fork_protect((void *)uvm_dma_addr(a, off), len);
	return rc;
}

/* Managed memory, or zero-copy host memory (cudaHostAlloc): the latter lives
 * in the arena too, with every block pinned on the host, so that the GPU
 * reaches it through the device view, remotely, charged to the link. */
static int alloc_managed(struct uvm_emu *e, enum uvm_ptr_kind kind, size_t size, void **out)
{
	struct uvm_arena *a = &e->arena;
	uint64_t len = round_up(size, UVM_VABLOCK_SIZE), off;
	int64_t charge = kind == UVM_PTR_MANAGED ? (int64_t)size : 0;
	struct uvm_range r;
	int rc;

	/* Refused here, as natively, when the host could not back it. */
	rc = uvm_session_charge_host(e->session, charge);
	if (rc)
		return rc;
	rc = uvm_arena_take(a, len, &off);
	if (rc)
		goto refund;
	rc = uvm_arena_map(a, off, len, e->backend->shared_frames);
	if (rc)
		goto give;
	rc = keep_from_children(a, off, len, e->backend->shared_frames);
	if (rc)
		goto unmap;
	rc = 0;
	for (unsigned g = 0; !rc && g < a->ngpus; g++)
		rc = uvm_placement_bind(&e->place, uvm_dev_addr_g(a, g, off), len,
					e->place.device_node);
	if (!rc)
		rc = uvm_placement_bind(&e->place, uvm_host_addr(a, off), len, e->place.host_node);
	if (rc)
		goto unmap;
	/* The views are closed (PROT_NONE) until uvm_arena_open, so no fault on
	 * the new range reaches the driver before then. A stale fault from the
	 * slot's previous allocation (a thread touching freed memory) may; it
	 * must find either the old, freed metadata or the new metadata over
	 * registered views, never the new metadata over views the driver
	 * cannot fill yet. Hence: register, publish, open. Publishing under
	 * the arena lock, which the driver takes once per batch, makes that
	 * order visible to the language's memory model too. */
	rc = uvm_uffd_register(&e->uffd, uvm_host_addr(a, off), len,
			       e->backend->register_mode(&e->uffd, false));
	for (unsigned g = 0; !rc && g < a->ngpus; g++)
		rc = uvm_uffd_register(&e->uffd, uvm_dev_addr_g(a, g, off), len,
				       e->backend->register_mode(&e->uffd, true));
	if (rc)
		goto unmap;
	uvm_mutex_lock(&a->lock);
	uvm_space_add(&e->space, off, size, atomic_fetch_add(&e->next_alloc, 1));
	if (kind == UVM_PTR_HOST_PINNED)
		for (size_t b = off >> UVM_BLOCK_SHIFT;
		     b < (off + size + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT; b++)
			e->space.block[b].advice = UVM_ADV_PIN_HOST;
	uvm_mutex_unlock(&a->lock);
	rc = uvm_arena_open(a, off, len);
	if (rc)
		goto forget;
	r = (struct uvm_range){uvm_host_addr(a, off), size, kind, len, 0};
	rc = uvm_ranges_add(&e->ranges, &r);
	if (rc)
		goto forget;
	if (kind == UVM_PTR_MANAGED)
		uvm_session_add_managed(e->session, (int64_t)(uvm_blocks_of(size) << UVM_BLOCK_SHIFT));
	uvm_trace_allocation(e->trace, e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc,
			     kind == UVM_PTR_MANAGED ? "managed" : "zero-copy",
			     off >> UVM_BASIC_SHIFT, size, "");
	uvm_emu_note_allocation(e, e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc, size, off, "");
	*out = (void *)r.base;
	return 0;
forget:
	uvm_space_remove(&e->space, off, size);
unmap:
	uvm_arena_unmap(a, off, len);
give:
	uvm_arena_give(a, off, len);
refund:
	uvm_session_charge_host(e->session, -charge);
	return rc;
}

static int free_managed(struct uvm_emu *e, const struct uvm_range *r)
{
	uint64_t off = r->base - e->arena.host;
	uint32_t id = e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc;
	int rc;

	uvm_mutex_lock(&e->lock);
	if (id < e->nalloc_info)
		e->alloc_info[id].live = false;
	uvm_mutex_unlock(&e->lock);
	uvm_objuse_forget(e, off, r->mapped);
	rc = uvm_driver_free_range(e->driver, off, r->size);
	/* Frames go, mappings stay: holes would exhaust vm.max_map_count
	 * (arena.h). A later touch faults and the driver unmaps the slot. */
	if (!rc)
		rc = uvm_arena_release(&e->arena, off, r->mapped);
	uvm_arena_give(&e->arena, off, r->mapped);
	if (r->kind == UVM_PTR_MANAGED) {
		uvm_session_add_managed(e->session,
					-(int64_t)(uvm_blocks_of(r->size) << UVM_BLOCK_SHIFT));
		uvm_session_charge_host(e->session, -(int64_t)r->size);
	}
	return rc;
}

/* cudaMalloc memory lives on the device for good: its blocks are pinned in
 * the pool of the calling thread's current device, and managed data is
 * evicted from that GPU to make room. */
static int alloc_device(struct uvm_emu *e, size_t size, void **out)
{
	uint64_t len = round_up(size, UVM_BLOCK_SIZE);
	unsigned g = uvm_emu_current_gpu(e);
	struct uvm_range r;
	void *p;
	int rc;

	rc = uvm_pool_pin(&e->pool[g], (int64_t)uvm_blocks_of(len));
	if (rc)
		return rc;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		rc = -ENOMEM;
		goto unpin;
	}
	rc = uvm_fork_protect(p, len);
	if (!rc)
		rc = uvm_placement_bind(&e->place, (uintptr_t)p, len, e->place.device_node);
	if (rc)
		goto unmap;
	r = (struct uvm_range){(uintptr_t)p, size, UVM_PTR_DEVICE, len, (int)g};
	rc = uvm_ranges_add(&e->ranges, &r);
	if (rc)
		goto unmap;
	if (uvm_pool_excess(&e->pool[g]))
		uvm_driver_shrink(e->driver);
	*out = p;
	return 0;
unmap:
	munmap(p, len);
unpin:
	uvm_pool_pin(&e->pool[g], -(int64_t)uvm_blocks_of(len));
	return rc;
}

int uvm_emu_alloc(struct uvm_emu *e, enum uvm_ptr_kind kind, size_t size, void **out)
{
	if (size > e->arena.size)
		return -ENOMEM;
	switch (kind) {
	case UVM_PTR_MANAGED:
	case UVM_PTR_HOST_PINNED:
		return alloc_managed(e, kind, size, out);
	case UVM_PTR_DEVICE:
		return alloc_device(e, size, out);
	default:
		return -EINVAL;
	}
}

int uvm_emu_free(struct uvm_emu *e, enum uvm_ptr_kind kind, void *p)
{
	struct uvm_range r;

	if (uvm_ranges_find(&e->ranges, (uintptr_t)p, &r) || r.base != (uintptr_t)p ||
	    r.kind != (int)kind)
		return -EINVAL;
	uvm_ranges_remove(&e->ranges, r.base, NULL);
	if (kind == UVM_PTR_MANAGED || kind == UVM_PTR_HOST_PINNED)
		return free_managed(e, &r);
	munmap(p, r.mapped);
	if (kind == UVM_PTR_DEVICE)
		uvm_pool_pin(&e->pool[r.device], -(int64_t)uvm_blocks_of(r.mapped));
	return 0;
}

int uvm_emu_host_register(struct uvm_emu *e, void *p, size_t size)
{
	struct uvm_range r = {(uintptr_t)p, size, UVM_PTR_HOST_REGISTERED, 0, 0};

	if (uvm_emu_classify(e, p) == UVM_PTR_MANAGED)
		return -EINVAL;
	return uvm_ranges_add(&e->ranges, &r);
}

int uvm_emu_host_unregister(struct uvm_emu *e, void *p)
{
	struct uvm_range r;

	if (uvm_ranges_find(&e->ranges, (uintptr_t)p, &r) || r.base != (uintptr_t)p ||
	    r.kind != UVM_PTR_HOST_REGISTERED)
		return -ENOENT;
	return uvm_ranges_remove(&e->ranges, r.base, NULL);
}

enum uvm_ptr_kind uvm_emu_classify(struct uvm_emu *e, const void *p)
{
	uintptr_t a = (uintptr_t)uvm_emu_host_ptr(e, p);
	struct uvm_range r;

	if (uvm_ranges_find(&e->ranges, a, &r))
		return UVM_PTR_OTHER;
	return (enum uvm_ptr_kind)r.kind;
}

int uvm_emu_span(struct uvm_emu *e, const void *p, size_t n, struct uvm_range *out)
{
	const struct uvm_arena *ar = &e->arena;
	uintptr_t a = (uintptr_t)uvm_emu_host_ptr(e, p);
	int rc;

	rc = uvm_ranges_find_span(&e->ranges, a, n, out);
	/* The views' address space between and past allocations is ours: no
	 * program data lives there. */
	if (rc == -ENOENT && a < ar->host + uvm_arena_span(ar) && a + n > ar->host)
		rc = -EINVAL;
	return rc;
}

void uvm_emu_label(struct uvm_emu *e, const void *p, const char *name)
{
	uintptr_t a = (uintptr_t)uvm_emu_host_ptr(e, p);
	struct uvm_range r;
	uint64_t off;

	if (uvm_ranges_find(&e->ranges, a, &r) ||
	    (r.kind != UVM_PTR_MANAGED && r.kind != UVM_PTR_HOST_PINNED))
		return;
	off = r.base - e->arena.host;
	uvm_trace_allocation(e->trace, e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc,
			     r.kind == UVM_PTR_MANAGED ? "managed" : "zero-copy",
			     off >> UVM_BASIC_SHIFT, r.size, name);
	uvm_emu_note_allocation(e, e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc, r.size, off, name);
}
