// SPDX-License-Identifier: MIT
/*
 * gmmu.c - the table the executor's GMMU accessors read (uvmemu_gmmu.h) and
 * the calls they make into the emulator: counter halving and notifications,
 * remote traffic booked on the link, and UVMMU's far faults resolved from
 * the accessing thread.
 */
#include "emu_int.h"

/* ctx is the emulator (uvmemu_gmmu.h). */
static void gmmu_halve(void *ctx)
{
	struct uvm_emu *e = ctx;

	uvm_driver_request_halving(e->driver);
}

/* A REMOTE block's count reached the notification threshold. */
static void gmmu_notify(void *ctx)
{
	struct uvm_emu *e = ctx;

	uvm_driver_counter_notify(e->driver);
}

/*
 * Remote sectors an executor thread read or wrote but has not yet booked on
 * the link, and their transactions. Booking takes the link's lock and may
 * sleep, far too much per 32-byte sector; a thread instead books every
 * --remote-chunk bytes per direction, once, and stalls for their modelled
 * time then (each transaction's latency included: link.h). The bytes
 * themselves are counted at once, so the report's figure is exact.
 */
static _Thread_local struct {
	uint32_t bytes, xacts;
} remote_owed[2] __attribute__((tls_model("initial-exec")));

/* Books what the calling thread owes in direction dir. */
static void book_owed(struct uvm_emu *e, enum uvm_dir dir)
{
	uint32_t bytes = remote_owed[dir].bytes, xacts = remote_owed[dir].xacts;

	if (!bytes)
		return;
	remote_owed[dir].bytes = remote_owed[dir].xacts = 0;
	/* The model clock books it from the worker's modelled time and stalls
	 * its slot; the real clock waits for it. */
	if (e->gpu)
		uvm_gpu_remote(e->gpu, dir, bytes, xacts);
	else
		uvm_model_wait_until(
		    uvm_model_transfer_remote(&e->model, dir, bytes, xacts, uvm_now_ns()));
}

static void gmmu_remote_access(void *ctx, uintptr_t dev_addr, size_t bytes, unsigned xacts,
			       bool store)
{
	struct uvm_emu *e = ctx;
	enum uvm_dir dir = store ? UVM_D2H : UVM_H2D;

	(void)dev_addr;
	atomic_fetch_add_explicit(&e->remote_accessed, bytes, memory_order_relaxed);
	atomic_fetch_add_explicit(&e->remote_xacts, xacts, memory_order_relaxed);
	remote_owed[dir].bytes += (uint32_t)bytes;
	remote_owed[dir].xacts += xacts;
	if (remote_owed[dir].bytes >= (uint64_t)uvm_cfg_i(&e->session->cfg, UVM_OPT_remote_chunk))
		book_owed(e, dir);
}

void uvm_emu_gmmu_flush(struct uvm_emu *e)
{
	book_owed(e, UVM_H2D);
	book_owed(e, UVM_D2H);
}

/* --gmmu measure: the exact figures beside the driver's estimate, which
 * alone is charged. */
static void gmmu_remote_measure(void *ctx, uintptr_t dev_addr, size_t bytes, unsigned xacts,
				bool store)
{
	struct uvm_emu *e = ctx;

	(void)dev_addr;
	(void)store;
	atomic_fetch_add_explicit(&e->exact_bytes, bytes, memory_order_relaxed);
	atomic_fetch_add_explicit(&e->exact_xacts, xacts, memory_order_relaxed);
}

/* --fault-path uvmmu: an accessor resolves its own far fault, in its thread
 * (no userfaultfd), and goes on when the page is modelled as arrived. */
static void gmmu_resolve(void *ctx, uintptr_t dev_addr, bool write)
{
	struct uvm_emu *e = ctx;

	if (dev_addr < e->arena.dev || dev_addr >= e->arena.dev + e->arena.size)
		return;
	uvm_model_wait_until(uvm_driver_direct_fault(e->driver, dev_addr - e->arena.dev, write));
}

/* The model clock: an access to a block the real driver mapped before the
 * slot's modelled time reached its arrival (uvm_gpu_late). */
static void gmmu_late(void *ctx, uintptr_t dev_addr)
{
	struct uvm_emu *e = ctx;

	if (dev_addr < e->arena.dev || dev_addr >= e->arena.dev + e->arena.size)
		return;
	/* Its CTA will wait as for a far fault, which the executor hears of
	 * from the driver: tell it here, so that a spare worker takes the
	 * next CTA (its thread's wait is no userfaultfd fault). */
	if (uvm_gpu_late(e->gpu, (dev_addr - e->arena.dev) & ~(uintptr_t)(UVM_PAGE_SIZE - 1)))
		uvm_session_gpu_stalled(e->session);
}

/* Once the arena, the space, the backend and the GPU's clock exist. */
void uvm_emu_gmmu_init(struct uvm_emu *e, const struct uvm_config *cfg)
{
	bool measure = uvm_cfg_i(cfg, UVM_OPT_gmmu) == UVM_GMMU_MEASURE;

	e->gmmu = (struct uvmemu_gmmu){
	    .dev_lo = e->arena.dev,
	    .dev_hi = e->arena.dev + e->arena.size,
	    .block_shift = UVM_BLOCK_SHIFT,
	    /* Where host data lives: the DMA view's copy, or under remap the
	     * shared frames the host view maps. */
	    .dma_offset = (intptr_t)((e->backend->shared_frames ? e->arena.host : e->arena.dma) -
				     e->arena.dev),
	    .counters = e->space.counters,
	    .state = e->space.gmmu_state,
	    .measure_only = measure,
	    .ctx = e,
	    .remote_access = measure ? gmmu_remote_measure : gmmu_remote_access,
	    .halve = gmmu_halve,
	    .notify_at = &e->space.notify_at,
	    .notify = gmmu_notify,
	    .resolve =
		uvm_cfg_i(cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU ? gmmu_resolve : NULL,
	    /* --gmmu measure leaves the model to far faults, as a build
	     * without accessors does. */
	    .arrival = e->gpu && !measure && uvm_cfg_i(cfg, UVM_OPT_late_hits) == UVM_LATE_FAULT
			   ? uvm_gpu_arrivals(e->gpu)
			   : NULL,
	    .late = gmmu_late,
	};
}

const struct uvmemu_gmmu *uvm_emu_gmmu(struct uvm_emu *e)
{
	return &e->gmmu;
}
