// SPDX-License-Identifier: MIT
/*
 * evict_seq_local.c - UVMSmart's Sequential-local eviction: the least
 * recently used 64 KB basic block of the least recently used 2 MB vablock.
 *
 * Source: UVMMU (paper 003, Sec. II-B) describes it as UVMSmart's policy
 * that "applies LRU at the 64KB basic block granularity. It maintains an
 * LRU page list and evicts the basic block which the LRU page belongs to";
 * Sec. V-C1 compares it under UVMMU (Fig. 5), in the simulator both papers
 * ran (GPGPU-Sim UVMSmart). There the LRU list is kept per basic block (a
 * page's entry is its basic block's) and, before each eviction, ordered
 * large page by large page: the 2 MB regions by their most recent access,
 * least recent first, and within each its basic blocks least recent first.
 * The victim is the first evictable block of that order. That grouping is
 * what "local" adds to plain LRU: a region the kernel still works in keeps
 * its blocks while blocks of a region it has left go, where lru64k (one
 * global list) would take the single oldest block wherever it lies. At the
 * emulator's 64 KB migration unit the page is the basic block, so without
 * the grouping this would be lru64k.
 *
 * The rule. Every tracked block has a stamp from one counter: set when it
 * becomes device-resident and when it is touched (a GPU fault on it while
 * resident, or an access the driver reports). A vablock's key is the
 * newest stamp among its tracked blocks. The victim is, in the first
 * vablock by key (oldest first) that may be evicted under the context (not
 * the vablock being serviced, not in use unless the second pass allows
 * it), its block with the oldest stamp that holds a device copy.
 *
 * The order. Vablocks are kept in a list sorted by key: a stamp is always
 * the newest, so a touched vablock moves to the tail; when the block that
 * set a vablock's key leaves the device, its key falls to the next newest
 * stamp and the vablock moves back past every vablock with a newer key (as
 * UVMSmart re-sorts from what is left). Granularity: one 64 KB block.
 */
#include <errno.h>
#include <stdlib.h>

#include "evict_util.h"
#include "ilist.h"

struct evict_seq_local {
	const struct uvm_space *space;
	uint64_t clock;	       /* the last stamp given */
	uint64_t *stamp;       /* per block: 0 when not tracked */
	uint64_t *key;	       /* per vablock: its newest stamp */
	struct uvm_ilist list; /* vablocks with tracked blocks, by key, oldest first */
};

static void *seq_local_create(const struct uvm_space *space, const struct uvm_config *cfg,
			      char *err, size_t errlen)
{
	struct evict_seq_local *q = calloc(1, sizeof(*q));

	(void)cfg;
	if (!q)
		return uvm_policy_nomem(err, errlen);
	q->space = space;
	/* calloc: the kernel backs only the pages of the indices in use. */
	q->stamp = calloc(space->nblocks, sizeof(*q->stamp));
	q->key = calloc(space->nvablocks, sizeof(*q->key));
	if (!q->stamp || !q->key || uvm_ilist_init(&q->list, space->nvablocks)) {
		free(q->stamp);
		free(q->key);
		free(q);
		return uvm_policy_nomem(err, errlen);
	}
	return q;
}

static void seq_local_destroy(void *p)
{
	struct evict_seq_local *q = p;

	uvm_ilist_destroy(&q->list);
	free(q->stamp);
	free(q->key);
	free(q);
}

/* Block b was used now: the newest stamp, its vablock the newest. */
static void seq_local_used(void *p, size_t b)
{
	struct evict_seq_local *q = p;
	uint32_t v = (uint32_t)uvm_vablock_of(b);

	q->stamp[b] = ++q->clock;
	q->key[v] = q->clock;
	uvm_ilist_push(&q->list, v);
	uvm_ilist_to_tail(&q->list, v);
}

static void seq_local_touched(void *p, size_t b, bool write)
{
	struct evict_seq_local *q = p;

	(void)write;
	if (q->stamp[b])
		seq_local_used(p, b);
}

/* The newest stamp among vablock v's tracked blocks (0: none). */
static uint64_t newest(const struct evict_seq_local *q, size_t v)
{
	size_t first = uvm_vablock_first(v);
	uint64_t k = 0;

	for (size_t i = 0; i < UVM_BLOCKS_PER_VABLOCK; i++)
		if (q->stamp[first + i] > k)
			k = q->stamp[first + i];
	return k;
}

static void seq_local_released(void *p, size_t b)
{
	struct evict_seq_local *q = p;
	uint32_t v = (uint32_t)uvm_vablock_of(b), at;
	uint64_t was = q->stamp[b];

	if (!was)
		return;
	q->stamp[b] = 0;
	if (was != q->key[v])
		return; /* an older block: the key stands */
	q->key[v] = newest(q, v);
	if (!q->key[v]) {
		uvm_ilist_remove(&q->list, v);
		return;
	}
	/* The key fell: back past every vablock with a newer one. */
	at = uvm_ilist_prev(&q->list, v);
	while (at != UVM_ILIST_END && q->key[at] > q->key[v])
		at = uvm_ilist_prev(&q->list, at);
	uvm_ilist_remove(&q->list, v);
	uvm_ilist_insert_after(&q->list, at, v);
}

static int seq_local_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *out)
{
	const struct evict_seq_local *q = p;

	for (uint32_t v = uvm_ilist_first(&q->list); v != UVM_ILIST_END;
	     v = uvm_ilist_next(&q->list, v)) {
		size_t first = uvm_vablock_first(v), best = SIZE_MAX;

		if (!uvm_evict_vablock_ok(ctx, v))
			continue;
		for (size_t b = first; b < first + UVM_BLOCKS_PER_VABLOCK; b++)
			if (q->stamp[b] && uvm_evict_has_copy(ctx, b) &&
			    (best == SIZE_MAX || q->stamp[b] < q->stamp[best]))
				best = b;
		if (best != SIZE_MAX) {
			*out = (struct uvm_victim){best, 1};
			return 0;
		}
	}
	return -ENOENT;
}

const struct uvm_evict_ops uvm_evict_seq_local = {
    .name = "seq-local",
    .help = "Sequential-local: the least recently used 64 KB block of the least recently used "
	    "2 MB vablock (UVMSmart, as UVMMU compares it)",
    .create = seq_local_create,
    .destroy = seq_local_destroy,
    .resident = seq_local_used,
    .released = seq_local_released,
    .touched = seq_local_touched,
    .pick = seq_local_pick,
};
