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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most managed memory one process can allocate; each view reserves this
 * much address space (not memory). */
#define UVM_ARENA_SIZE (256ull << 30)

struct uvm_extent {
	uint64_t off, len;
};

struct uvm_arena {
	int memfd;
	uintptr_t host, dev, dma; /* bases of the three views */
	uint64_t size;		  /* of each view */

	pthread_mutex_t lock;	 /* guards the free list */
	struct uvm_extent *free; /* sorted by offset, coalesced */
	size_t nfree, capfree;
};

int uvm_arena_init(struct uvm_arena *a, char *err, size_t errlen);
void uvm_arena_destroy(struct uvm_arena *a);
/* Takes len bytes (a multiple of 2 MB) of offsets, first fit; -ENOMEM. */
int uvm_arena_take(struct uvm_arena *a, uint64_t len, uint64_t *off);
void uvm_arena_give(struct uvm_arena *a, uint64_t off, uint64_t len);
/*
 * Maps the views over [off, off+len) (the reservation is PROT_NONE).
 * shared_frames: the device view maps the memfd too (the remap backend) and
 * no DMA view is needed; otherwise it is private memory (device frames of
 * their own) and the DMA view maps the memfd for the copies.
 */
int uvm_arena_map(struct uvm_arena *a, uint64_t off, uint64_t len, bool shared_frames);
/* Frees every frame of the range (both sides) and restores the reservation. */
int uvm_arena_unmap(struct uvm_arena *a, uint64_t off, uint64_t len);

static inline uintptr_t uvm_host_addr(const struct uvm_arena *a, uint64_t off)
{
	return a->host + off;
}
static inline uintptr_t uvm_dev_addr(const struct uvm_arena *a, uint64_t off)
{
	return a->dev + off;
}
static inline uintptr_t uvm_dma_addr(const struct uvm_arena *a, uint64_t off)
{
	return a->dma + off;
}

#endif
