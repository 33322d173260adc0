// SPDX-License-Identifier: MIT
/* graph_csr.c - building and freeing the CSR arrays of a struct wl_graph,
 * and the small facts about graphs every reader shares. */
#include "graph_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int wlg_alloc_csr(struct wl_graph *g, int32_t nodes, int64_t arcs, bool weights)
{
	g->nodes = nodes;
	g->arcs = (int32_t)arcs;
	g->offset = calloc((size_t)nodes + 1, sizeof(int32_t));
	g->dest = calloc(arcs ? (size_t)arcs : 1, sizeof(int32_t));
	g->weight = weights ? calloc(arcs ? (size_t)arcs : 1, sizeof(int32_t)) : NULL;
	return g->offset && g->dest && (g->weight || !weights) ? 0 : -ENOMEM;
}

/* Turns per-node counts in offset[1..nodes] into start offsets. */
void wlg_prefix_sum(struct wl_graph *g)
{
	g->offset[0] = 0;
	for (int32_t u = 0; u < g->nodes; u++)
		g->offset[u + 1] += g->offset[u];
}

/*
 * Builds the CSR from an arc list, keeping the list's order among the arcs of
 * each node (a stable counting sort), so a file's neighbour order survives.
 */
int wlg_from_arcs(struct wl_graph *g, int32_t nodes, int64_t arcs, const int32_t *src,
		  const int32_t *dst, const int32_t *wt)
{
	int32_t *cursor;

	if (wlg_alloc_csr(g, nodes, arcs, wt != NULL))
		return -ENOMEM;
	for (int64_t a = 0; a < arcs; a++)
		g->offset[src[a] + 1]++;
	wlg_prefix_sum(g);
	cursor = malloc((size_t)nodes * sizeof(int32_t));
	if (!cursor)
		return -ENOMEM;
	memcpy(cursor, g->offset, (size_t)nodes * sizeof(int32_t));
	for (int64_t a = 0; a < arcs; a++) {
		int32_t at = cursor[src[a]]++;

		g->dest[at] = dst[a];
		if (wt)
			g->weight[at] = wt[a];
	}
	free(cursor);
	g->max_weight = 0;
	for (int64_t a = 0; wt && a < arcs; a++)
		if (wt[a] > g->max_weight)
			g->max_weight = wt[a];
	return 0;
}

void wl_graph_free(struct wl_graph *g)
{
	free(g->offset);
	free(g->dest);
	free(g->weight);
	free(g->ids);
	memset(g, 0, sizeof(*g));
}

const char *wl_graph_origin_name(enum wl_graph_origin origin)
{
	switch (origin) {
	case WL_GRAPH_GENERATED:
		return "generated";
	case WL_GRAPH_RODINIA:
		return "rodinia";
	case WL_GRAPH_DIMACS:
		return "dimacs";
	case WL_GRAPH_PACE:
		return "pace";
	case WL_GRAPH_SNAP:
		return "snap";
	}
	return "?";
}

int32_t wl_graph_hash_weight(int64_t u, int64_t v)
{
	uint64_t lo = (uint64_t)(u < v ? u : v), hi = (uint64_t)(u < v ? v : u);
	uint64_t z = (lo << 32) ^ hi;

	/* splitmix64's finaliser: every input bit moves every output bit. */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (int32_t)(1 + z % 100);
}

int64_t wl_graph_file_id(const struct wl_graph *g, int32_t u)
{
	if (g->ids)
		return g->ids[u];
	return g->origin == WL_GRAPH_DIMACS || g->origin == WL_GRAPH_PACE ? (int64_t)u + 1 : u;
}
