// SPDX-License-Identifier: MIT
/* emu.c - an emulator instance: set-up, allocations, explicit copies. */
#include "emu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capture.h"
#include "clock.h"
#include "fork.h"
#include "manager.h"
#include "units.h"
#include "use.h"
#include "uvmmu.h"

static uint64_t blocks_of(uint64_t bytes)
{
	return (bytes + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;
}

static uint64_t round_up(uint64_t n, uint64_t to)
{
	return (n + to - 1) / to * to;
}

/* ------------------------------------- the GMMU accessors' callbacks */

/* ctx is the emulator (uvmemu_gmmu.h). */
static void gmmu_halve(void *ctx)
{
	struct uvm_emu *e = ctx;

	uvm_driver_request_halving(e->driver);
}

/*
 * Remote sectors an executor thread read or wrote but has not yet booked on
 * the link. Booking takes the link's lock and may sleep, far too much per
 * 32-byte sector; a thread instead books every --remote-chunk bytes per
 * direction, once, and stalls for their modelled time then. The bytes
 * themselves are counted at once, so the report's figure is exact.
 */
static _Thread_local uint32_t remote_owed[2];

static void gmmu_remote_access(void *ctx, uintptr_t dev_addr, size_t bytes, bool store)
{
	struct uvm_emu *e = ctx;
	uint32_t *owed = &remote_owed[store];

	(void)dev_addr;
	atomic_fetch_add_explicit(&e->remote_accessed, bytes, memory_order_relaxed);
	*owed += (uint32_t)bytes;
	if (*owed >= (uint64_t)uvm_cfg_i(&e->session->cfg, UVM_OPT_remote_chunk)) {
		uvm_wait_until(
		    uvm_link_book(&e->link, store ? UVM_D2H : UVM_H2D, *owed, uvm_now_ns()));
		*owed = 0;
	}
}

/* --fault-path uvmmu: an accessor resolves its own far fault, in its thread
 * (no userfaultfd), and goes on when the page is modelled as arrived. */
static void gmmu_resolve(void *ctx, uintptr_t dev_addr, bool write)
{
	struct uvm_emu *e = ctx;

	if (dev_addr < e->arena.dev || dev_addr >= e->arena.dev + e->arena.size)
		return;
	uvm_wait_until(uvm_uvmmu_direct(e->driver, dev_addr - e->arena.dev, write));
}

/* The table the executor's GMMU accessors read (uvmemu_gmmu.h), once the
 * arena, the space and the backend exist. */
static void gmmu_init(struct uvm_emu *e, const struct uvm_config *cfg)
{
	e->gmmu = (struct uvmemu_gmmu){
	    .dev_lo = e->arena.dev,
	    .dev_hi = e->arena.dev + e->arena.size,
	    /* Where host data lives: the DMA view's copy, or under remap the
	     * shared frames the host view maps. */
	    .dma_offset = (intptr_t)((e->backend->shared_frames ? e->arena.host : e->arena.dma) -
				     e->arena.dev),
	    .counters = e->space.counters,
	    .state = e->space.gmmu_state,
	    .remote_stores = e->backend->shared_frames,
	    .ctx = e,
	    .remote_access = gmmu_remote_access,
	    .halve = gmmu_halve,
	    .resolve =
		uvm_cfg_i(cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU ? gmmu_resolve : NULL,
	};
}

/* The fault capture, and the backend it and the options allow. */
static int open_capture(struct uvm_emu *e, const struct uvm_config *cfg, char *err, size_t errlen)
{
	int rc = uvm_uffd_open_capture(
	    &e->uffd, (enum uvm_fault_capture_choice)uvm_cfg_i(cfg, UVM_OPT_fault_capture), err,
	    errlen);

	if (rc)
		return rc;
	e->backend = uvm_backend_choose(uvm_cfg_s(cfg, UVM_OPT_backend), &e->uffd,
					(int)uvm_cfg_i(cfg, UVM_OPT_device_node), e->backend_why,
					sizeof(e->backend_why));
	if (!e->backend) {
		snprintf(err, errlen, "%s", e->backend_why);
		return -EINVAL;
	}
	return 0;
}

/* Per-block metadata over the whole arena, reserved (the kernel backs only
 * what is touched); uvm_emu_destroy frees what was made. */
static int reserve_metadata(struct uvm_emu *e, char *err, size_t errlen)
{
	int rc = uvm_space_init(&e->space, e->arena.size);

	if (rc) {
		snprintf(err, errlen, "reserving block metadata: %s", strerror(-rc));
		return rc;
	}
	e->access_seen =
	    mmap(NULL, e->space.nblocks * sizeof(*e->access_seen), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (e->access_seen == MAP_FAILED) {
		e->access_seen = NULL;
		snprintf(err, errlen, "reserving access-trace metadata: %s", strerror(errno));
		return -ENOMEM;
	}
	rc = uvm_objuse_init(e);
	if (rc)
		snprintf(err, errlen, "reserving the launches' allocation marks: %s",
			 strerror(-rc));
	return rc;
}

static void *progress_main(void *arg);

static bool progress_wanted(const struct uvm_config *cfg)
{
	switch ((enum uvm_progress_choice)uvm_cfg_i(cfg, UVM_OPT_progress)) {
	case UVM_PROGRESS_AUTO:
		return isatty(STDERR_FILENO);
	case UVM_PROGRESS_ON:
		return true;
	case UVM_PROGRESS_OFF:
		break;
	}
	return false;
}

int uvm_emu_create(struct uvm_emu **out, struct uvm_session *s, char *err, size_t errlen)
{
	const struct uvm_config *cfg = &s->cfg;
	uint64_t dev_mem = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_device_mem);
	struct uvm_driver_deps deps;
	struct uvm_emu *e = calloc(1, sizeof(*e));
	int rc;

	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	e->session = s;
	e->uffd.fd = -1;
	e->arena.memfd = -1;
	uvm_mutex_init(&e->lock, UVM_LOCK_EMU);
	uvm_ranges_init(&e->ranges);
	uvm_link_init(&e->link, cfg);
	if (uvm_cfg_d(cfg, UVM_OPT_dilation) > 0)
		uvm_link_set_dilation(&e->link, uvm_cfg_d(cfg, UVM_OPT_dilation));
	e->oversub = uvm_cfg_d(cfg, UVM_OPT_oversub);
	uvm_pool_init(&e->pool, blocks_of(dev_mem), e->oversub == 0);

	rc = uvm_placement_init(&e->place, cfg, err, errlen);
	if (rc)
		goto fail;
	/* Before the driver's thread starts: the probe runs alone. */
	uvm_map_touch_probe(&e->map_touch);
	rc = open_capture(e, cfg, err, errlen);
	if (rc)
		goto fail;
	rc = uvm_arena_init(&e->arena, err, errlen);
	if (rc)
		goto fail;
	if (e->uffd.sig)
		uvm_sigcap_attach(e->uffd.sig, &e->arena);
	rc = reserve_metadata(e, err, errlen);
	if (rc)
		goto fail;
	rc = uvm_objmgr_create(&e->objmgr, cfg, err, errlen);
	if (rc)
		goto fail;
	rc = uvm_trace_open(&e->trace, cfg, s->start_ns,
			    &(struct uvm_trace_model){&e->pool, &e->link}, err, errlen);
	if (rc)
		goto fail;
	deps = (struct uvm_driver_deps){e->backend, &e->uffd, &e->arena, &e->space, &e->link,
					&e->pool,   cfg,      s,	 e->trace,  &e->workers};
	rc = uvm_driver_start(&e->driver, &deps, err, errlen);
	if (rc)
		goto fail;
	gmmu_init(e, cfg);
	pthread_cond_init(&e->progress_cond, NULL);
	if (progress_wanted(cfg) && pthread_create(&e->progress, NULL, progress_main, e) == 0)
		e->progress_on = true;
	*out = e;
	return 0;
fail:
	uvm_emu_destroy(e);
	return rc;
}

void uvm_emu_destroy(struct uvm_emu *e)
{
	uvm_emu_progress_stop(e);
	if (e->driver)
		uvm_driver_stop(e->driver);
	uvm_trace_close(e->trace);
	if (e->access_seen)
		munmap(e->access_seen, e->space.nblocks * sizeof(*e->access_seen));
	uvm_objuse_destroy(e);
	uvm_objmgr_destroy(e->objmgr);
	/* Dropping the views frees every frame; the arena goes with them. */
	uvm_arena_destroy(&e->arena);
	uvm_space_destroy(&e->space);
	uvm_uffd_close(&e->uffd);
	uvm_link_destroy(&e->link);
	uvm_ranges_destroy(&e->ranges);
	uvm_mutex_destroy(&e->lock);
	free(e->alloc_info);
	free(e);
}

/* ------------------------------------------------------------- allocation */

/* Remembers an allocation's size, place and name for the report's thrashing
 * table and the object manager. */
static void note_allocation(struct uvm_emu *e, uint32_t id, uint64_t bytes, uint64_t off,
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

	if (!rc)
		rc = uvm_fork_protect((void *)uvm_dev_addr(a, off), len);
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
	rc = uvm_placement_bind(&e->place, uvm_dev_addr(a, off), len, e->place.device_node);
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
	if (!rc)
		rc = uvm_uffd_register(&e->uffd, uvm_dev_addr(a, off), len,
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
	r = (struct uvm_range){uvm_host_addr(a, off), size, kind, len};
	rc = uvm_ranges_add(&e->ranges, &r);
	if (rc)
		goto forget;
	if (kind == UVM_PTR_MANAGED)
		uvm_session_add_managed(e->session, (int64_t)(blocks_of(size) << UVM_BLOCK_SHIFT));
	uvm_trace_allocation(e->trace, e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc,
			     kind == UVM_PTR_MANAGED ? "managed" : "zero-copy",
			     off >> UVM_BLOCK_SHIFT, size, "");
	note_allocation(e, e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc, size, off, "");
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
					-(int64_t)(blocks_of(r->size) << UVM_BLOCK_SHIFT));
		uvm_session_charge_host(e->session, -(int64_t)r->size);
	}
	return rc;
}

/* cudaMalloc memory lives on the device for good: its blocks are pinned in
 * the pool, and managed data is evicted to make room. */
static int alloc_device(struct uvm_emu *e, size_t size, void **out)
{
	uint64_t len = round_up(size, UVM_BLOCK_SIZE);
	struct uvm_range r;
	void *p;
	int rc;

	rc = uvm_pool_pin(&e->pool, (int64_t)blocks_of(len));
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
	r = (struct uvm_range){(uintptr_t)p, size, UVM_PTR_DEVICE, len};
	rc = uvm_ranges_add(&e->ranges, &r);
	if (rc)
		goto unmap;
	if (uvm_pool_excess(&e->pool))
		uvm_driver_shrink(e->driver);
	*out = p;
	return 0;
unmap:
	munmap(p, len);
unpin:
	uvm_pool_pin(&e->pool, -(int64_t)blocks_of(len));
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
		uvm_pool_pin(&e->pool, -(int64_t)blocks_of(r.mapped));
	return 0;
}

int uvm_emu_host_register(struct uvm_emu *e, void *p, size_t size)
{
	struct uvm_range r = {(uintptr_t)p, size, UVM_PTR_HOST_REGISTERED, 0};

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
	uintptr_t a = (uintptr_t)p;
	struct uvm_range r;

	if (a >= e->arena.dev && a < e->arena.dev + e->arena.size)
		a = a - e->arena.dev + e->arena.host;
	if (uvm_ranges_find(&e->ranges, a, &r))
		return UVM_PTR_OTHER;
	return (enum uvm_ptr_kind)r.kind;
}

/* ----------------------------------------------------------- explicit copies */

/* Which side an explicit copy reaches p from: cudaMemcpy's kind says, and
 * cudaMemcpyDefault infers it from the allocation (device memory is on the
 * device; everything else, managed memory included, is read where it is
 * requested from: the host). */
static bool device_side(struct uvm_emu *e, const void *p, enum cudaMemcpyKind kind, bool is_dst)
{
	switch (kind) {
	case cudaMemcpyHostToDevice:
		return is_dst;
	case cudaMemcpyDeviceToHost:
		return !is_dst;
	case cudaMemcpyDeviceToDevice:
		return true;
	case cudaMemcpyHostToHost:
		return false;
	default:
		return uvm_emu_classify(e, p) == UVM_PTR_DEVICE;
	}
}

/* A managed pointer reached from the device side goes through the device
 * view, so the copy takes far faults like a copy engine on the GPU would. */
static void *side_addr(struct uvm_emu *e, const void *p, bool device)
{
	struct uvmemu_view_map m;

	if (!device)
		return (void *)p;
	uvm_emu_view_map(e, &m);
	return uvmemu_view_to_device(&m, p);
}

int uvm_emu_memcpy(struct uvm_emu *e, void *dst, const void *src, size_t n,
		   enum cudaMemcpyKind kind)
{
	bool ddev = device_side(e, dst, kind, true), sdev = device_side(e, src, kind, false);
	struct uvm_stats delta = {0};

	memmove(side_addr(e, dst, ddev), side_addr(e, src, sdev), n);
	if (ddev != sdev) {
		enum uvm_dir dir = ddev ? UVM_H2D : UVM_D2H;

		/* The caller returns when the modelled transfer would have. */
		uvm_wait_until(uvm_link_book(&e->link, dir, n, uvm_now_ns()));
		if (ddev)
			delta.memcpy_bytes_h2d = n;
		else
			delta.memcpy_bytes_d2h = n;
		uvm_driver_account(e->driver, &delta);
	}
	return 0;
}

int uvm_emu_memset(struct uvm_emu *e, void *p, int value, size_t n)
{
	/* cudaMemset runs on the device: managed memory fills through the
	 * device view (first touches zero-fill there, no transfer). */
	memset(side_addr(e, p, true), value, n);
	return 0;
}

void uvm_emu_mem_info(struct uvm_emu *e, size_t *free_bytes, size_t *total_bytes)
{
	struct uvm_pool p;

	uvm_pool_snapshot(&e->pool, &p);
	if (!p.resolved || p.capacity == 0) {
		long page = sysconf(_SC_PAGESIZE);

		*total_bytes = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)page;
		*free_bytes = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)page;
		return;
	}
	*total_bytes = (size_t)(p.capacity << UVM_BLOCK_SHIFT);
	*free_bytes = p.used + p.pinned >= p.capacity
			  ? 0
			  : (size_t)((p.capacity - p.used - p.pinned) << UVM_BLOCK_SHIFT);
}

