// SPDX-License-Identifier: MIT
/* pool.c - device memory accounting. */
#include "pool.h"

#include <errno.h>
#include <string.h>

#include "space.h"

void uvm_pool_init(struct uvm_pool *p, uint64_t capacity_blocks, bool resolved)
{
	memset(p, 0, sizeof(*p));
	uvm_mutex_init(&p->lock, UVM_LOCK_POOL);
	p->capacity = capacity_blocks;
	p->resolved = resolved;
}

bool uvm_pool_room_beside(uint64_t capacity, uint64_t pinned)
{
	/* The driver brings one vablock's faulted blocks in at once, and
	 * pinned blocks never leave. */
	return capacity >= pinned + UVM_BLOCKS_PER_VABLOCK;
}

static uint64_t limit(const struct uvm_pool *p)
{
	if (!p->resolved || p->capacity == 0)
		return UINT64_MAX;
	return p->capacity > p->pinned ? p->capacity - p->pinned : 0;
}

uint64_t uvm_pool_free(struct uvm_pool *p)
{
	uint64_t lim, f;

	uvm_mutex_lock(&p->lock);
	lim = limit(p);
	f = lim == UINT64_MAX ? UINT64_MAX : (lim > p->used ? lim - p->used : 0);
	uvm_mutex_unlock(&p->lock);
	return f;
}

uint64_t uvm_pool_excess(struct uvm_pool *p)
{
	uint64_t lim, e;

	uvm_mutex_lock(&p->lock);
	lim = limit(p);
	e = p->used > lim ? p->used - lim : 0;
	uvm_mutex_unlock(&p->lock);
	return e;
}

static void track_peak(struct uvm_pool *p)
{
	if (p->used + p->pinned > p->peak)
		p->peak = p->used + p->pinned;
}

void uvm_pool_use(struct uvm_pool *p, int64_t blocks)
{
	uvm_mutex_lock(&p->lock);
	p->used = (uint64_t)((int64_t)p->used + blocks);
	track_peak(p);
	uvm_mutex_unlock(&p->lock);
}

int uvm_pool_pin(struct uvm_pool *p, int64_t blocks)
{
	int err = 0;

	uvm_mutex_lock(&p->lock);
	if (blocks > 0 && p->resolved && p->capacity &&
	    !uvm_pool_room_beside(p->capacity, p->pinned + (uint64_t)blocks))
		err = -ENOMEM;
	else
		p->pinned = (uint64_t)((int64_t)p->pinned + blocks);
	track_peak(p);
	uvm_mutex_unlock(&p->lock);
	return err;
}

void uvm_pool_set_capacity(struct uvm_pool *p, uint64_t blocks)
{
	uvm_mutex_lock(&p->lock);
	p->capacity = blocks;
	p->resolved = true;
	uvm_mutex_unlock(&p->lock);
}

void uvm_pool_snapshot(struct uvm_pool *p, struct uvm_pool *out)
{
	uvm_mutex_lock(&p->lock);
	out->capacity = p->capacity;
	out->pinned = p->pinned;
	out->used = p->used;
	out->peak = p->peak;
	out->resolved = p->resolved;
	uvm_mutex_unlock(&p->lock);
}
