/* SPDX-License-Identifier: MIT */
/*
 * uvmmu.h - UVMMU's hardware fault path (--fault-path uvmmu; paper 003).
 *
 * No batches and no software handling cost: each far fault is resolved on
 * its own as soon as the driver thread reads it, through the same decisions
 * and operations as the batched path (service.c, ops.c) applied to a batch
 * of one. Its modelled cost is --uvmmu-latency (dilated) and then the 64 KB
 * transfer on the link; when memory is full the eviction policy's victim is
 * written back over the other link direction at the same time (a swap pays
 * one latency). The critical page comes first: the faulting thread wakes
 * when its 4 KB page's share of the transfer is done, every other waiter on
 * the block when the whole block is. The driver thread is the mechanism
 * only; its real costs are the emulator's, and each fault whose real
 * resolution ended after its critical page's modelled time counts as a
 * model overrun. Device frames are handed out by the destination candidate
 * queue (candidates.h).
 *
 * The schedule of wake-ups is kept apart from the driver (uvmmu_sched.c) so
 * that tests can check it against the model's timestamps.
 */
#ifndef UVM_UVMMU_H
#define UVM_UVMMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "candidates.h"

/* One pending wake-up of a range of the device or host view. */
struct uvm_uvmmu_wake {
	uint64_t at;	  /* modelled time it is due (uvm_now_ns clock) */
	uint64_t lat_end; /* when the migration's hardware latency ended */
	uintptr_t addr;
	uint64_t len;
	size_t block;	/* the block it waits for */
	bool block_end; /* the whole block's transfer ends at `at` */
};

struct uvm_uvmmu_sched {
	struct uvm_uvmmu_wake *w;
	size_t n, cap;
};

/* Block `block` migrated for a fault on the page at `page_addr`: its thread
 * wakes at `crit`, every waiter on the block (`block_addr`, 64 KB) at `end`. */
int uvm_uvmmu_sched_migrated(struct uvm_uvmmu_sched *s, size_t block, uintptr_t page_addr,
			     uintptr_t block_addr, uint64_t crit, uint64_t end, uint64_t lat_end);
/* Any other wake-up: due at `at`, or when `block`'s transfer in flight ends
 * if that is later. Returns when it is due, or 0 without memory. */
uint64_t uvm_uvmmu_sched_other(struct uvm_uvmmu_sched *s, size_t block, uintptr_t addr,
			       uint64_t len, uint64_t at);
/* The end of `block`'s transfer still pending (0: none in flight). */
uint64_t uvm_uvmmu_sched_in_flight(const struct uvm_uvmmu_sched *s, size_t block);
/* When the earliest wake-up is due (UINT64_MAX: none). */
uint64_t uvm_uvmmu_sched_next(const struct uvm_uvmmu_sched *s);
/* Removes the wake-ups due at or before `now`, earliest first, into out (at
 * most max); returns how many. */
size_t uvm_uvmmu_sched_pop(struct uvm_uvmmu_sched *s, uint64_t now, struct uvm_uvmmu_wake *out,
			   size_t max);
void uvm_uvmmu_sched_destroy(struct uvm_uvmmu_sched *s);

/* The driver's side (uvmmu_path.c); d is the driver (driver_int.h). */
struct uvm_driver;
struct uvm_uvmmu;
int uvm_uvmmu_create(struct uvm_driver *d, char *err, size_t errlen);
/* Wakes every thread still waiting and frees the path's state. */
void uvm_uvmmu_destroy(struct uvm_driver *d);
/* Reads the faults waiting and resolves each alone. False when none came. */
bool uvm_uvmmu_resolve(struct uvm_driver *d);
/* Wakes the threads whose time has come, waiting through short gaps while no
 * fault or command is queued (a poll timeout would overshoot them). */
void uvm_uvmmu_settle(struct uvm_driver *d);
/* When the next wake-up is due (UINT64_MAX: none). */
uint64_t uvm_uvmmu_next_wake(const struct uvm_driver *d);
/* GMMU accessors: a far fault on the page at arena offset `page`, resolved
 * on the driver thread without a userfaultfd message (called from a worker;
 * waits for the driver). Returns when the page is modelled as arrived: the
 * caller waits until then. */
uint64_t uvm_uvmmu_direct(struct uvm_driver *d, uint64_t page, bool write);

#endif
