// SPDX-License-Identifier: MIT
/* graph.c - host-side graphs for bfs and sssp: CSR arrays and the generator
 * (see graph.h); file readers are in graph_reader.c and graph_formats.c. */
#include "graph_int.h"

#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ CSR building */

void *wlg_alloc(const struct wl *w, size_t count, size_t size, const char *what)
{
	void *p = calloc(count ? count : 1, size);

	if (!p) {
		fprintf(stderr, "%s: out of memory for %zu %s\n", w->name, count, what);
		exit(1);
	}
	return p;
}

void wlg_alloc_csr(const struct wl *w, struct wl_graph *g, int32_t nodes, int64_t arcs,
		   bool weights)
{
	g->nodes = nodes;
	g->arcs = (int32_t)arcs;
	g->offset = wlg_alloc(w, (size_t)nodes + 1, sizeof(int32_t), "node offsets");
	g->dest = wlg_alloc(w, (size_t)arcs, sizeof(int32_t), "arc destinations");
	g->weight = weights ? wlg_alloc(w, (size_t)arcs, sizeof(int32_t), "arc weights") : NULL;
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
void wlg_from_arcs(const struct wl *w, struct wl_graph *g, int32_t nodes, int64_t arcs,
		   const int32_t *src, const int32_t *dst, const int32_t *wt)
{
	int32_t *cursor;

	wlg_alloc_csr(w, g, nodes, arcs, wt != NULL);
	for (int64_t a = 0; a < arcs; a++)
		g->offset[src[a] + 1]++;
	wlg_prefix_sum(g);
	cursor = wlg_alloc(w, (size_t)nodes, sizeof(int32_t), "cursors");
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
}

void wl_graph_free(struct wl_graph *g)
{
	free(g->offset);
	free(g->dest);
	free(g->weight);
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

/* --------------------------------------------------------------- generator */

/*
 * One pass over the generator's edge sequence. The first pass (fill false)
 * counts each node's arcs, the second replays the same random sequence and
 * places the arcs, so the edge list is never held in memory. Arcs land in
 * each node's row in the order they were generated, as graphgen's adjacency
 * lists would hold them.
 */
static void generate_pass(struct wl_graph *g, uint64_t seed, int32_t *cursor, bool fill)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (int32_t i = 0; i < g->nodes; i++) {
		int k = 2 + (int)wl_rng_below(&rng, 3);

		for (int e = 0; e < k; e++) {
			int32_t j = (int32_t)wl_rng_below(&rng, (uint64_t)g->nodes);
			int32_t wt = 1 + (int32_t)wl_rng_below(&rng, 10);

			if (!fill) {
				g->offset[i + 1]++;
				g->offset[j + 1]++;
				continue;
			}
			g->dest[cursor[i]] = j;
			if (g->weight)
				g->weight[cursor[i]] = wt;
			cursor[i]++;
			g->dest[cursor[j]] = i;
			if (g->weight)
				g->weight[cursor[j]] = wt;
			cursor[j]++;
		}
	}
}

void wl_graph_generate(const struct wl *w, struct wl_graph *g, int32_t nodes, uint64_t seed,
		       bool weights)
{
	int32_t *cursor;

	if (nodes < 1 || nodes > WL_GRAPH_GEN_MAX_NODES)
		wl_usage_error(w, "cannot generate %" PRId32 " nodes: accepted 1 to %d", nodes,
			       WL_GRAPH_GEN_MAX_NODES);
	memset(g, 0, sizeof(*g));
	g->nodes = nodes;
	g->offset = wlg_alloc(w, (size_t)nodes + 1, sizeof(int32_t), "node offsets");
	generate_pass(g, seed, NULL, false);
	wlg_prefix_sum(g);
	/* At most 4 edges per node, 2 arcs each: below 2^31 by the node bound. */
	g->arcs = g->offset[nodes];
	g->dest = wlg_alloc(w, (size_t)g->arcs, sizeof(int32_t), "arc destinations");
	g->weight = weights ? wlg_alloc(w, (size_t)g->arcs, sizeof(int32_t), "arc weights") : NULL;
	cursor = wlg_alloc(w, (size_t)nodes, sizeof(int32_t), "cursors");
	memcpy(cursor, g->offset, (size_t)nodes * sizeof(int32_t));
	generate_pass(g, seed, cursor, true);
	free(cursor);
	g->max_weight = weights ? 10 : 0;
	g->origin = WL_GRAPH_GENERATED;
}
