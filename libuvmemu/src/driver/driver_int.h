/* SPDX-License-Identifier: MIT */
/*
 * driver_int.h - the driver's private state, shared by its files:
 *   driver.c   the thread, its loop and the commands from other threads
 *   batch.c    fetch (read fault messages) and preprocess (dedup, sort)
 *   service.c  servicing a batch per vablock: decisions and eviction
 *   ops.c, ops_remote.c  the operations on block runs: the backend's page
 *              table work (mm's backend_remap.c or backend_copy.c), the
 *              link booked through the model, and the state change through
 *              the residency module
 *   commands.c what other threads ask of the driver thread
 *   replay.c   the wait for the model, the wake-ups, the counters published
 *   faults.c   what the driver tells observers of its faults
 *   uvmmu_path.c  --fault-path uvmmu
 * No other file, in this module or any other, includes it: other modules
 * reach the driver through driver.h.
 *
 * Locking: everything here belongs to the driver thread (checked with
 * uvm_assert_driver_thread in Debug and sanitizer builds), except the fields
 * marked otherwise. cmd_lock and stats_lock are leaves of the lock order
 * (docs/architecture.md, "Locks").
 */
#ifndef UVM_DRIVER_INT_H
#define UVM_DRIVER_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "bug.h"
#include "driver.h"
#include "lock_order.h"
#include "model.h"
#include "policy.h"
#include "residency.h"
#include "stats.h"
#include "thrash.h"
#include "tracker.h"
#include "uvmemu_gmmu.h"
#include "views_check.h"

/* One fault after preprocessing. */
struct uvm_fault {
	uint64_t page;	     /* arena offset of the faulting 4 KB page */
	uint32_t tid;	     /* faulting thread (with UFFD_FEATURE_THREAD_ID) */
	uint8_t gpu;	     /* 1: device view (far fault), 0: host view (CPU fault) */
	uint8_t dev;	     /* a far fault: the GPU whose device view it hit (--gpus) */
	uint8_t write;	     /* a write, or a write to a write-protected page */
	uint8_t minor;	     /* host page in the page cache but not mapped */
	uint8_t outcome;     /* enum uvm_fault_outcome, for traces */
	uint32_t count;	     /* fault messages coalesced into this one */
	uint64_t not_before; /* a deferred fault waits until then (0: next batch) */
	/* The model clock: a deferred far fault's stamp, and the modelled time
	 * its warp waits for at least (a thrashing throttle's end). */
	uint64_t hold;
	struct uvm_gpu_stamp stamp;
};

/* A range of one view to wake at replay. */
struct uvm_wake {
	uintptr_t addr;
	uint64_t len;
};

enum uvm_cmd_kind {
	UVM_CMD_FREE,
	UVM_CMD_SHRINK,
	UVM_CMD_FLUSH,
	UVM_CMD_CALL,
	UVM_CMD_PREFETCH,
	UVM_CMD_ADVISE,
	UVM_CMD_STOP,
};

struct uvm_cmd {
	enum uvm_cmd_kind kind;
	uint64_t off, len;
	void (*fn)(void *arg); /* UVM_CMD_CALL */
	void *arg;
	bool to_device;	    /* UVM_CMD_PREFETCH */
	unsigned gpu;	    /* UVM_CMD_PREFETCH to a device: which */
	unsigned stream;    /* UVM_CMD_PREFETCH: the GPU whose stream it is on */
	uint64_t host_ns;   /* UVM_CMD_PREFETCH: the host's modelled time it was issued */
	uint8_t set, clear; /* UVM_CMD_ADVISE: advice bits */
	bool async;	    /* the submitter does not wait; the driver frees it */
	int result;
	bool done;
	struct uvm_cmd *next;
};

struct uvm_driver {
	struct uvm_driver_deps dep;
	pthread_t thread;
	bool started;
	bool pinned;			/* the driver has a core of its own (--pin on, > 2 cores) */
	_Atomic(const char *) wait_how; /* what uvm_clock_precise_thread took */
	bool realtime;			/* the driver runs SCHED_FIFO */
	char sched_how[128];		/* --driver-sched: what took, and why */
	int evfd;			/* command doorbell */

