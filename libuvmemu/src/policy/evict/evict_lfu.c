// SPDX-License-Identifier: MIT
/*
 * evict_lfu.c - least frequently used 64 KB block, read-only blocks first.
 *
 * Source: the adaptive page migration paper (IPDPS 2020, Ganguly et al.,
 * section IV): a "simplified LFU" that orders eviction candidates by the
 * access counters so that cold data goes before hot, prefers read-only
 * pages (a write migrates a block to the device whatever its count, so
 * written blocks are the ones worth keeping local), and falls back to LRU
 * when counts are equal (regular workloads). Granularity: one 64 KB block,
 * the unit the counters count; the paper sorts its list of 2 MB large pages
 * instead (its baseline evicts 2 MB): that is lfu2m, lru2m's order re-sorted.
 *
 * The rule. Among the blocks that may be evicted under the context, the
 * victim is the one with the smallest key (written, accesses): first every
 * block without UVM_BF_WRITTEN (not written by the GPU since it became
 * resident), then by the access count (low 27 bits of the block's counter,
 * which executor workers or the driver update concurrently; a relaxed read
 * is enough for a heuristic). Equal keys go in LRU order: the scan walks the
 * residency list (as lru64k's: residency time, refreshed when touched) from
 * the least recent end and keeps the first minimum, and stops early at a
 * read-only block with no accesses, which nothing can beat.
 */
#include <errno.h>

#include "block_lru.h"
#include "evict_util.h"

static uint64_t key(const struct uvm_space *s, size_t b)
{
	return (uint64_t)uvm_evict_written(s, b) << 32 | uvm_counter_accesses(s, b);
}

static int lfu_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	const struct uvm_block_lru *l = p;
	uint32_t best = UVM_ILIST_END;
	uint64_t best_key = UINT64_MAX;

	for (uint32_t b = uvm_ilist_first(&l->list); b != UVM_ILIST_END;
	     b = uvm_ilist_next(&l->list, b)) {
		uint64_t k;

		if (!uvm_evict_block_ok(ctx, b))
			continue;
		k = key(ctx->space, b);
		if (k < best_key) {
			best = b;
			best_key = k;
			if (k == 0)
				break;
		}
	}
	if (best == UVM_ILIST_END)
		return -ENOENT;
	*v = uvm_evict_basic(ctx->space, best);
	return 0;
}

const struct uvm_evict_ops uvm_evict_lfu = {
    .name = "lfu",
    .help = "least frequently used 64 KB block by access counters, read-only blocks first, LRU "
	    "among equals",
    .create = uvm_block_lru_create,
    .destroy = uvm_block_lru_destroy,
    .resident = uvm_block_lru_resident,
    .released = uvm_block_lru_released,
    .touched = uvm_block_lru_touched,
    .pick = lfu_pick,
};
