/* SPDX-License-Identifier: MIT */
/*
 * driver.h - the fault-handler thread (docs/architecture.md, "The fault path").
 *
 * One loop: fetch up to `batch` fault messages, preprocess (drop duplicates,
 * sort by vablock), service per vablock (policy, room, copy, unmap), wait
 * for the time model, replay (wake the faulting threads), and wait for the
 * asynchronous work of earlier batches (tracker wait). Each stage is timed.
 * Other threads talk to it through commands that wait for completion.
 */
#ifndef UVM_DRIVER_H
#define UVM_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "arena.h"
#include "config.h"
#include "gpu.h"
#include "model.h"
#include "pool.h"
#include "residency.h"
#include "session.h"
#include "space.h"
#include "stats.h"
#include "uffd.h"

struct uvm_driver;

/* Thrashing per allocation and the round-trip histogram, for the report. */
#define UVM_MAX_TRIPS 256
struct uvm_alloc_thrash {
	uint64_t returns; /* evicted blocks brought back */
	uint64_t blocks;  /* distinct blocks that came back at least once */
};
struct uvm_thrash_stats {
	uint64_t trips[UVM_MAX_TRIPS];	/* blocks by round trips, for blocks with at least one */
	struct uvm_alloc_thrash *alloc; /* by allocation id */
	size_t nalloc;
};

/* What the driver works on; owned by the emulator instance. */
struct uvm_backend_ops;

struct uvm_driver_deps {
	const struct uvm_backend_ops *backend; /* how the views are worked */
	struct uvm_uffd *uffd;
	struct uvm_arena *arena;
	struct uvm_space *space;
	struct uvm_model *model; /* every modelled time: latencies, the link */
	struct uvm_gpu *gpu;	 /* --clock model: the GPU's clock (NULL: real) */
	struct uvm_pool *pool;	 /* one per GPU of the arena (arena->ngpus) */
	const struct uvm_config *cfg;
	struct uvm_session *session; /* the executor attached, launches */
	/* Observers of residency and of the fault path besides the driver's
	 * own (the data reuse measurement, traces): copied at start. */
	const struct uvm_res_observer *observers;
	size_t nobservers;
};

int uvm_driver_start(struct uvm_driver **out, const struct uvm_driver_deps *deps, char *err,
		     size_t errlen);
/* Stops the thread and frees the driver; pending faults are woken. */
void uvm_driver_stop(struct uvm_driver *d);

/* Queues an explicit prefetch of [off, off + len) to GPU gpu, or the host
 * when gpu < 0 (cudaMemPrefetchAsync), on GPU stream's stream (the issuing
 * thread's current device: the model clock orders it after that GPU's
 * earlier work), and returns at once; -ENODEV for a GPU the run does not
 * have. */
int uvm_driver_prefetch(struct uvm_driver *d, uint64_t off, uint64_t len, int gpu, unsigned stream);
/* Waits until queued prefetches are done and their modelled time has passed. */
void uvm_driver_sync(struct uvm_driver *d);
/* Sets and clears advice bits (UVM_ADV_*) over [off, off + len) (waits).
 * gpu: the GPU a preferred device location or accessed-by names (-1: none,
 * the CPU); -ENODEV for a GPU the run does not have, or none where the
 * advice needs one. */
int uvm_driver_advise(struct uvm_driver *d, uint64_t off, uint64_t len, uint8_t set, uint8_t clear,
		      int gpu);
/* Forgets a managed range before its views are torn down (waits). */
int uvm_driver_free_range(struct uvm_driver *d, uint64_t off, uint64_t len);
/* Evicts until device memory is within the pool's limit again (waits). */
int uvm_driver_shrink(struct uvm_driver *d);
/*
 * Runs fn(arg) on the driver thread between two batches and waits for it: a
 * point where no operation of the driver's is half done (device memory in use
 * is exactly what the books say).
 */
void uvm_driver_call(struct uvm_driver *d, void (*fn)(void *arg), void *arg);
/*
 * Blocks [first, first + n) made resident and mapped on the host, and kept
 * there (host-pinned advice) until unpinned, for a system call on a managed
 * buffer (waits); had[] (n bytes) records which were host-pinned before, so
 * that the unpin restores them.
 */
void uvm_driver_pin_host(struct uvm_driver *d, size_t first, size_t n, uint8_t *had);
void uvm_driver_unpin_host(struct uvm_driver *d, size_t first, size_t n, uint8_t *had);
/* --fault-path uvmmu with GMMU accessors: a far fault on the page at arena
 * offset `page`, resolved from the accessing thread (no userfaultfd
 * message; waits for the driver). Returns when the page is modelled as
 * arrived: the caller waits until then. 0 on the batched path. */
uint64_t uvm_driver_direct_fault(struct uvm_driver *d, uint64_t page, bool write);
/* A kernel launch begins (index): policies hear of it and the launch's data
 * reuse measurement starts (the observers' probe), before the kernel's first
 * access (waits). */
void uvm_driver_launch(struct uvm_driver *d, uint64_t index);
/* A REMOTE block's access count reached the notification threshold (an
 * accessor saw it): the driver checks the counts now, not at its next scan. */
void uvm_driver_counter_notify(struct uvm_driver *d);
/* Asks for every access counter to be halved (an accessor saw one saturate). */
void uvm_driver_request_halving(struct uvm_driver *d);
/* Adds counters gathered outside the driver (explicit copies) to the totals. */
void uvm_driver_account(struct uvm_driver *d, const struct uvm_stats *delta);
/* The totals published so far, without waiting for the driver (may lag a
 * batch behind: for progress lines). */
void uvm_driver_totals(struct uvm_driver *d, struct uvm_stats *out);
/* A copy of the thrashing statistics; free out->alloc afterwards. */
void uvm_driver_thrash_stats(struct uvm_driver *d, struct uvm_thrash_stats *out);
/* Blocks mapped remotely (zero-copy) now. */
uint64_t uvm_driver_remote_blocks(struct uvm_driver *d);
/* The run's totals so far. */
void uvm_driver_stats(struct uvm_driver *d, struct uvm_stats *out);
/* Why unmaps run synchronously ("" when they use io_uring). */
const char *uvm_driver_sync_reason(struct uvm_driver *d);
/* How the driver thread's model waits are made precise (its timer slack). */
const char *uvm_driver_wait_how(struct uvm_driver *d);
/* --driver-sched: the driver thread's scheduling class and why
 * (system.driver_sched); whether it is real time. */
const char *uvm_driver_sched_how(const struct uvm_driver *d);
bool uvm_driver_realtime(const struct uvm_driver *d);

#endif