	/* Policies (instances and their operations): an eviction policy per
	 * GPU, each told of its own GPU's copies. */
	const struct uvm_evict_ops *evict;
	void *evict_p[UVM_MAX_GPUS];
	unsigned ngpus;
	/* The GPU whose faults or prefetch are being serviced: device-side
	 * operations act on its view and its pool. */
	unsigned target;
	bool evict_to_peer; /* --evict-to peer */
	const struct uvm_prefetch_ops *prefetch;
	void *prefetch_p;
	/* CPU faults' (--cpu-prefetch): prefetch and prefetch_p under "same". */
	const struct uvm_prefetch_ops *cpu_prefetch;
	void *cpu_prefetch_p;
	const struct uvm_migrate_ops *migrate;
	void *migrate_p;

	struct uvm_tracker tracker;
	struct uvm_backend backend; /* the page-table work of every operation */
	struct uvm_residency res;   /* block states and their counts */
	struct uvm_res_run probe[UVM_RES_PROBE_RUNS]; /* the launch's reuse probes */
	size_t nprobe;
	struct uvm_thrash thrash;
	enum uvm_replay_choice replay;
	bool oversubscribed;	      /* device memory has been full: an eviction happened */
	uint64_t proactive_blocks;    /* --proactive-evict: kept free after each batch (ETC) */
	bool check;		      /* --check: walk every residency invariant after each batch */
	uint64_t next_counter_scan;   /* when REMOTE blocks' counts are checked next */
	uint64_t next_sample;	      /* when REMOTE blocks are unmapped for sampling next */
	uint64_t remote_sample_bytes; /* remap: link bytes per sampled remote access */
	size_t sample_cursor;	      /* the vablock the next sampling scan starts at */
	size_t sample_blocks;	      /* --remote-sample-size: blocks unmapped per period */

	/* The batch being serviced. */
	uint64_t seq;
	unsigned max_batch;
	struct uvm_fault *fault;
	size_t nfault;
	struct uvm_fault *deferred; /* carried to the next batch */
	size_t ndeferred;
	/* The model clock: each GPU message of the batch, stamped when read,
	 * committed to the GPU's clock once its outcome is known. */
	struct uvm_stamped {
		uint64_t page;
		struct uvm_gpu_stamp s;
	} * stamped;
	size_t nstamped;
	bool model_pending; /* faults wait in the GPU clock's buffer */
	/* The model's time is at least this: a held fault came back at the end
	 * of its hold (thrashing reads it: the hold cannot begin again). */
	uint64_t model_floor;
	/* The model clock: the batch's CPU faults, what their service moved
	 * and the host's modelled time at the fetch (at: 0, none). */
	struct {
		uint64_t at;
		uint64_t bytes[2];
		uint32_t xfers[2];
	} host;
	struct uvm_wake *wake;
	size_t nwake, capwake;
	struct uvm_stats st;	    /* this batch */
	struct uvm_batch_time bt;   /* its time: began, modelled end, transfers */
	/* Under the model clock, the runs of blocks the vablock being
	 * serviced brings to a device (open from its service's start to its
	 * claim): they arrive with its first far fault's transfers
	 * (uvm_gpu_follow). A vablock has at most a run per two blocks. */
	struct {
		bool open;
		unsigned count;
		size_t first[UVM_BLOCKS_PER_VABLOCK / 2 + 1], n[UVM_BLOCKS_PER_VABLOCK / 2 + 1];
	} arrived;
	/* The model can never delay a wake-up (no fault latency, unlimited
	 * link): copies wake their waiters as they land instead of at replay. */
	bool wake_at_copy;
	uint64_t host_fill;   /* bytes */
	uint64_t launch_seen; /* launches the eviction policy was told about */

