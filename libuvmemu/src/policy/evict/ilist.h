/* SPDX-License-Identifier: MIT */
/*
 * ilist.h - an intrusive doubly linked list over indices (blocks or
 * vablocks), for the eviction policies that keep an order.
 *
 * The link arrays are sized for the whole arena (4M blocks for 256 GiB, so
 * links are uint32_t) and come from calloc: links are stored as index + 1 so
 * that zeroed memory is an empty list, and the kernel backs only the pages
 * whose indices allocations actually use. A member is the head or has a
 * predecessor, so membership needs no array of its own; joining and leaving
 * are idempotent, which keeps the order sound whatever order the observers
 * come in.
 */
#ifndef UVM_ILIST_H
#define UVM_ILIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define UVM_ILIST_END UINT32_MAX /* what first/next/last/prev return past the end */

struct uvm_ilist {
	uint32_t *prev, *next; /* index + 1; 0: none */
	uint32_t head, tail;   /* index + 1; 0: empty */
};

static inline int uvm_ilist_init(struct uvm_ilist *l, size_t n)
{
	l->head = l->tail = 0;
	l->prev = calloc(n, sizeof(*l->prev));
	l->next = calloc(n, sizeof(*l->next));
	if (!l->prev || !l->next) {
		free(l->prev);
		free(l->next);
		l->prev = l->next = NULL;
		return -1;
	}
	return 0;
}

static inline void uvm_ilist_destroy(struct uvm_ilist *l)
{
	free(l->prev);
	free(l->next);
	l->prev = l->next = NULL;
}

static inline bool uvm_ilist_has(const struct uvm_ilist *l, uint32_t i)
{
	return l->head == i + 1 || l->prev[i] != 0;
}

/* Appends i at the tail (the newest end) unless it is already a member. */
static inline void uvm_ilist_push(struct uvm_ilist *l, uint32_t i)
{
	if (uvm_ilist_has(l, i))
		return;
	l->prev[i] = l->tail;
	l->next[i] = 0;
	if (l->tail)
		l->next[l->tail - 1] = i + 1;
	else
		l->head = i + 1;
	l->tail = i + 1;
}

/* Prepends i at the head (the oldest end) unless it is already a member. */
static inline void uvm_ilist_push_head(struct uvm_ilist *l, uint32_t i)
{
	if (uvm_ilist_has(l, i))
		return;
	l->next[i] = l->head;
	l->prev[i] = 0;
	if (l->head)
		l->prev[l->head - 1] = i + 1;
	else
		l->tail = i + 1;
	l->head = i + 1;
}

static inline void uvm_ilist_remove(struct uvm_ilist *l, uint32_t i)
{
	if (!uvm_ilist_has(l, i))
		return;
	if (l->prev[i])
		l->next[l->prev[i] - 1] = l->next[i];
	else
		l->head = l->next[i];
	if (l->next[i])
		l->prev[l->next[i] - 1] = l->prev[i];
	else
		l->tail = l->prev[i];
	l->prev[i] = l->next[i] = 0;
}

/* Inserts i after member `at` (UVM_ILIST_END: at the head) unless i is
 * already a member: for orders kept sorted by a key that can fall. */
static inline void uvm_ilist_insert_after(struct uvm_ilist *l, uint32_t at, uint32_t i)
{
	uint32_t after;

	if (uvm_ilist_has(l, i))
		return;
	if (at == UVM_ILIST_END) {
		uvm_ilist_push_head(l, i);
		return;
	}
	after = l->next[at];
	l->prev[i] = at + 1;
	l->next[i] = after;
	l->next[at] = i + 1;
	if (after)
		l->prev[after - 1] = i + 1;
	else
		l->tail = i + 1;
}

/* Moves a member to the tail; a non-member stays out. */
static inline void uvm_ilist_to_tail(struct uvm_ilist *l, uint32_t i)
{
	if (!uvm_ilist_has(l, i) || l->tail == i + 1)
		return;
	uvm_ilist_remove(l, i);
	uvm_ilist_push(l, i);
}

/* Oldest first: for (i = first(l); i != UVM_ILIST_END; i = next(l, i)). */
static inline uint32_t uvm_ilist_first(const struct uvm_ilist *l)
{
	return l->head - 1;
}

static inline uint32_t uvm_ilist_next(const struct uvm_ilist *l, uint32_t i)
{
	return l->next[i] - 1;
}

/* Newest first. */
static inline uint32_t uvm_ilist_last(const struct uvm_ilist *l)
{
	return l->tail - 1;
}

static inline uint32_t uvm_ilist_prev(const struct uvm_ilist *l, uint32_t i)
{
	return l->prev[i] - 1;
}

#endif
