/* SPDX-License-Identifier: MIT */
/*
 * arena.h - the managed address space's three views and their memory.
 *
 * One VA reservation holds three equal regions: the host view (what the
 * program's pointers point into; MAP_SHARED on the memfd that holds host
 * frames), the device view (private anonymous pages, the device frames) and
 * the DMA view (a second mapping of the memfd that is never registered for
 * faults, through which the driver reads and writes host data). A managed
 * allocation occupies the same offset in all three, aligned to a 2 MB
 * vablock, so a block never straddles the end of a view (a 64 KB range
 * rounded down from a fault address stays inside the allocation's mappings).
 */
#ifndef UVM_ARENA_H
#define UVM_ARENA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lock_order.h"

/*
 * Each view reserves address space (not memory) for the arena: 4 TiB, so
 * that 2,097,152 allocations (one 2 MB slot each at least) fit at once, or,
 * where the address space is smaller (ThreadSanitizer's layout, ulimit -v),
 * the largest power of two it allows down to 256 GiB (with several GPUs,
 * down to uvm_arena_min). What the host can back bounds the managed bytes
 * long before (--host-mem).
 */
#define UVM_ARENA_MAX (4ull << 40)
#define UVM_ARENA_MIN (256ull << 30)

/* The least a view may reserve with ngpus GPUs: UVM_ARENA_MIN for one, and
 * for more the power of two that keeps the views' total (2 + ngpus views)
 * within one GPU's three minimal views; 64 GiB at 8 GPUs (32,768 slots). */
static inline uint64_t uvm_arena_min(unsigned ngpus)
{
	uint64_t min = UVM_ARENA_MIN;

	while (min > (1ull << 30) && (2 + (uint64_t)ngpus) * min > 3 * UVM_ARENA_MIN)
		min /= 2;
	return min;
}

/*
 * Slots: an allocation takes whole 2 MB slots, the lowest run that fits
 * (first fit), found in a bitmap with one bit per slot, so that taking and
 * giving stay cheap with millions of allocations in any order.
 */
struct uvm_arena {
	int memfd;
	uintptr_t host, dev, dma; /* bases of the three views (dev: GPU 0's) */
	uint64_t size;		  /* of each view */
	/* Several GPUs (--gpus): a device view each, GPU g's at devs[g]
	 * (devs[0] == dev), the same kind of mapping as GPU 0's. */
	unsigned ngpus;
	uintptr_t devs[8];

	struct uvm_mutex lock; /* guards the slot bitmap */
	uint64_t nslots;       /* size / 2 MB */
	uint64_t *used;	       /* one bit per slot: taken */
	uint64_t low;	       /* every slot below is taken */

	/* One bit per 64 KB block: open for faults (registered and published,
	 * until unmapped). The mprotect capture's signal handler reads it. */
	_Atomic uint64_t *open;
	/* The mprotect capture: views stay PROT_NONE when opened; the driver
	 * opens block by block. */
	bool closed_views;
};

/* ngpus: device views to reserve (1 to 8). */
int uvm_arena_init(struct uvm_arena *a, unsigned ngpus, char *err, size_t errlen);
void uvm_arena_destroy(struct uvm_arena *a);
/* Takes len bytes (a multiple of 2 MB) of offsets, first fit; -ENOMEM. */
int uvm_arena_take(struct uvm_arena *a, uint64_t len, uint64_t *off);
/* Takes exactly [off, off + len) if all of it is free; -EBUSY otherwise. */
int uvm_arena_take_at(struct uvm_arena *a, uint64_t off, uint64_t len);
void uvm_arena_give(struct uvm_arena *a, uint64_t off, uint64_t len);
/*
 * Maps the views over [off, off+len) (the reservation is PROT_NONE), closed
 * until uvm_arena_open.
 * shared_frames: the device view maps the memfd too (the remap backend) and
 * no DMA view is needed; otherwise it is private memory (device frames of
 * their own) and the DMA view maps the memfd for the copies.
 */
int uvm_arena_map(struct uvm_arena *a, uint64_t off, uint64_t len, bool shared_frames);
/*
 * The host and device views are mapped PROT_NONE: a thread touching the
 * range before its userfaultfd registration (a program racing its own free
 * and allocation) would otherwise populate pages the driver's books call
 * EMPTY. Once the range is registered, this opens them for reading and
 * writing.
 */
int uvm_arena_open(struct uvm_arena *a, uint64_t off, uint64_t len);
/* Whether addr, in the host or device view, lies in an open block;
 * async-signal-safe. */
bool uvm_arena_is_open(const struct uvm_arena *a, uintptr_t addr);
/* Frees every frame of the range (both sides) and restores the reservation. */
int uvm_arena_unmap(struct uvm_arena *a, uint64_t off, uint64_t len);
/*
 * Frees every frame of a freed allocation's range but keeps its mappings
 * (and their userfaultfd registration): a hole of PROT_NONE between live
 * allocations would split each view's mapping in three, and with Linux's
 * default vm.max_map_count (65530) about 10,000 such holes exhaust a
 * process. A touch of the released range still faults to the driver, which
 * unmaps the slot (uvm_arena_unmap) before letting the access fail.
 */
int uvm_arena_release(struct uvm_arena *a, uint64_t off, uint64_t len);

static inline uintptr_t uvm_host_addr(const struct uvm_arena *a, uint64_t off)
{
	return a->host + off;
}
static inline uintptr_t uvm_dev_addr(const struct uvm_arena *a, uint64_t off)
{
	return a->dev + off;
}
static inline uintptr_t uvm_dev_addr_g(const struct uvm_arena *a, unsigned gpu, uint64_t off)
{
	return a->devs[gpu] + off;
}
/* The GPU whose device view holds addr (its arena offset in *off), or -1. */
static inline int uvm_arena_gpu_of(const struct uvm_arena *a, uintptr_t addr, uint64_t *off)
{
	for (unsigned g = 0; g < a->ngpus; g++)
		if (addr >= a->devs[g] && addr - a->devs[g] < a->size) {
			*off = addr - a->devs[g];
			return (int)g;
		}
	return -1;
}
/* The reservation: host, GPU 0's device view, DMA, then GPU 1.. 's views. */
static inline uint64_t uvm_arena_span(const struct uvm_arena *a)
{
	return (2 + (uint64_t)a->ngpus) * a->size;
}
static inline uintptr_t uvm_dma_addr(const struct uvm_arena *a, uint64_t off)
{
	return a->dma + off;
}

#endif