	/* --fault-path uvmmu (uvmmu.h; NULL: the batched driver path). Its
	 * transfers are issued no earlier than bt.not_before, and the last
	 * host-to-device one is kept for the critical page's time. */
	struct uvm_uvmmu *uvmmu;
	uint64_t prefetch_end;		  /* modelled completion of explicit prefetches */
	bool halve_accesses, halve_trips; /* a counter field saturated */

	/* Written by other threads. */
	_Atomic bool halve_requested;
	_Atomic bool counter_notified; /* uvm_driver_counter_notify since the last scan */
	_Atomic uint64_t launch; /* current kernel launch index + 1 (0: none yet) */
	struct uvm_mutex cmd_lock;
	pthread_cond_t cmd_cond;
	struct uvm_cmd *cmd_head, *cmd_tail;

	struct uvm_mutex stats_lock; /* guards totals and what follows */
	struct uvm_stats totals;
	struct uvm_thrash_stats thrash_stats;
};

/* batch.c */
int uvm_batch_fetch(struct uvm_driver *d);
/* When the earliest deferred fault is due (UINT64_MAX: none deferred). */
uint64_t uvm_batch_next_deferred(const struct uvm_driver *d);
void uvm_batch_preprocess(struct uvm_driver *d);
/* Fetch, then preprocess, each stage timed. Returns the faults (0: none came). */
size_t uvm_batch_take(struct uvm_driver *d);
void uvm_batch_add_wake(struct uvm_driver *d, uintptr_t addr, uint64_t len);

/* service.c */
void uvm_service_batch(struct uvm_driver *d);
/* Makes blocks [first, first + n) resident on GPU d->target (to_device) or
 * the host (explicit prefetch). */
void uvm_service_prefetch(struct uvm_driver *d, size_t first, size_t n, bool to_device);
/* Sampling (when far faults are the access counters' only source): unmaps
 * up to `budget` REMOTE blocks from the device view, so that their next
 * access faults and counts, as NUMA balancing's hinting faults do. Returns
 * the blocks unmapped. */
size_t uvm_service_sample_remote(struct uvm_driver *d, size_t budget);
/* A fault a GPU would not take (sampled, probe, refreshed): no far fault,
 * no modelled fault latency. */
bool uvm_fault_emulated(const struct uvm_fault *f);
/* Access-counter-driven migration: REMOTE blocks whose count now meets the
 * migration policy's threshold move to the device (GMMU accessors count
 * their remote reads without faulting, so nothing else would notice). */
void uvm_service_counter_migrations(struct uvm_driver *d);
/* The lowest access count at which the migration policy would migrate a
 * REMOTE block with no round trips now (0: none would): where the GMMU
 * accessors' counters notify the driver (uvmemu_gmmu.h). Blocks that made
 * round trips need more and are left to the periodic scan. */
uint32_t uvm_service_notify_threshold(struct uvm_driver *d);
/* Makes room for `blocks` more on GPU d->target. */
int uvm_service_make_room(struct uvm_driver *d, uint64_t blocks, size_t keep_vablock);
/* Room that nothing waits for: never from a vablock with in_batch >=
 * in_use_from; -ENOSPC when only those are left. */
int uvm_service_make_spare_room(struct uvm_driver *d, uint64_t blocks, uint64_t in_use_from);
void uvm_service_evict_all_excess(struct uvm_driver *d);

/* ops.c, ops_remote.c - each acts on blocks [first, first + n) of one
 * vablock, all in the state the operation expects. */
void uvm_op_zero_fill(struct uvm_driver *d, size_t first, size_t n);
void uvm_op_to_device(struct uvm_driver *d, size_t first, size_t n);
/* evicting: to make room (the host view maps at the CPU's next touch);
 * otherwise for a waiting CPU (mapped now). */
void uvm_op_to_host(struct uvm_driver *d, size_t first, size_t n, bool evicting);
void uvm_op_host_fill(struct uvm_driver *d, size_t first, size_t n);
/* DEVICE blocks: unmapped from the device view for a reuse probe (they stay
 * resident), and mapped again at the first touch or the next launch. */
