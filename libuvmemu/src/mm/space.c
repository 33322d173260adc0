// SPDX-License-Identifier: MIT
/* space.c - block residency state machine and vablock bookkeeping. */
#include "space.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char *const state_names[UVM_NSTATES] = {
    "UNALLOCATED", "EMPTY", "HOST", "DEVICE", "REMOTE", "DUPLICATED",
};

/* legal[from] = states it may move to. Freeing an allocation resets blocks
 * directly (uvm_space_remove), outside this table. */
static const uint8_t legal[UVM_NSTATES] = {
    [UVM_UNALLOCATED] = 0,
    [UVM_EMPTY] = UVM_STATE_BIT(UVM_HOST) | UVM_STATE_BIT(UVM_DEVICE),
    [UVM_HOST] =
	UVM_STATE_BIT(UVM_DEVICE) | UVM_STATE_BIT(UVM_REMOTE) | UVM_STATE_BIT(UVM_DUPLICATED),
    [UVM_DEVICE] = UVM_STATE_BIT(UVM_HOST) | UVM_STATE_BIT(UVM_DUPLICATED),
    [UVM_REMOTE] = UVM_STATE_BIT(UVM_HOST) | UVM_STATE_BIT(UVM_DEVICE),
    [UVM_DUPLICATED] = UVM_STATE_BIT(UVM_HOST) | UVM_STATE_BIT(UVM_DEVICE),
};

const char *uvm_state_name(enum uvm_block_state st)
{
	return st < UVM_NSTATES ? state_names[st] : "?";
}

void uvm_block_move(struct uvm_space *s, size_t b, enum uvm_block_state to)
{
	struct uvm_block *blk = &s->block[b];

	if (!(legal[blk->state] & UVM_STATE_BIT(to))) {
		fprintf(stderr, "uvmemu: internal error: block %zu cannot go from %s to %s\n", b,
			uvm_state_name(blk->state), uvm_state_name(to));
		abort();
	}
	blk->state = (uint8_t)to;
}

