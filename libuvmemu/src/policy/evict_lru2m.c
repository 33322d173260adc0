// SPDX-License-Identifier: MIT
/*
 * evict_lru2m.c - the NVIDIA driver's default eviction: age order of 2 MB
 * vablocks.
 *
 * A vablock joins the tail of the list when its first block becomes
 * device-resident and leaves it when its last block goes; accesses do not
 * move it (the driver's used list is ordered by allocation, so this is FIFO,
 * "age-based LRU"). The victim is the oldest vablock that is fully populated
 * and not in use by the batch being serviced; failing that, the oldest one not
 * in use; failing that (second pass), the oldest one at all except the vablock
 * being serviced.
 */
#include <errno.h>
#include <stdlib.h>

#include "policy.h"

#define NIL ((uint32_t)-1)

struct lru2m {
	const struct uvm_space *space;
	uint32_t *prev, *next; /* intrusive list over vablock indices */
	uint32_t head, tail;
};

static void *lru2m_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	struct lru2m *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->space = space;
	l->prev = malloc(space->nvablocks * sizeof(*l->prev));
	l->next = malloc(space->nvablocks * sizeof(*l->next));
	if (!l->prev || !l->next) {
		free(l->prev);
		free(l->next);
		free(l);
		return NULL;
	}
	l->head = l->tail = NIL;
	return l;
}

static void lru2m_destroy(void *p)
{
	struct lru2m *l = p;

	free(l->prev);
	free(l->next);
	free(l);
}

static void lru2m_resident(void *p, size_t b)
{
	struct lru2m *l = p;
	uint32_t v = (uint32_t)uvm_vablock_of(b);

	if (l->space->vablock[v].resident != 1)
		return; /* already in the list */
	l->prev[v] = l->tail;
	l->next[v] = NIL;
	if (l->tail != NIL)
		l->next[l->tail] = v;
	else
		l->head = v;
	l->tail = v;
}

static void lru2m_released(void *p, size_t b)
{
	struct lru2m *l = p;
	uint32_t v = (uint32_t)uvm_vablock_of(b);

	if (l->space->vablock[v].resident != 0)
		return;
	if (l->prev[v] != NIL)
		l->next[l->prev[v]] = l->next[v];
	else
		l->head = l->next[v];
	if (l->next[v] != NIL)
		l->prev[l->next[v]] = l->prev[v];
	else
		l->tail = l->prev[v];
}

static int lru2m_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *out)
{
	const struct lru2m *l = p;
	uint32_t partial = NIL, any = NIL;

	for (uint32_t v = l->head; v != NIL; v = l->next[v]) {
		const struct uvm_vablock *vb = &l->space->vablock[v];

		if (v == ctx->keep_vablock)
			continue;
		if (vb->in_batch == ctx->batch) {
			if (any == NIL)
				any = v;
			continue;
		}
		if (vb->resident == vb->nvalid) {
			partial = v;
			break;
		}
		if (partial == NIL)
			partial = v;
	}
	if (partial == NIL && ctx->allow_in_use)
		partial = any;
	if (partial == NIL)
		return -ENOENT;
	out->first = uvm_vablock_first(partial);
	out->n = UVM_BLOCKS_PER_VABLOCK;
	return 0;
}

const struct uvm_evict_ops uvm_evict_lru2m = {
    .name = "lru2m",
    .help = "age order of 2 MB vablocks, fully populated and not in use first (NVIDIA default)",
    .create = lru2m_create,
    .destroy = lru2m_destroy,
    .resident = lru2m_resident,
    .released = lru2m_released,
    .pick = lru2m_pick,
};
