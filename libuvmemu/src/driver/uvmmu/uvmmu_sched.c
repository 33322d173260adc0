// SPDX-License-Identifier: MIT
/* uvmmu_sched.c - when the UVMMU path's waiting threads wake (the model). */
#include "uvmmu.h"

#include <errno.h>
#include <stdlib.h>

#include "space.h"

static int push(struct uvm_uvmmu_sched *s, const struct uvm_uvmmu_wake *w)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct uvm_uvmmu_wake *nw = realloc(s->w, cap * sizeof(*nw));

		if (!nw)
			return -ENOMEM;
		s->w = nw;
		s->cap = cap;
	}
	s->w[s->n++] = *w;
	return 0;
}

int uvm_uvmmu_sched_migrated(struct uvm_uvmmu_sched *s, size_t block, uintptr_t page_addr,
			     uintptr_t block_addr, uint64_t crit, uint64_t end, uint64_t lat_end)
{
	int rc = push(
	    s, &(struct uvm_uvmmu_wake){crit, lat_end, page_addr, UVM_PAGE_SIZE, block, false});

	return rc ? rc
		  : push(s, &(struct uvm_uvmmu_wake){end, lat_end, block_addr, UVM_BLOCK_SIZE,
						     block, true});
}

uint64_t uvm_uvmmu_sched_in_flight(const struct uvm_uvmmu_sched *s, size_t block)
{
	uint64_t end = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->w[i].block_end && s->w[i].block == block && s->w[i].at > end)
			end = s->w[i].at;
	return end;
}

uint64_t uvm_uvmmu_sched_other(struct uvm_uvmmu_sched *s, size_t block, uintptr_t addr,
			       uint64_t len, uint64_t at)
{
	uint64_t end = uvm_uvmmu_sched_in_flight(s, block);

	if (end > at)
		at = end;
	return push(s, &(struct uvm_uvmmu_wake){at, 0, addr, len, block, false}) ? 0 : at;
}

uint64_t uvm_uvmmu_sched_next(const struct uvm_uvmmu_sched *s)
{
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < s->n; i++)
		if (s->w[i].at < next)
			next = s->w[i].at;
	return next;
}

size_t uvm_uvmmu_sched_pop(struct uvm_uvmmu_sched *s, uint64_t now, struct uvm_uvmmu_wake *out,
			   size_t max)
{
	size_t got = 0;

	/* The list holds the faults in flight, a few hundred at most: a scan
	 * per pop costs less than keeping a heap in order. */
	while (got < max) {
		size_t best = s->n;

		for (size_t i = 0; i < s->n; i++)
			if (s->w[i].at <= now && (best == s->n || s->w[i].at < s->w[best].at))
				best = i;
		if (best == s->n)
			break;
		out[got++] = s->w[best];
		s->w[best] = s->w[--s->n];
	}
	return got;
}

void uvm_uvmmu_sched_destroy(struct uvm_uvmmu_sched *s)
{
	free(s->w);
	s->w = NULL;
	s->n = s->cap = 0;
}
