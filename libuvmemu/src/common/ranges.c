// SPDX-License-Identifier: MIT
/*
 * ranges.c - a locked table of address ranges: a balanced tree (libc's
 * tsearch, a red-black tree), so that a program with a million allocations
 * adds, finds and removes each one in logarithmic time in any order.
 */
#include "ranges.h"

#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

/*
 * Ranges in the tree never overlap, so "overlaps" can stand for "equal": a
 * lookup key of one byte at p then finds the range containing p, and an
 * insertion that overlaps a range finds that range instead of inserting.
 */
static int cmp(const void *a, const void *b)
{
	const struct uvm_range *x = a, *y = b;

	if (x->base + x->size <= y->base)
		return -1;
	if (y->base + y->size <= x->base)
		return 1;
	return 0;
}

void uvm_ranges_init(struct uvm_ranges *t)
{
	memset(t, 0, sizeof(*t));
	uvm_mutex_init(&t->lock, UVM_LOCK_RANGES);
}

void uvm_ranges_destroy(struct uvm_ranges *t)
{
	tdestroy(t->root, free);
	uvm_mutex_destroy(&t->lock);
	t->root = NULL;
	t->n = 0;
}

int uvm_ranges_add(struct uvm_ranges *t, const struct uvm_range *r)
{
	struct uvm_range *copy = malloc(sizeof(*copy));
	struct uvm_range **node;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	*copy = *r;
	uvm_mutex_lock(&t->lock);
	node = tsearch(copy, &t->root, cmp);
	if (!node)
		err = -ENOMEM;
	else if (*node != copy)
		err = -EEXIST;
	else
		t->n++;
	uvm_mutex_unlock(&t->lock);
	if (err)
		free(copy);
	return err;
}

int uvm_ranges_find_unlocked(const struct uvm_ranges *t, uintptr_t p, struct uvm_range *out)
{
	struct uvm_range key = {.base = p, .size = 1};
	struct uvm_range *const *node = tfind(&key, &t->root, cmp);

	if (!node)
		return -ENOENT;
	*out = **node;
	return 0;
}

int uvm_ranges_find(struct uvm_ranges *t, uintptr_t p, struct uvm_range *out)
{
	int err;

	uvm_mutex_lock(&t->lock);
	err = uvm_ranges_find_unlocked(t, p, out);
	uvm_mutex_unlock(&t->lock);
	return err;
}

int uvm_ranges_find_span(struct uvm_ranges *t, uintptr_t p, size_t n, struct uvm_range *out)
{
	/* The key overlaps whichever range any of its bytes falls in; ranges
	 * do not overlap each other, so one holding them all is the only one. */
	struct uvm_range key = {.base = p, .size = n}, r;
	struct uvm_range *const *node;

	uvm_mutex_lock(&t->lock);
	node = tfind(&key, &t->root, cmp);
	if (node)
		r = **node;
	uvm_mutex_unlock(&t->lock);
	if (!node)
		return -ENOENT;
	*out = r;
	return p < r.base || n > r.size - (p - r.base) ? -EINVAL : 0;
}

int uvm_ranges_remove(struct uvm_ranges *t, uintptr_t base, struct uvm_range *out)
{
	struct uvm_range key = {.base = base, .size = 1}, *r = NULL;
	struct uvm_range **node;
	int err = -ENOENT;

	uvm_mutex_lock(&t->lock);
	node = tfind(&key, &t->root, cmp);
	if (node && (*node)->base == base) {
		r = *node;
		tdelete(r, &t->root, cmp);
		t->n--;
		err = 0;
	}
	uvm_mutex_unlock(&t->lock);
	if (r && out)
		*out = *r;
	free(r);
	return err;
}

struct collect {
	struct uvm_range *v;
	size_t n;
};

static void collect(const void *node, VISIT which, void *arg)
{
	struct collect *c = arg;

	if (which == postorder || which == leaf)
		c->v[c->n++] = **(struct uvm_range *const *)node;
}

void uvm_ranges_each(struct uvm_ranges *t, int kind,
		     void (*fn)(const struct uvm_range *r, void *arg), void *arg)
{
	struct collect c = {0};

	uvm_mutex_lock(&t->lock);
	c.v = malloc(t->n * sizeof(*c.v) + 1);
	if (c.v)
		twalk_r(t->root, collect, &c); /* in-order: address order */
	uvm_mutex_unlock(&t->lock);
	for (size_t i = 0; c.v && i < c.n; i++)
		if (kind < 0 || c.v[i].kind == kind)
			fn(&c.v[i], arg);
	free(c.v);
}
