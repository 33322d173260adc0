// SPDX-License-Identifier: MIT
/*
 * evict_lru64k.c - least recently used 64 KB block.
 *
 * Source: the sequential-local LRU of Ganguly et al. (ISCA 2019; UVMSmart),
 * LRU at the 64 KB basic block instead of the driver's 2 MB chunk.
 * Granularity: one block. Recency is residency time: a block joins the tail
 * of the list when it becomes device-resident and moves to the tail when it
 * is touched (a GPU fault on it while resident, or an access the driver
 * reports); it leaves when it loses its device copy. The victim is the
 * least recent block that may be evicted under the context (not in the
 * vablock being serviced, not in use unless the second pass allows it).
 */
#include <errno.h>

#include "block_lru.h"
#include "evict_util.h"

static int lru64k_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	const struct uvm_block_lru *l = p;

	for (uint32_t b = uvm_ilist_first(&l->list); b != UVM_ILIST_END;
	     b = uvm_ilist_next(&l->list, b)) {
		if (uvm_evict_block_ok(ctx, b)) {
			*v = uvm_evict_basic(ctx->space, b);
			return 0;
		}
	}
	return -ENOENT;
}

const struct uvm_evict_ops uvm_evict_lru64k = {
    .name = "lru64k",
    .help = "least recently used 64 KB block (residency or last touch)",
    .create = uvm_block_lru_create,
    .destroy = uvm_block_lru_destroy,
    .resident = uvm_block_lru_resident,
    .released = uvm_block_lru_released,
    .touched = uvm_block_lru_touched,
    .pick = lru64k_pick,
};
