/* SPDX-License-Identifier: MIT */
/*
 * residency.h - the one writer of block residency and of everything that
 * follows from it.
 *
 * A block's state (space.h) says where its valid data is. From the states
 * follow counts that other modules read: each vablock's resident blocks, the
 * device pool's use, the REMOTE blocks and those of them the device view
 * maps, the gmmu state bits accessors read, the round-trip and thrashing
 * books. Before this module existed the driver updated them by hand in many
 * places and a test double kept a third copy; they drifted. Now every state
 * change goes through uvm_res_move and friends, which update the counts and
 * tell the observers (the eviction policy, thrashing detection, statistics)
 * what happened, and uvm_res_check walks every invariant.
 *
 * The backends (backend.h) carry out the page-table work; they never touch
 * these books. Everything here runs on the driver thread (or a test's single
 * thread), except that executor workers read the gmmu bits and counters.
 */
#ifndef UVM_RESIDENCY_H
#define UVM_RESIDENCY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool.h"
#include "space.h"
#include "events.h"
#include "stats.h"

/* A run of resident blocks a launch's reuse measurement probes (reuse.h):
 * unmapped from the device view so that its first touch faults. */
#define UVM_RES_PROBE_RUNS 4
#define UVM_RES_PROBE_LEN  16
struct uvm_res_run {
	size_t first, n;
};

/*
 * What observers hear. Each callback is optional and cannot fail; it runs
 * after the books changed (a `resident` observer sees the block DEVICE and
 * its vablock's count including it). Each callback is optional and cannot fail; it runs
 * after the books changed (a `resident` observer sees the block DEVICE and
 * its vablock's count including it).
 */
struct uvm_res_observer {
	void *p;
	/* Gained (lost) a copy on a GPU: uvm_res_event_gpu says which. */
	void (*resident)(void *p, size_t b);
	void (*released)(void *p, size_t b);
	void (*touched)(void *p, size_t b, bool write); /* a GPU access to a resident block */
	void (*launch)(void *p, uint64_t index);	/* a kernel launch began */
	void (*migrated)(void *p, size_t b, enum uvm_side to); /* moved on a fault */
	/* An evicted block came back: its allocation and earlier round trips. */
	void (*returned)(void *p, size_t b, uint32_t alloc, uint8_t trips);
	/* The fault path's events (events.h): every fault and its outcome, and
	 * every batch's counters as they are published. */
	void (*fault)(void *p, const struct uvm_fault_event *f);
	void (*batch)(void *p, const struct uvm_batch_event *b);
	/* A GPU far fault on block b, whose state was `before` when serviced;
	 * probe_hit: b was probed and this is the launch's first touch of it. */
	void (*gpu_fault)(void *p, size_t b, uint8_t before, bool probe_hit);
	/* A launch begins: the runs of resident blocks to probe (at most
	 * UVM_RES_PROBE_RUNS; 0: none). gmmu: accessors count every access;
	 * can_probe: the backend can unmap resident blocks. One observer
	 * answers. */
	size_t (*probe)(void *p, bool gmmu, bool can_probe, struct uvm_res_run *runs);
	/* GPU uvm_res_event_gpu mapped block b, DEVICE on another GPU, over
	 * the peer link (a peer mapping). */
	void (*peer_mapped)(void *p, size_t b);
	/* Optional: where uvm_res_observe writes the residency it joins, for
	 * an observer given to another part (the driver's) that reads
	 * uvm_res_event_gpu or uvm_res_event_evicted in its callbacks. */
	const struct uvm_residency **res;
};

#define UVM_RES_MAX_OBSERVERS 6

/* How a block leaves the device. */
enum uvm_res_how {
	UVM_RES_MIGRATE, /* on a fault or an explicit prefetch */
	UVM_RES_EVICT,	 /* to make room: a later return is a thrash */
};

struct uvm_residency {
	struct uvm_space *space;
	/* One per GPU (ngpus of them, from pool[0]): each counts the blocks
	 * with a copy on its GPU. */
	struct uvm_pool *pool;
	unsigned ngpus;
	/* The GPU whose copy a resident or released observer is being told of
	 * (uvm_res_event_gpu). */
	unsigned event_gpu;
	/* How that copy went, for a released observer (uvm_res_event_evicted). */
	enum uvm_res_how event_how;
	struct uvm_stats *st; /* the batch's counters (thrashed, wasted prefetches) */
	struct uvm_res_observer obs[UVM_RES_MAX_OBSERVERS];
	unsigned nobs;
	uint64_t remote_blocks;		/* blocks in state REMOTE */
	_Atomic uint64_t remote_mapped; /* REMOTE blocks the device view maps
					 * (read by launching threads) */
	bool halve_trips;		/* a round-trip field saturated: halve all */
	/* Peer mappings: (block, GPU) pairs, the bits of every DEVICE block's
	 * `peers` (driver thread only). */
	uint64_t peer_mapped;
};

void uvm_res_init(struct uvm_residency *r, struct uvm_space *space, struct uvm_pool *pool,
		  struct uvm_stats *st);
/* A run of ngpus GPUs (1 to UVM_MAX_GPUS; 1 until set): pool points at as
 * many pools. */
void uvm_res_set_gpus(struct uvm_residency *r, unsigned ngpus);
/* Adds an observer (at most UVM_RES_MAX_OBSERVERS; a bug otherwise). */
void uvm_res_observe(struct uvm_residency *r, const struct uvm_res_observer *o);

