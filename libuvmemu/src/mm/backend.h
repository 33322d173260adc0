/* SPDX-License-Identifier: MIT */
/*
 * backend.h - how a residency change is carried out on the views: the page
 * table work only (ioctls, unmaps, copies, the tracker), never bookkeeping,
 * which is residency.c's.
 *
 * Two backends (docs/architecture.md has both state tables):
 *
 *   remap  one set of frames. The memfd holds every managed page for the
 *          allocation's life; host and device view both map it MAP_SHARED,
 *          and residency is which view has page-table entries. A migration
 *          is an unmap of one view (the real host unmap and TLB shootdown)
 *          and a UFFDIO_CONTINUE of the other; nothing is copied, nothing
 *          punched, as a GPU's copy engines cost the host CPU nothing.
 *   copy   two sets of frames. Device frames are the device view's private
 *          anonymous pages; a migration copies (UFFDIO_COPY from the DMA
 *          view, pwrite back) and punches the memfd. It alone can put device
 *          frames on a NUMA node of their own.
 *
 * Each operation acts on blocks [first, first + n) of one vablock, all in the
 * state the operation expects, and adds its real time to the batch's stage
 * times (unmap, copy, map). Threads waiting on a range are woken at replay,
 * unless `wake` says the model can never delay them.
 */
#ifndef UVM_BACKEND_H
#define UVM_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "space.h"
#include "stats.h"
#include "timing.h"
#include "tracker.h"
#include "uffd.h"

struct uvm_backend;

struct uvm_backend_ops {
	const char *name;
	/* The device view maps the memfd (remap) or private memory (copy). */
	bool shared_frames;
	/* REMOTE data is the host frames themselves: a CPU access needs no copy
	 * dropped (remap). Otherwise a REMOTE block's device side is a copy
	 * that takes the GPU's stores, written back to the host frames when it
	 * is dropped, and the host view stays unmapped while it exists. */
	bool coherent_remote;

	/* EMPTY -> DEVICE: zero-filled frames mapped in the device view. */
	void (*zero_fill)(struct uvm_backend *be, size_t first, size_t n);
	/* HOST -> DEVICE: the host view is unmapped first (a CPU touch from
	 * then on waits), then the data is mapped in the device view. */
	void (*to_device)(struct uvm_backend *be, size_t first, size_t n);
	/* DEVICE -> HOST; map_host: map the host view now, for a CPU waiting on
	 * it (an eviction's pages map at the CPU's next touch). */
	void (*to_host)(struct uvm_backend *be, size_t first, size_t n, bool map_host);
	/* HOST (or REMOTE not mapped) -> REMOTE mapped on the device view. */
	void (*map_remote)(struct uvm_backend *be, size_t first, size_t n);
	/* REMOTE: the device view's mapping goes (sampling, or towards HOST).
	 * Returns the bytes of the device copy's blocks that held GPU stores and
	 * were written back to the host frames (0 where there is no copy). */
	uint64_t (*unmap_remote)(struct uvm_backend *be, size_t first, size_t n);
	/* REMOTE -> DEVICE; mapped: the device view maps it now. */
	void (*remote_to_device)(struct uvm_backend *be, size_t first, size_t n, bool mapped);
	/* HOST -> DUPLICATED: both views map it read-only. */
	void (*duplicate)(struct uvm_backend *be, size_t first, size_t n);
	/* DUPLICATED -> DEVICE (a GPU write collapses it). */
	void (*dup_to_device)(struct uvm_backend *be, size_t first, size_t n);
	/* DUPLICATED -> HOST (a CPU write or an eviction collapses it); with
	 * copies on several GPUs, called per GPU: `last` the final one (the
	 * host pages become writable). */
	void (*dup_to_host)(struct uvm_backend *be, size_t first, size_t n);
	/* DUPLICATED: another GPU's read-only copy, or one GPU's copy dropped
	 * while others stay (the host copy stays read-only). */
	void (*dup_add)(struct uvm_backend *be, size_t first, size_t n);
	void (*dup_drop)(struct uvm_backend *be, size_t first, size_t n);
	/* DEVICE on GPU `from` -> DEVICE on be->gpu: the source GPU's view is
	 * unmapped (on a GPU, its own unmap and TLB shootdown, not the host's),
	 * the data mapped in the destination's. */
	void (*peer)(struct uvm_backend *be, size_t first, size_t n, unsigned from);
	/* DEVICE on another GPU: be->gpu's device view maps the holder's frames
	 * (a peer mapping over the peer link), or its mapping goes. NULL where
	 * device frames are private (copy): a second view of them could not
	 * be coherent, so the driver migrates instead. */
	void (*peer_map)(struct uvm_backend *be, size_t first, size_t n);
	void (*peer_unmap)(struct uvm_backend *be, size_t first, size_t n);
	/*
	 * A GPU fault on a page the state says the device view maps (a stale
	 * fault). Shared frames can lose their mapping behind the driver's back
	 * (reclaim unmaps shared memory it cannot free, as DAMON's pageout does):
	 * the page maps again (wp: read-only), or the access would fault for
	 * ever. Returns whether it was unmapped indeed (else the fault was
	 * stale). NULL where device frames are private (the kernel faults them
	 * back itself).
	 */
	bool (*refresh)(struct uvm_backend *be, uint64_t page_off, bool wp);
	/* DEVICE blocks: unmap the device view and map it again, the block
	 * staying resident throughout (reuse probes, reuse.h). NULL where that
	 * would free the frames (copy). */
	void (*probe)(struct uvm_backend *be, size_t first, size_t n);
	void (*unprobe)(struct uvm_backend *be, size_t first, size_t n);
	/* The views' registration modes for a new allocation. */
	uint64_t (*register_mode)(const struct uvm_uffd *u, bool device_view);
};

