/* SPDX-License-Identifier: MIT */
/*
 * pool.h - device memory accounting, in 64 KB blocks.
 *
 * Capacity comes from --device-mem, or from --oversub once the managed
 * footprint is known (the first kernel launch). cudaMalloc allocations are
 * pinned: they shrink what managed data may use and are never evicted. The
 * driver thread changes `used`; application threads change capacity and
 * pinned, then ask the driver to evict down to the new limit.
 */
#ifndef UVM_POOL_H
#define UVM_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lock_order.h"

struct uvm_pool {
	struct uvm_mutex lock;
	uint64_t capacity; /* blocks; 0 = unlimited */
	uint64_t pinned;   /* blocks held by cudaMalloc */
	uint64_t used;	   /* blocks holding managed data on the device */
	uint64_t peak;	   /* the most of used + pinned ever */
	bool resolved;	   /* capacity known (always, unless --oversub waits) */
};

void uvm_pool_init(struct uvm_pool *p, uint64_t capacity_blocks, bool resolved);
/* Blocks managed data may still take without eviction (UINT64_MAX: unlimited). */
uint64_t uvm_pool_free(struct uvm_pool *p);
/* Blocks managed data holds beyond what it may (0 when within the limit). */
uint64_t uvm_pool_excess(struct uvm_pool *p);
void uvm_pool_use(struct uvm_pool *p, int64_t blocks);
/* Pins (or unpins, negative) cudaMalloc blocks; -ENOMEM if they would
 * leave managed data less than one vablock even with every managed block
 * evicted (cudaMalloc then fails with cudaErrorMemoryAllocation). */
int uvm_pool_pin(struct uvm_pool *p, int64_t blocks);
/* Whether a capacity leaves managed data a vablock's room beside `pinned`
 * blocks (what uvm_pool_pin and an --oversub capacity must). */
bool uvm_pool_room_beside(uint64_t capacity, uint64_t pinned);
void uvm_pool_set_capacity(struct uvm_pool *p, uint64_t blocks);
void uvm_pool_snapshot(struct uvm_pool *p, struct uvm_pool *out);

#endif