void uvm_op_probe(struct uvm_driver *d, size_t first, size_t n);
void uvm_op_unprobe(struct uvm_driver *d, size_t first, size_t n);
/* Evicts every block of the victim range with a copy on GPU d->target: to
 * the host, or under --evict-to peer to a peer GPU with room. */
void uvm_op_evict(struct uvm_driver *d, const struct uvm_victim *v);
/* DEVICE blocks on another GPU to GPU d->target over the peer link (how:
 * migrated, or evicted to it). */
void uvm_op_peer(struct uvm_driver *d, size_t first, size_t n, enum uvm_res_how how);
/* DUPLICATED blocks: a read-only copy on GPU d->target too. */
void uvm_op_dup_add(struct uvm_driver *d, size_t first, size_t n);
/* The device-view address of arena offset off on GPU g. */
static inline uintptr_t uvm_driver_dev_addr(const struct uvm_driver *d, unsigned g, uint64_t off)
{
	return uvm_dev_addr_g(d->dep.arena, g, off);
}
/* The backend, its operations that follow acting on GPU g's device view. */
static inline struct uvm_backend *uvm_driver_backend_on(struct uvm_driver *d, unsigned g)
{
	d->backend.gpu = g;
	return &d->backend;
}
/* The backend on the device view of the GPU block b's copy (or mapping)
 * is on. */
static inline struct uvm_backend *uvm_driver_backend_of(struct uvm_driver *d, size_t b)
{
	return uvm_driver_backend_on(d, d->dep.space->block[b].gpu);
}
/* The pool of GPU g. */
static inline struct uvm_pool *uvm_driver_pool(const struct uvm_driver *d, unsigned g)
{
	return &d->dep.pool[g];
}
/* Where fault f's thread waits: its GPU's device view or the host view. */
static inline uintptr_t uvm_fault_addr(const struct uvm_driver *d, const struct uvm_fault *f)
{
	return f->gpu ? uvm_driver_dev_addr(d, f->dev, f->page) : d->dep.arena->host + f->page;
}
/*
 * Before the blocks of `mask` (vablock from `first`) migrate to the device:
 * one batched zap of the host view of every HOST and REMOTE run, as a
 * block's host PTEs must be gone before its device mapping. Returns true
 * when it zapped (two runs or more): the runs' operations then skip their
 * own host zap until the caller clears d->backend.zapped.
 */
bool uvm_op_zap_host_first(struct uvm_driver *d, size_t first, struct uvm_vbmask mask);
/* The DEVICE and DUPLICATED blocks of `mask` (vablock from `first`) to the
 * host, mapped there now (a CPU fault's), device views zapped in one batch. */
void uvm_op_to_host_mask(struct uvm_driver *d, size_t first, struct uvm_vbmask mask);

/* HOST, or REMOTE not mapped on the device: map it there (zero-copy). */
void uvm_op_map_remote(struct uvm_driver *d, size_t first, size_t n);
/* The same on GPU gpu's view; charge: a fault's mapping, whose traffic the
 * link is charged (a mapping ahead of any access charges nothing). */
void uvm_op_map_remote_on(struct uvm_driver *d, size_t first, size_t n, unsigned gpu, bool charge);

/* ops_peer.c - peer mappings (remap only) and accessed-by's mappings. */
/* DEVICE blocks on one other GPU: mapped on GPU gpu's view too, those not
 * mapped there yet (charge: as uvm_op_map_remote_on). */
void uvm_op_peer_map(struct uvm_driver *d, size_t first, size_t n, unsigned gpu, bool charge);
/* GPU gpu's peer mappings of the blocks go (sampled: by sampling). */
void uvm_op_peer_unmap(struct uvm_driver *d, size_t first, size_t n, unsigned gpu, bool sampled);
/* Every GPU's: before the blocks leave their GPU. */
void uvm_op_peer_unmap_all(struct uvm_driver *d, size_t first, size_t n);
/* After the blocks moved (or were advised): each accessed-by GPU maps them
 * where they are now, ahead of any access (--gpus > 1, remap). */