void uvm_emu_view_map(struct uvm_emu *e, struct uvmemu_view_map *map)
{
	map->host_lo = e->arena.host;
	map->host_hi = e->arena.host + e->arena.size;
	map->device_offset = (intptr_t)(e->arena.dev - e->arena.host);
	map->reached = e->reached;
}

void *uvm_emu_host_ptr(struct uvm_emu *e, const void *device_ptr)
{
	uintptr_t a = (uintptr_t)device_ptr;

	if (a >= e->arena.dev && a < e->arena.dev + e->arena.size)
		a = a - e->arena.dev + e->arena.host;
	return (void *)a;
}

/* ------------------------------------------------------------ launches */

static void rebase_allocation(const struct uvm_range *r, void *arg)
{
	struct uvm_emu *e = arg;
	size_t first = (r->base - e->arena.host) >> UVM_BLOCK_SHIFT;
	size_t n = (r->size + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;

	for (size_t b = first; b < first + n; b++)
		e->access_seen[b] = uvm_counter_accesses(&e->space, b);
}

/*
 * --flush-launches: every managed block back on the host, so that each block
 * the launch touches faults in it; and its accesses counted from here, not
 * from the last launch's end (explicit copies in between are no launch's).
 */
static void flush_launch(struct uvm_emu *e)
{
	uvm_objmgr_flush(e);
	if (uvm_trace_wants_accesses(e->trace)) {
		uvm_mutex_lock(&e->lock);
		uvm_ranges_each(&e->ranges, UVM_PTR_MANAGED, rebase_allocation, e);
		uvm_mutex_unlock(&e->lock);
	}
}

int uvm_emu_kernel_begin(struct uvm_emu *e, uint64_t index, const struct uvmemu_launch *launch)
{
	int rc = 0;

	uvm_mutex_lock(&e->lock);
	e->kernel.index = index;
	e->kernel.begin_ns = uvm_now_ns();
	e->kernel.launch = *launch;
	snprintf(e->kernel.name, sizeof(e->kernel.name), "%s",
		 launch->kernel ? launch->kernel : "");
	e->kernel.launch.kernel = e->kernel.name;
	if (e->oversub > 0) {
		uint64_t footprint = atomic_load(&e->session->managed_bytes);
		uint64_t blocks = (uint64_t)((double)footprint / e->oversub) >> UVM_BLOCK_SHIFT;
		char a[32], b[32];

		snprintf(e->capacity_note, sizeof(e->capacity_note),
			 "--oversub %g of a %s managed footprint at the first launch gives %s",
			 e->oversub, uvm_fmt_size(a, sizeof(a), footprint),
			 uvm_fmt_size(b, sizeof(b), blocks << UVM_BLOCK_SHIFT));
		if (blocks < UVM_BLOCKS_PER_VABLOCK) {
			snprintf(e->launch_error, sizeof(e->launch_error),
				 "%s, less than one 2 MB vablock of device memory; use a smaller "
				 "ratio or a larger footprint",
				 e->capacity_note);
			rc = -EINVAL;
		} else {
			uvm_pool_set_capacity(&e->pool, blocks);
		}
		e->oversub = 0;
	}
	uvm_mutex_unlock(&e->lock);
	if (rc)
		return rc;
	if (uvm_pool_excess(&e->pool))
		uvm_driver_shrink(e->driver);
	uvm_driver_launch(e->driver, index);
	/* Kernels run one at a time: the record is the running launch's. */
	uvm_objuse_args(e, launch, &e->kernel.objs);
	if (uvm_cfg_i(&e->session->cfg, UVM_OPT_flush_launches) == UVM_FLUSH_LAUNCHES_ON)
		flush_launch(e);
	if (e->objmgr)
		rc = uvm_objmgr_launch(e->objmgr, e, index, e->kernel.name, e->launch_error,
				       sizeof(e->launch_error));
	return rc;
}

struct access_scan {
	struct uvm_emu *e;
	uint64_t launch;
	const char *kernel;
	bool gmmu;
};

/* The accesses a launch made: each block's counter now, less at the last
 * launch's end (a halving in between makes the difference the count itself). */
static void scan_allocation(const struct uvm_range *r, void *arg)
{
	struct access_scan *a = arg;
	struct uvm_emu *e = a->e;
	size_t first = (r->base - e->arena.host) >> UVM_BLOCK_SHIFT;
	size_t n = (r->size + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;
	uint32_t alloc = e->space.vablock[uvm_vablock_of(first)].alloc;

	for (size_t b = first; b < first + n; b++) {
		uint32_t now = uvm_counter_accesses(&e->space, b), was = e->access_seen[b];
		uint32_t delta = now >= was ? now - was : now;

		if (delta)
			uvm_trace_access(e->trace, a->launch, a->kernel, alloc, b, delta, a->gmmu);
		e->access_seen[b] = now;
	}
}

/* The run's data reuse so far, from each launch's figures. */
static void add_reuse(struct uvm_emu *e, const struct uvm_reuse_launch *r)
{
	e->reuse.launches++;
	if (r->rate < 0)
		return;
	e->reuse.source = r->source;
	e->reuse.measured++;
	e->reuse.rate_sum += r->rate;
	e->reuse.touched += r->touched;
	e->reuse.reused += r->reused;
}

void uvm_emu_kernel_end(struct uvm_emu *e, uint64_t index)
{
	const struct uvmemu_executor *ex = atomic_load(&e->session->executor);
	struct access_scan a = {e, index, NULL, ex && ex->gmmu_accessors};
	struct uvm_reuse_launch reuse;
	struct uvmemu_launch l;
	uint64_t begin, end = uvm_now_ns();

	uvm_objuse_reached(e, &e->kernel.objs);
	uvm_driver_launch_end(e->driver, &reuse);
	uvm_mutex_lock(&e->lock);
	add_reuse(e, &reuse);
	if (e->trace) {
		l = e->kernel.launch;
		begin = e->kernel.begin_ns;
		a.kernel = e->kernel.name;
		if (uvm_trace_wants_accesses(e->trace))
			uvm_ranges_each(&e->ranges, UVM_PTR_MANAGED, scan_allocation, &a);
		uvm_trace_kernel(e->trace, index, &l, begin, end, &reuse, &e->kernel.objs);
	}
	uvm_mutex_unlock(&e->lock);
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
			     off >> UVM_BLOCK_SHIFT, r.size, name);
	note_allocation(e, e->space.vablock[off >> UVM_VABLOCK_SHIFT].alloc, r.size, off, name);
}

bool uvm_emu_counts_faults(struct uvm_emu *e)
{
	const struct uvmemu_executor *ex = atomic_load(&e->session->executor);

	return !ex || !ex->gmmu_accessors;
}

void uvm_emu_cta(struct uvm_emu *e, uint64_t launch, unsigned cta, unsigned sm, bool begin)
{
	/* The worker's thread id, asked for once per thread: faults name
	 * threads by it, and a system call per CTA would cost more than the
	 * record. */
	static _Thread_local uint32_t tid;

	if (!uvm_trace_wants_ctas(e->trace))
		return;
	if (!tid)
		tid = (uint32_t)syscall(SYS_gettid);
	uvm_trace_cta(e->trace, tid, sm, launch, cta, begin, uvm_now_ns());
}

void uvm_emu_worker_register(struct uvm_emu *e, unsigned sm)
{
	uvm_workers_add(&e->workers, (uint32_t)syscall(SYS_gettid), sm);
}

/* --------------------------------------------------------------- progress */

static void *progress_main(void *arg)
{
	struct uvm_emu *e = arg;
	bool shown = false;

	pthread_setname_np(pthread_self(), "uvmemu-progress");
	uvm_mutex_lock(&e->lock);
	while (!e->progress_stop) {
		struct timespec ts;
		struct uvm_stats st;
		char moved[32];

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 500000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		uvm_cond_timedwait(&e->progress_cond, &e->lock, &ts);
		if (e->progress_stop || uvm_session_wall_s(e->session) < 1)
			continue;
		uvm_mutex_unlock(&e->lock);
		uvm_driver_totals(e->driver, &st);
		fprintf(stderr, "\r[uvmemu %.0fs] %llu kernels, %llu faults, %s moved   ",
			uvm_session_wall_s(e->session),
			(unsigned long long)atomic_load(&e->session->kernels),
			(unsigned long long)(st.gpu_faults + st.cpu_faults),
			uvm_fmt_size(moved, sizeof(moved), st.bytes_h2d + st.bytes_d2h));
		shown = true;
		uvm_mutex_lock(&e->lock);
	}
	uvm_mutex_unlock(&e->lock);
	if (shown)
		fputs("\r\033[K", stderr);
	return NULL;
}

void uvm_emu_progress_stop(struct uvm_emu *e)
{
	if (!e->progress_on)
		return;
	uvm_mutex_lock(&e->lock);
	e->progress_stop = true;
	pthread_cond_signal(&e->progress_cond);
	uvm_mutex_unlock(&e->lock);
	pthread_join(e->progress, NULL);
	e->progress_on = false;
}

void uvm_emu_calibrated(struct uvm_emu *e)
{
	struct uvm_session *s = e->session;
	double d;

	if (uvm_cfg_d(&s->cfg, UVM_OPT_dilation) != 0)
		return; /* a fixed dilation was asked for */
	uvm_mutex_lock(&s->lock);
	d = s->calib_measured > 0 ? s->calib_target / s->calib_measured : 1;
	uvm_mutex_unlock(&s->lock);
	/* A CPU faster than the target would need time to run slower than
	 * real; the model cannot speed the machine up. */
	uvm_link_set_dilation(&e->link, d < 1 ? 1 : d);
}

void uvm_emu_stats(struct uvm_emu *e, struct uvm_stats *out)
{
	struct uvm_pool p;

	uvm_driver_stats(e->driver, out);
	out->remote_bytes += atomic_load_explicit(&e->remote_accessed, memory_order_relaxed);
	uvm_pool_snapshot(&e->pool, &p);
	out->peak_device_bytes = p.peak << UVM_BLOCK_SHIFT;
}

uint64_t uvm_emu_device_mem(struct uvm_emu *e)
{
	struct uvm_pool p;

	uvm_pool_snapshot(&e->pool, &p);
	return p.resolved ? p.capacity << UVM_BLOCK_SHIFT : 0;
}
