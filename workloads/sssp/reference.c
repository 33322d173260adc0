// SPDX-License-Identifier: MIT
/* reference.c - the sequential Dijkstra the GPU distances are checked against. */
#include <stdlib.h>

#include "sssp.h"

/* A binary min-heap of (distance, node) with lazy deletion: a node may be in
 * it several times and stale entries are skipped when popped. */
struct heap_item {
	int32_t dist, node;
};

struct heap {
	struct heap_item *item;
	size_t len, cap;
};

static void heap_push(struct heap *h, int32_t dist, int32_t node)
{
	size_t i;

	if (h->len == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 1024;
		h->item = realloc(h->item, h->cap * sizeof(*h->item));
		if (!h->item) {
			fprintf(stderr, "sssp: out of memory for the reference heap\n");
			exit(1);
		}
	}
	for (i = h->len++; i > 0 && h->item[(i - 1) / 2].dist > dist; i = (i - 1) / 2)
		h->item[i] = h->item[(i - 1) / 2];
	h->item[i] = (struct heap_item){dist, node};
}

static struct heap_item heap_pop(struct heap *h)
{
	struct heap_item top = h->item[0], last = h->item[--h->len];
	size_t i = 0, child;

	while ((child = 2 * i + 1) < h->len) {
		if (child + 1 < h->len && h->item[child + 1].dist < h->item[child].dist)
			child++;
		if (h->item[child].dist >= last.dist)
			break;
		h->item[i] = h->item[child];
		i = child;
	}
	h->item[i] = last;
	return top;
}

void sssp_reference(const struct wl_graph *g, int32_t source, int32_t *dist)
{
	struct heap h = {0};

	for (int32_t u = 0; u < g->nodes; u++)
		dist[u] = SSSP_INF;
	dist[source] = 0;
	heap_push(&h, 0, source);
	while (h.len) {
		struct heap_item top = heap_pop(&h);

		if (top.dist != dist[top.node])
			continue;
		for (int32_t a = g->offset[top.node]; a < g->offset[top.node + 1]; a++) {
			int32_t v = g->dest[a], d = top.dist + g->weight[a];

			if (d < dist[v]) {
				dist[v] = d;
				heap_push(&h, d, v);
			}
		}
	}
	free(h.item);
}
