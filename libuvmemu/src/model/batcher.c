// SPDX-License-Identifier: MIT
/* batcher.c - the modelled fault buffer: a binary heap by (stamp, arrival). */
#include "batcher.h"

#include <errno.h>
#include <stdlib.h>

void uvm_batcher_init(struct uvm_batcher *b, unsigned max, uint64_t window, uint64_t gap)
{
	*b = (struct uvm_batcher){.max = max ? max : 1, .window = window, .gap = gap};
}

void uvm_batcher_destroy(struct uvm_batcher *b)
{
	free(b->heap);
	b->heap = NULL;
	b->n = b->cap = 0;
}

static bool before(const struct uvm_mfault *a, const struct uvm_mfault *b)
{
	return a->stamp < b->stamp || (a->stamp == b->stamp && a->seq < b->seq);
}

static void swap(struct uvm_mfault *a, struct uvm_mfault *b)
{
	struct uvm_mfault t = *a;

	*a = *b;
	*b = t;
}

int uvm_batcher_add(struct uvm_batcher *b, uint64_t stamp, uint64_t page, uint32_t slot)
{
	size_t i;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;
		struct uvm_mfault *h = realloc(b->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		b->heap = h;
		b->cap = cap;
	}
	i = b->n++;
	b->heap[i] = (struct uvm_mfault){stamp, page, slot, b->seq++};
	while (i > 0 && before(&b->heap[i], &b->heap[(i - 1) / 2])) {
		swap(&b->heap[i], &b->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

/* The earliest pending fault's arrival: every fault stamped before it was
 * taken (the heap pops in stamp order), so it follows the last taken one. */
static uint64_t top_arrival(const struct uvm_batcher *b)
{
	return b->heap[0].stamp > b->open_at ? b->heap[0].stamp : b->open_at;
}

bool uvm_batcher_next(const struct uvm_batcher *b, uint64_t *start)
{
	uint64_t t;

	if (b->n == 0)
		return false;
	t = top_arrival(b);
	*start = t > b->free_at ? t : b->free_at;
	return true;
}

static void pop(struct uvm_batcher *b, struct uvm_mfault *out)
{
	size_t i = 0;

	*out = b->heap[0];
	b->heap[0] = b->heap[--b->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < b->n && before(&b->heap[l], &b->heap[m]))
			m = l;
		if (r < b->n && before(&b->heap[r], &b->heap[m]))
			m = r;
		if (m == i)
			return;
		swap(&b->heap[i], &b->heap[m]);
		i = m;
	}
}

size_t uvm_batcher_take(struct uvm_batcher *b, uint64_t start, struct uvm_mfault *out)
{
	uint64_t by = uvm_batcher_fetched_by(b, start);
	size_t k = 0;

	while (k < b->max && b->n > 0) {
		uint64_t t = top_arrival(b);

		if (t > by)
			break;
		pop(b, &out[k++]);
		b->open_at = t + b->gap;
	}
	return k;
}

void uvm_batcher_done(struct uvm_batcher *b, uint64_t end)
{
	if (end > b->free_at)
		b->free_at = end;
}
