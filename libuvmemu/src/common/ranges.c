// SPDX-License-Identifier: MIT
/* ranges.c - a sorted, locked table of address ranges. */
#include "ranges.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void uvm_ranges_init(struct uvm_ranges *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
}

void uvm_ranges_destroy(struct uvm_ranges *t)
{
	free(t->v);
	pthread_mutex_destroy(&t->lock);
	t->v = NULL;
	t->n = t->cap = 0;
}

/* Index of the first range whose base is greater than p. */
static size_t upper(const struct uvm_ranges *t, uintptr_t p)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int uvm_ranges_add(struct uvm_ranges *t, const struct uvm_range *r)
{
	int err = 0;
	size_t i;

	pthread_mutex_lock(&t->lock);
	i = upper(t, r->base);
	if ((i > 0 && t->v[i - 1].base + t->v[i - 1].size > r->base) ||
	    (i < t->n && r->base + r->size > t->v[i].base)) {
		err = -EEXIST;
		goto out;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct uvm_range *v = realloc(t->v, cap * sizeof(*v));

		if (!v) {
			err = -ENOMEM;
			goto out;
		}
		t->v = v;
		t->cap = cap;
	}
	memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof(*t->v));
	t->v[i] = *r;
	t->n++;
out:
	pthread_mutex_unlock(&t->lock);
	return err;
}

int uvm_ranges_find(struct uvm_ranges *t, uintptr_t p, struct uvm_range *out)
{
	int err = -ENOENT;
	size_t i;

	pthread_mutex_lock(&t->lock);
	i = upper(t, p);
	if (i > 0 && p < t->v[i - 1].base + t->v[i - 1].size) {
		*out = t->v[i - 1];
		err = 0;
	}
	pthread_mutex_unlock(&t->lock);
	return err;
}

int uvm_ranges_remove(struct uvm_ranges *t, uintptr_t base, struct uvm_range *out)
{
	int err = -ENOENT;
	size_t i;

	pthread_mutex_lock(&t->lock);
	i = upper(t, base);
	if (i > 0 && t->v[i - 1].base == base) {
		if (out)
			*out = t->v[i - 1];
		memmove(&t->v[i - 1], &t->v[i], (t->n - i) * sizeof(*t->v));
		t->n--;
		err = 0;
	}
	pthread_mutex_unlock(&t->lock);
	return err;
}

void uvm_ranges_each(struct uvm_ranges *t, int kind,
		     void (*fn)(const struct uvm_range *r, void *arg), void *arg)
{
	struct uvm_range *copy;
	size_t n;

	pthread_mutex_lock(&t->lock);
	n = t->n;
	copy = malloc(n * sizeof(*copy) + 1);
	if (copy)
		memcpy(copy, t->v, n * sizeof(*copy));
	pthread_mutex_unlock(&t->lock);
	for (size_t i = 0; copy && i < n; i++)
		if (kind < 0 || copy[i].kind == kind)
			fn(&copy[i], arg);
	free(copy);
}
