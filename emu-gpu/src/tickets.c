// SPDX-License-Identifier: MIT
/* tickets.c - a kernel's CTA tickets, handed out from contiguous shares. */
#include "tickets.h"

void eg_tickets_split(struct eg_tickets *t, uint64_t ncta, unsigned n)
{
	if (n > EG_MAX_SHARES)
		n = EG_MAX_SHARES;
	if (n > ncta)
		n = (unsigned)ncta;
	if (n == 0)
		n = 1;
	for (unsigned i = 0; i < n; i++) {
		atomic_store_explicit(&t->share[i].next, ncta * i / n, memory_order_relaxed);
		t->share[i].end = ncta * (i + 1) / n;
	}
	t->nshares = n;
}

bool eg_tickets_take(struct eg_tickets *t, unsigned own, uint32_t size, uint64_t *first,
		     uint64_t *end)
{
	unsigned n = t->nshares;

	for (unsigned i = 0; i < n; i++) {
		struct eg_share *s = &t->share[(own + i) % n];
		uint64_t at;

		/* A plain load first: an exhausted share's line is only read, not
		 * written again by every taker passing it. */
		if (atomic_load_explicit(&s->next, memory_order_relaxed) >= s->end)
			continue;
		at = atomic_fetch_add_explicit(&s->next, size, memory_order_relaxed);
		if (at >= s->end)
			continue;
		*first = at;
		*end = at + size < s->end ? at + size : s->end;
		return true;
	}
	return false;
}

bool eg_tickets_left(const struct eg_tickets *t)
{
	for (unsigned i = 0; i < t->nshares; i++)
		if (atomic_load_explicit(&t->share[i].next, memory_order_relaxed) < t->share[i].end)
			return true;
	return false;
}