struct uvm_backend {
	const struct uvm_backend_ops *ops;
	struct uvm_uffd *uffd;
	const struct uvm_arena *arena;
	struct uvm_tracker *tracker; /* copy: asynchronous punches and unmaps */
	struct uvm_stats *st;	     /* the batch: stage times */
	const uint64_t *seq;	     /* the batch's sequence (tracker ordering) */
	uintptr_t zeros;	     /* copy: never-written pages, zero-fill source */
	unsigned wake;		     /* UVM_MAP_WAKE when wake-ups cannot be delayed */
	/* The GPU whose device view the operations act on (--gpus): the driver
	 * sets it before each operation, as it does `zapped`. */
	unsigned gpu;
	/* UVM_VIEW_* whose zap of the runs being operated on was already made
	 * in one batch (uvm_be_zap_runs): the operations skip their own. Set
	 * and cleared by the caller around those operations only. */
	unsigned zapped;
};

#define UVM_VIEW_HOST	1u
#define UVM_VIEW_DEVICE 2u

extern const struct uvm_backend_ops uvm_backend_remap, uvm_backend_copy;

/*
 * Chooses a backend for --backend NAME (auto|remap|copy) on this kernel and
 * configuration. Returns it, or NULL with the reason in why; otherwise why
 * says why it was chosen (for `uvmemu info` and the report).
 */
const struct uvm_backend_ops *uvm_backend_choose(const char *name, const struct uvm_uffd *u,
						 int device_node, char *why, size_t whylen);

/* Host-view operations both backends share (backend.c). */
/* EMPTY -> HOST: zero-filled page-cache pages mapped in the host view. */
void uvm_be_host_fill(struct uvm_backend *be, size_t first, size_t n);
/* Maps the page-cache pages of blocks into the host view (flags UVM_MAP_*). */
void uvm_be_host_map(struct uvm_backend *be, size_t first, size_t n, unsigned flags);
/* Unmaps the host view (the host unmap: a CPU touch now faults). */
void uvm_be_zap_host(struct uvm_backend *be, size_t first, size_t n);
/* Unmaps runs [first[i], first[i] + n[i]) of one view (UVM_VIEW_*) in one
 * batched zap (uvm_uffd_zapv), at most UVM_ZAP_RUNS runs (as many as one
 * vablock can have). */
#define UVM_ZAP_RUNS UVM_BLOCKS_PER_VABLOCK
void uvm_be_zap_runs(struct uvm_backend *be, unsigned view, const size_t *first, const size_t *n,
		     size_t nruns);
/* Write-protects the host view's pages (a CPU write faults; reads go on). */
void uvm_be_protect_host(struct uvm_backend *be, size_t first, size_t n);
/* Lifts that protection. */
void uvm_be_unprotect_host(struct uvm_backend *be, size_t first, size_t n);

/*
 * Times statement `stmt` as work on a device view, the GPU's own page-table
 * work the emulator does for it on the host: on a GPU, its TLB shootdown is
 * the hardware's and its PTE writes are its copy engine's, from the
 * driver's push. Counted in its stage (`unmap` or `map`) and apart as
 * gpu_unmap or gpu_map, which experiment 13 leaves out of the host's batch.
 */
#define UVM_GPU_VIEW_TIMED(be, stage, stmt)                                                        \
	do {                                                                                       \
		uint64_t uvm_gpu_t0_ = uvm_now_ns(), uvm_gpu_ns_;                                  \
		stmt;                                                                              \
		uvm_gpu_ns_ = uvm_elapsed_ns(uvm_gpu_t0_);                                         \
		(be)->st->ns.stage += uvm_gpu_ns_;                                                 \
		(be)->st->ns.gpu_##stage += uvm_gpu_ns_;                                           \
	} while (0)
#define UVM_GPU_UNMAP_TIMED(be, stmt) UVM_GPU_VIEW_TIMED(be, unmap, stmt)
#define UVM_GPU_MAP_TIMED(be, stmt)   UVM_GPU_VIEW_TIMED(be, map, stmt)

/* The arena offset of a block, and the bytes of n blocks. */
static inline uint64_t uvm_be_off(size_t block)
{
	return (uint64_t)block << UVM_BLOCK_SHIFT;
}

#endif
