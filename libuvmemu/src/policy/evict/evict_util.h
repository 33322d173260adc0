/* SPDX-License-Identifier: MIT */
/*
 * evict_util.h - the rules every eviction policy applies to a candidate.
 *
 * A victim must hold at least one block with a device copy (DEVICE, written
 * back by uvm_op_evict, or DUPLICATED, whose device copy it drops: the host
 * copy is valid), must not lie in the vablock being serviced, and must not be
 * in use by the batch being serviced unless the driver's second pass allows it.
 */
#ifndef UVM_EVICT_UTIL_H
#define UVM_EVICT_UTIL_H

#include "policy.h"
#include "uvmemu_gmmu.h"

static inline bool uvm_evict_vablock_ok(const struct uvm_evict_ctx *ctx, size_t v)
{
	if (v == ctx->keep_vablock)
		return false;
	return ctx->allow_in_use || ctx->space->vablock[v].in_batch < ctx->batch;
}

/* Block b has a copy on the GPU that needs room (--gpus: one policy
 * instance per GPU, each asked for its own GPU's copies). */
static inline bool uvm_evict_has_copy(const struct uvm_evict_ctx *ctx, size_t b)
{
	return uvm_block_on_gpu(&ctx->space->block[b], ctx->gpu);
}

static inline bool uvm_evict_block_ok(const struct uvm_evict_ctx *ctx, size_t b)
{
	return uvm_evict_has_copy(ctx, b) && uvm_evict_vablock_ok(ctx, uvm_vablock_of(b));
}

/*
 * The victim a block-grained policy (lru64k, lfu, random, opt) names for
 * block b: its 64 KB basic block, cut at the allocation's end. At 64 KB that
 * is b alone; at 4 KB (--page-size 4k) the sixteen pages UVMSmart's
 * sequential-local policy evicts with its LRU page, of which uvm_op_evict
 * moves those still on the device.
 */
static inline struct uvm_victim uvm_evict_basic(const struct uvm_space *s, size_t b)
{
	size_t v = uvm_vablock_of(b), lo = b - b % UVM_BLOCKS_PER_BASIC;
	size_t end = uvm_vablock_first(v) + s->vablock[v].nvalid;
	size_t hi = lo + UVM_BLOCKS_PER_BASIC < end ? lo + UVM_BLOCKS_PER_BASIC : end;

	return (struct uvm_victim){lo, hi - lo};
}

/* Whether vablock v holds anything uvm_op_evict can move off ctx's GPU. */
/* Block b was written by the GPU since it became resident: a write fault,
 * or (with GMMU accessors) a counted store. LFU keeps such blocks longest
 * (a write migrates a block whatever its count). */
static inline bool uvm_evict_written(const struct uvm_space *s, size_t b)
{
	return (s->block[b].flags & UVM_BF_WRITTEN) ||
	       (atomic_load_explicit(&s->gmmu_state[b], memory_order_relaxed) &
		UVMEMU_GMMU_WRITTEN);
}

static inline bool uvm_evict_has_device(const struct uvm_evict_ctx *ctx, size_t v)
{
	size_t first = uvm_vablock_first(v);

	for (unsigned i = 0; i < ctx->space->vablock[v].nvalid; i++)
		if (uvm_evict_has_copy(ctx, first + i))
			return true;
	return false;
}

#endif