static void *reserve(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int uvm_space_init(struct uvm_space *s, uint64_t arena_size)
{
	memset(s, 0, sizeof(*s));
	s->nblocks = arena_size >> UVM_BLOCK_SHIFT;
	s->nvablocks = arena_size >> UVM_VABLOCK_SHIFT;
	s->ncounters = arena_size >> UVM_BASIC_SHIFT;
	s->block = reserve(s->nblocks * sizeof(*s->block));
	s->vablock = reserve(s->nvablocks * sizeof(*s->vablock));
	s->counters = reserve(s->ncounters * sizeof(*s->counters));
	s->gmmu_state = reserve(s->nblocks * sizeof(*s->gmmu_state));
	s->on_gpu = reserve(s->nvablocks * UVM_MAX_GPUS * sizeof(*s->on_gpu));
	if (!s->block || !s->vablock || !s->counters || !s->gmmu_state || !s->on_gpu) {
		uvm_space_destroy(s);
		return -ENOMEM;
	}
	return 0;
}

void uvm_space_destroy(struct uvm_space *s)
{
	if (s->block)
		munmap(s->block, s->nblocks * sizeof(*s->block));
	if (s->vablock)
		munmap(s->vablock, s->nvablocks * sizeof(*s->vablock));
	if (s->counters)
		munmap((void *)s->counters, s->ncounters * sizeof(*s->counters));
	if (s->gmmu_state)
		munmap((void *)s->gmmu_state, s->nblocks * sizeof(*s->gmmu_state));
	if (s->on_gpu)
		munmap(s->on_gpu, s->nvablocks * UVM_MAX_GPUS * sizeof(*s->on_gpu));
	memset(s, 0, sizeof(*s));
}

/* The counters of blocks [first, first + n): allocations start on a vablock,
 * so no other allocation shares their basic blocks. */
static void reset_counters(struct uvm_space *s, size_t first, size_t n)
{
	if (n == 0)
		return;
	for (size_t c = uvm_counter_of(first); c <= uvm_counter_of(first + n - 1); c++)
		atomic_store_explicit(&s->counters[c], 0, memory_order_relaxed);
}

void uvm_space_add(struct uvm_space *s, uint64_t off, uint64_t len, uint32_t alloc)
{
	size_t first = off >> UVM_BLOCK_SHIFT;
	size_t n = (len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;

	for (size_t b = first; b < first + n; b++) {
		s->block[b] = (struct uvm_block){.state = UVM_EMPTY};
		atomic_store_explicit(&s->gmmu_state[b], 0, memory_order_relaxed);
	}
	reset_counters(s, first, n);
	for (size_t v = uvm_vablock_of(first); v * UVM_BLOCKS_PER_VABLOCK < first + n; v++) {
		size_t lo = uvm_vablock_first(v), hi = lo + UVM_BLOCKS_PER_VABLOCK;

		if (hi > first + n)
			hi = first + n;
		s->vablock[v] = (struct uvm_vablock){.nvalid = (uint16_t)(hi - lo), .alloc = alloc};
		if (v + 1 > s->used_vablocks)
			s->used_vablocks = v + 1;
	}
}

void uvm_space_remove(struct uvm_space *s, uint64_t off, uint64_t len)
{
	size_t first = off >> UVM_BLOCK_SHIFT;
	size_t n = (len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;
	size_t nv = (n + UVM_BLOCKS_PER_VABLOCK - 1) / UVM_BLOCKS_PER_VABLOCK;

	memset(&s->block[first], 0, n * sizeof(*s->block));
	memset(&s->vablock[uvm_vablock_of(first)], 0, nv * sizeof(*s->vablock));
	memset(&s->on_gpu[uvm_vablock_of(first) * UVM_MAX_GPUS], 0,
	       nv * UVM_MAX_GPUS * sizeof(*s->on_gpu));
	for (size_t b = first; b < first + n; b++)
		atomic_store_explicit(&s->gmmu_state[b], 0, memory_order_relaxed);
	reset_counters(s, first, n);
}

#define ACCESS_MASK ((1u << 27) - 1)
#define TRIP_ONE    (1u << 27)
/* Halve before a field overflows into the other: accessors in other threads
 * may add between the check and the halving. */
#define ACCESS_HALVE_AT (ACCESS_MASK - (1u << 20))
#define TRIPS_MAX	31u

bool uvm_counter_add(struct uvm_space *s, size_t b, uint32_t accesses)
{
	uint32_t old = atomic_fetch_add_explicit(&s->counters[uvm_counter_of(b)], accesses,
						 memory_order_relaxed);

	return (old & ACCESS_MASK) + accesses >= ACCESS_HALVE_AT;
}

bool uvm_counter_trip(struct uvm_space *s, size_t b)
{
	_Atomic uint32_t *c = &s->counters[uvm_counter_of(b)];
	uint32_t old = atomic_load_explicit(c, memory_order_relaxed);

	if (old >> 27 >= TRIPS_MAX)
		return true;
	atomic_fetch_add_explicit(c, TRIP_ONE, memory_order_relaxed);
	return (old >> 27) + 1 >= TRIPS_MAX;
}

void uvm_counters_halve(struct uvm_space *s, bool accesses, bool trips)
{
	if (accesses)
		s->halvings++;
	for (size_t v = 0; v < s->used_vablocks; v++) {
		size_t first = uvm_vablock_first(v);

		if (s->vablock[v].nvalid == 0)
			continue;
		for (size_t c = uvm_counter_of(first);
		     c <= uvm_counter_of(first + s->vablock[v].nvalid - 1); c++) {
			uint32_t old = atomic_load_explicit(&s->counters[c], memory_order_relaxed),
				 nw;

			do {
				uint32_t a = old & ACCESS_MASK, t = old >> 27;

				nw = ((trips ? t / 2 : t) << 27) | (accesses ? a / 2 : a);
			} while (!atomic_compare_exchange_weak_explicit(
			    &s->counters[c], &old, nw, memory_order_relaxed, memory_order_relaxed));
		}
	}
}