/*
 * Moves blocks [first, first + n) to state `to`; every move must be legal
 * (space.c's table) or the process stops. `how` matters only for blocks
 * leaving the device. gpu: the GPU a block moving to DEVICE or DUPLICATED
 * (from the host) goes to, or whose device view maps a REMOTE one; a block
 * leaving the device leaves every GPU holding a copy.
 */
void uvm_res_move_gpu(struct uvm_residency *r, size_t first, size_t n, enum uvm_block_state to,
		      enum uvm_res_how how, unsigned gpu);
/* The same on GPU 0: a run of one GPU, and the tests. */
static inline void uvm_res_move(struct uvm_residency *r, size_t first, size_t n,
				enum uvm_block_state to, enum uvm_res_how how)
{
	uvm_res_move_gpu(r, first, n, to, how, 0);
}
/* DEVICE blocks on another GPU move to GPU gpu (a peer migration, or with
 * UVM_RES_EVICT an eviction to a peer): each GPU's pool and the observers
 * hear it. */
void uvm_res_peer(struct uvm_residency *r, size_t first, size_t n, unsigned gpu,
		  enum uvm_res_how how);
/* DUPLICATED blocks gain a read-only copy on GPU gpu. */
void uvm_res_dup_add(struct uvm_residency *r, size_t first, size_t n, unsigned gpu);
/* DUPLICATED blocks lose GPU gpu's copy; a block whose last copy it was
 * becomes HOST (`how` as for uvm_res_move). */
void uvm_res_dup_drop(struct uvm_residency *r, size_t first, size_t n, unsigned gpu,
		      enum uvm_res_how how);
/* In a resident or released observer: the GPU whose copy it is told of. */
static inline unsigned uvm_res_event_gpu(const struct uvm_residency *r)
{
	return r->event_gpu;
}
/* In a released observer: whether the copy was evicted (to the host or to a
 * peer GPU) rather than migrated or freed. */
static inline bool uvm_res_event_evicted(const struct uvm_residency *r)
{
	return r->event_how == UVM_RES_EVICT;
}
/* The blocks of vablock v with a copy on GPU g: what uvm_vablock_gpu_mask
 * finds, kept as copies come and go rather than scanned for. */
static inline struct uvm_vbmask uvm_res_gpu_mask(const struct uvm_residency *r, size_t v,
						 unsigned g)
{
	return r->space->on_gpu[v * UVM_MAX_GPUS + g];
}
/* REMOTE blocks [first, first + n): whether the device view maps them. */
void uvm_res_remote_mapped(struct uvm_residency *r, size_t first, size_t n, bool mapped);
/* REMOTE blocks [first, first + n) mapped now on GPU gpu's device view. */
void uvm_res_remote_map_on(struct uvm_residency *r, size_t first, size_t n, unsigned gpu);
/* DEVICE blocks [first, first + n), on GPUs other than gpu, mapped now on
 * GPU gpu's device view over the peer link (the same frames, remap). */
void uvm_res_peer_map(struct uvm_residency *r, size_t first, size_t n, unsigned gpu);
/* Their mapping on GPU gpu's view went (where it was one); sampled: by
 * sampling, so that the GPU's next fault on them counts an access. A block
 * with a peer mapping may not leave its GPU (uvm_res_move_gpu, uvm_res_peer
 * stop the process): the caller unmaps every peer first. */
void uvm_res_peer_unmap(struct uvm_residency *r, size_t first, size_t n, unsigned gpu,
			bool sampled);
/* DEVICE blocks [first, first + n): whether a reuse probe unmapped them. */
void uvm_res_probed(struct uvm_residency *r, size_t first, size_t n, bool probed);
/* A device-resident block was accessed (a stale fault or a counted access). */
void uvm_res_touched(struct uvm_residency *r, size_t b, bool write);
/* A block that just became resident came with the prefetcher, unasked. */
void uvm_res_prefetched(struct uvm_residency *r, size_t b);
/* A block that just became resident was written by the access that brought it. */
void uvm_res_written(struct uvm_residency *r, size_t b);
/* A block migrated to `to` on a fault (thrashing detection hears of it). */
void uvm_res_migrated(struct uvm_residency *r, size_t b, enum uvm_side to);
/* Kernel launch `index` began. */
void uvm_res_launch(struct uvm_residency *r, uint64_t index);
/* The fault path's events, passed on to the observers that hear them. */
bool uvm_res_wants_faults(const struct uvm_residency *r);
void uvm_res_fault(struct uvm_residency *r, const struct uvm_fault_event *f);
void uvm_res_batch(struct uvm_residency *r, const struct uvm_batch_event *b);
void uvm_res_gpu_fault(struct uvm_residency *r, size_t b, uint8_t before, bool probe_hit);
size_t uvm_res_probe(struct uvm_residency *r, bool gmmu, bool can_probe, struct uvm_res_run *runs);
/* The allocation over [off, off + len) is freed: its blocks leave the books. */
void uvm_res_free(struct uvm_residency *r, uint64_t off, uint64_t len);

/*
 * Walks every invariant: each vablock's resident count, the pool's use, the
 * REMOTE and mapped counts, the peer mappings and their count, the flags and
 * gmmu bits each state allows, the advice's GPUs.
 * Returns 0, or -EINVAL with the first violation described in err.
 */
int uvm_res_check(const struct uvm_residency *r, char *err, size_t errlen);

static inline bool uvm_state_on_device(uint8_t st)
{
	return st == UVM_DEVICE || st == UVM_DUPLICATED;
}

#endif