void uvm_op_follow_accessed_by(struct uvm_driver *d, size_t first, size_t n);
/* Blocks [first, first + n) reach the device in the vablock being serviced. */
void uvm_op_arrived(struct uvm_driver *d, size_t first, size_t n);
/* REMOTE mapped on the device: unmap it there (sampling). */
void uvm_op_remote_unmap(struct uvm_driver *d, size_t first, size_t n);
void uvm_op_remote_to_device(struct uvm_driver *d, size_t first, size_t n);
void uvm_op_remote_to_host(struct uvm_driver *d, size_t first, size_t n, bool map_host);
void uvm_op_duplicate(struct uvm_driver *d, size_t first, size_t n);
void uvm_op_dup_to_device(struct uvm_driver *d, size_t first, size_t n);
void uvm_op_dup_to_host(struct uvm_driver *d, size_t first, size_t n, bool evicting);

/* proactive.c - ETC's proactive eviction: once device memory has been
 * full, evicts after a batch until --proactive-evict is free, the
 * write-backs waited for by no fault. */
void uvm_driver_proactive_evict(struct uvm_driver *d, uint64_t serviced_from);

/* replay.c */
/* Waits for the model until `end`; what the wake-up overshot is counted as
 * late_wake and returned (the planned part is the caller's stage). */
uint64_t uvm_driver_wait(struct uvm_driver *d, uint64_t end);
/* Waits for the model (fault latency, link), then wakes the threads of the
 * wake list (replay). gpu: the batch had far faults the model charges. */
void uvm_driver_replay(struct uvm_driver *d, bool gpu);
/* Wakes the threads of the wake list now. */
void uvm_driver_wake_all(struct uvm_driver *d);
/* Folds the batch's counters into the run's totals and tells the observers
 * (a trace row each: the rows add up to the totals). */
void uvm_driver_publish(struct uvm_driver *d, enum uvm_batch_kind kind, uint64_t start);

/* commands.c */
/* Runs the commands queued by other threads; true when one said stop. */
bool uvm_driver_run_commands(struct uvm_driver *d);
/* Queues a command of `kind` over [off, off + len) and waits for it. */
int uvm_driver_command(struct uvm_driver *d, enum uvm_cmd_kind kind, uint64_t off, uint64_t len);

/* faults.c */
/* Whether far faults count as accesses (no GMMU accessors do it). */
bool uvm_driver_counts_faults(const struct uvm_driver *d);
/* The model clock: the batch's GPU messages go to the GPU's clock with
 * their outcomes (before their threads wake), and the transfers serviced
 * for a vablock to the block of its first far fault. */
void uvm_driver_commit_faults(struct uvm_driver *d);
/* The stamp the batch's message of far fault `page` got at fetch. */
struct uvm_gpu_stamp uvm_driver_stamp_of(const struct uvm_driver *d, uint64_t page);
/* One far fault of a worker (stamped s) to the GPU's clock, by its outcome. */
void uvm_driver_commit_one(struct uvm_driver *d, struct uvm_gpu_stamp s, const struct uvm_fault *f);
/* The model clock: what the service since the last claim moved is charged
 * to the modelled batch holding the GPU fault `lead`, else to the host's
 * CPU faults (host) or, neither, to the link in the background. */
void uvm_driver_claim(struct uvm_driver *d, const struct uvm_fault *lead, bool host);
/* The time thrashing detection reads: the model's time under the model
 * clock (a lapse is modelled time: gpu.h's progress), the host's real time
 * under the real clock. */
uint64_t uvm_driver_thrash_now(struct uvm_driver *d);
/* Tells the observers what became of a fault (traces). */
void uvm_driver_trace_fault(struct uvm_driver *d, const struct uvm_fault *f);

/* Stops the process unless the caller is the driver thread (Debug and
 * sanitizer builds; nothing otherwise): what only the driver thread may
 * touch says so where it is touched. */
static inline void uvm_assert_driver_thread(const struct uvm_driver *d)
{
	(void)d;
	uvm_assert_role(UVM_ROLE_DRIVER, "the driver's state");
}

#endif
