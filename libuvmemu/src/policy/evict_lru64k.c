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
#include <stdlib.h>

#include "evict_util.h"
#include "ilist.h"

struct lru64k {
	struct uvm_ilist lru; /* blocks, least recent first */
};

static void *lru64k_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	struct lru64k *l = calloc(1, sizeof(*l));

	if (l && uvm_ilist_init(&l->lru, space->nblocks)) {
		free(l);
		return NULL;
	}
	return l;
}

static void lru64k_destroy(void *p)
{
	struct lru64k *l = p;

	uvm_ilist_destroy(&l->lru);
	free(l);
}

static void lru64k_resident(void *p, size_t b)
{
	uvm_ilist_push(&((struct lru64k *)p)->lru, (uint32_t)b);
}

static void lru64k_released(void *p, size_t b)
{
	uvm_ilist_remove(&((struct lru64k *)p)->lru, (uint32_t)b);
}

static void lru64k_touched(void *p, size_t b, bool write)
{
	uvm_ilist_to_tail(&((struct lru64k *)p)->lru, (uint32_t)b);
}

static int lru64k_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	const struct lru64k *l = p;

	for (uint32_t b = uvm_ilist_first(&l->lru); b != UVM_ILIST_END;
	     b = uvm_ilist_next(&l->lru, b)) {
		if (uvm_evict_block_ok(ctx, b)) {
			*v = (struct uvm_victim){b, 1};
			return 0;
		}
	}
	return -ENOENT;
}

const struct uvm_evict_ops uvm_evict_lru64k = {
    .name = "lru64k",
    .help = "least recently used 64 KB block (residency or last touch)",
    .create = lru64k_create,
    .destroy = lru64k_destroy,
    .resident = lru64k_resident,
    .released = lru64k_released,
    .touched = lru64k_touched,
    .pick = lru64k_pick,
};
