/* SPDX-License-Identifier: MIT */
/*
 * tickets.h - a kernel's CTA tickets, handed out from contiguous shares.
 *
 * Ticket t is the t-th CTA in dispatch order (worker.c maps it to a CTA).
 * The grid's tickets are split into nshares contiguous shares, each handed
 * out in ascending order from its own counter. A kernel that does not fault
 * gets one share per main worker: each worker runs the same part of the grid
 * at every launch, as a static split of plain C's loops does, so the cache
 * lines a CTA wrote in one launch are still in that core's cache when the
 * next launch reads them, and only the tail of the grid is shared out by
 * stealing. A faulting kernel gets one share: the whole grid, one CTA front
 * in dispatch order, as a GPU's block scheduler hands it out.
 *
 * Lock-free; every operation may race with takers on other threads.
 */
#ifndef EG_TICKETS_H
#define EG_TICKETS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define EG_CACHELINE  64
#define EG_MAX_SHARES 32 /* more main workers share shares (id mod this) */

/* Tickets [next, end) not yet handed out; `next` runs past `end` when takers
 * race at the end. Own cache line: every hand-out writes it. */
struct eg_share {
	_Alignas(EG_CACHELINE) _Atomic uint64_t next;
	uint64_t end;
};

struct eg_tickets {
	unsigned nshares;
	struct eg_share share[EG_MAX_SHARES];
};

/* Splits tickets [0, ncta) into min(n, EG_MAX_SHARES, ncta) shares of equal
 * size (at least one). Before the kernel is published to workers. */
void eg_tickets_split(struct eg_tickets *t, uint64_t ncta, unsigned n);

/*
 * Takes a hand-out of at most `size` consecutive tickets, [*first, *end):
 * from share `own` (mod nshares) while it lasts, then from the others in
 * order. A taker asking for the dispatch order (a faulting kernel) passes
 * own = 0: it takes from the lowest share with tickets left. False when every
 * share is exhausted.
 */
bool eg_tickets_take(struct eg_tickets *t, unsigned own, uint32_t size, uint64_t *first,
		     uint64_t *end);

/* Some ticket is not handed out yet (a racing taker may take it). */
bool eg_tickets_left(const struct eg_tickets *t);

#endif
