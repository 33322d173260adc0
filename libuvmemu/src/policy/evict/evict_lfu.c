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
 * is enough for a heuristic). Equal keys go in LRU order (residency time,
 * refreshed when touched, as lru64k's).
 *
 * The search. A walk of every resident block per victim made a 4 KB run
 * quadratic (16 K pages per 64 MB; a stencil at 125% spent 69% of its time
 * here). Keys only grow while a block stays resident (counts rise, the
 * written bit is only set) until the counters are halved, so a heap of
 * (key when pushed, when last made resident or touched) holds a lower bound
 * of every block's key: the top whose key has not grown since is the
 * least, and one whose key grew goes back in with its new key. A touch
 * pushes a new entry (the old one is stale: its time is not the block's
 * any more); a release leaves the block's entries to be dropped when they
 * surface. A halving lowers keys, and rebuilds the heap from the order.
 * The walk stays as the fallback when memory for the heap runs out.
 */
#include <errno.h>
#include <stdlib.h>

#include "block_lru.h"
#include "evict_util.h"
#include "grow.h"

struct entry {
	uint64_t key;  /* the block's key when pushed: at most its key now */
	uint64_t when; /* its residency or touch time then */
	uint32_t b;
};

struct lfu {
	struct uvm_block_lru order; /* first: block_lru's observers take it */
	const struct uvm_space *space;
	uint64_t *when; /* per block: last made resident or touched (0: not resident) */
	uint64_t now;
	struct entry *heap, *aside;
	size_t n, cap, naside, capaside, resident;
	uint64_t halvings; /* the space's when the heap was built */
	bool broken;	   /* an entry could not be pushed: rebuild before use */
};

static uint64_t key(const struct uvm_space *s, size_t b)
{
	return (uint64_t)uvm_evict_written(s, b) << 32 | uvm_counter_accesses(s, b);
}

static bool before(const struct entry *a, const struct entry *b)
{
	return a->key < b->key || (a->key == b->key && a->when < b->when);
}

static void sift_up(struct entry *h, size_t i)
{
	while (i > 0 && before(&h[i], &h[(i - 1) / 2])) {
		struct entry t = h[i];

		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void sift_down(struct entry *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct entry t;

		if (l < n && before(&h[l], &h[m]))
			m = l;
		if (r < n && before(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void push(struct lfu *l, struct entry e)
{
	struct entry *h = uvm_grow(l->heap, &l->cap, l->n, sizeof(*h), 1024);

	if (!h) {
		l->broken = true;
		return;
	}
	l->heap = h;
	h[l->n] = e;
	sift_up(h, l->n++);
}

static struct entry pop(struct lfu *l)
{
	struct entry top = l->heap[0];

	l->heap[0] = l->heap[--l->n];
	sift_down(l->heap, l->n, 0);
	return top;
}

/* Every resident block's entry, with its key now. */
static void rebuild(struct lfu *l)
{
	l->n = 0;
	l->broken = false;
	l->halvings = l->space->halvings;
	for (uint32_t b = uvm_ilist_first(&l->order.list); b != UVM_ILIST_END;
	     b = uvm_ilist_next(&l->order.list, b))
		push(l, (struct entry){key(l->space, b), l->when[b], b});
}

static void *lfu_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			size_t errlen)
{
	struct lfu *l = calloc(1, sizeof(*l));

	(void)cfg;
	if (!l)
		return uvm_policy_nomem(err, errlen);
	l->space = space;
	l->when = calloc(space->nblocks ? space->nblocks : 1, sizeof(*l->when));
	if (!l->when || uvm_block_lru_init(&l->order, space)) {
		free(l->when);
		free(l);
		return uvm_policy_nomem(err, errlen);
	}
	return l;
}

static void lfu_destroy(void *p)
{
	struct lfu *l = p;

	uvm_block_lru_fini(&l->order);
	free(l->when);
	free(l->heap);
	free(l->aside);
	free(l);
}

/* Block b is resident from now, or was touched now. */
static void renew(struct lfu *l, size_t b)
{
	l->when[b] = ++l->now;
	push(l, (struct entry){key(l->space, b), l->when[b], (uint32_t)b});
	/* Stale entries pile up with touches: start again past four per
	 * resident block. */
	if (l->n > 4 * l->resident + 1024)
		rebuild(l);
}

static void lfu_resident(void *p, size_t b)
{
	struct lfu *l = p;

	uvm_block_lru_resident(&l->order, b);
	l->resident++;
	renew(l, b);
}

static void lfu_released(void *p, size_t b)
{
	struct lfu *l = p;

	uvm_block_lru_released(&l->order, b);
	l->resident--;
	l->when[b] = 0;
}

static void lfu_touched(void *p, size_t b, bool write)
{
	struct lfu *l = p;

	uvm_block_lru_touched(&l->order, b, write);
	if (l->when[b]) /* a block not resident has no place in the order */
		renew(l, b);
}

/* The walk of every block, least recent first (the fallback). */
static int walk_pick(const struct lfu *l, const struct uvm_evict_ctx *ctx, uint32_t *out)
{
	uint64_t best_key = UINT64_MAX;

	*out = UVM_ILIST_END;
	for (uint32_t b = uvm_ilist_first(&l->order.list); b != UVM_ILIST_END;
	     b = uvm_ilist_next(&l->order.list, b)) {
		uint64_t k;

		if (!uvm_evict_block_ok(ctx, b))
			continue;
		k = key(ctx->space, b);
		if (k < best_key) {
			*out = b;
			best_key = k;
			if (k == 0)
				break;
		}
	}
	return *out == UVM_ILIST_END ? -ENOENT : 0;
}

/* The heap's least eligible block; entries of blocks the context excludes
 * are set aside and go back after. */
static int heap_pick(struct lfu *l, const struct uvm_evict_ctx *ctx, uint32_t *out)
{
	int rc = -ENOENT;

	l->naside = 0;
	while (l->n > 0) {
		struct entry e = l->heap[0];
		uint64_t k;

		if (l->when[e.b] != e.when) {
			pop(l); /* released, or touched since: stale */
			continue;
		}
		k = key(ctx->space, e.b);
		if (k != e.key) {
			/* Grown: it goes back by its key now. (A key that fell
			 * would break the bound; only halving lowers keys.) */
			pop(l);
			e.key = k;
			push(l, e);
			continue;
		}
		if (!uvm_evict_block_ok(ctx, e.b)) {
			struct entry *a =
			    uvm_grow(l->aside, &l->capaside, l->naside, sizeof(*a), 64);

			if (!a) {
				l->broken = true;
				break;
			}
			l->aside = a;
			a[l->naside++] = pop(l);
			continue;
		}
		*out = e.b; /* stays: the block leaves only if it is evicted */
		rc = 0;
		break;
	}
	for (size_t i = 0; i < l->naside; i++)
		push(l, l->aside[i]);
	return rc;
}

static int lfu_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	struct lfu *l = p;
	uint32_t b;
	int rc = -ENOENT;

	if (l->broken || l->halvings != ctx->space->halvings)
		rebuild(l);
	if (!l->broken)
		rc = heap_pick(l, ctx, &b);
	if (l->broken) /* no memory for the heap: it may have lost entries */
		rc = walk_pick(l, ctx, &b);
	if (rc)
		return rc;
	*v = uvm_evict_basic(ctx->space, b);
	return 0;
}

const struct uvm_evict_ops uvm_evict_lfu = {
    .name = "lfu",
    .help = "least frequently used 64 KB block by access counters, read-only blocks first, LRU "
	    "among equals",
    .create = lfu_create,
    .destroy = lfu_destroy,
    .resident = lfu_resident,
    .released = lfu_released,
    .touched = lfu_touched,
    .pick = lfu_pick,
};
