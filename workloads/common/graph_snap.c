// SPDX-License-Identifier: MIT
/*
 * graph_snap.c - SNAP edge lists (the Stanford Large Network Dataset
 * Collection's text format): '#' comment lines, then one edge "u v" per line,
 * tab or space separated, ids any non-negative integers.
 *
 * SNAP ids are sparse (a crawl's page or user numbers), so they are renumbered
 * densely in ascending order: node k is the k-th smallest id of the file, and
 * g->ids maps back. The header comments SNAP writes are used when present:
 * "Undirected graph" (each edge is listed once; both directions are stored)
 * and "Nodes: N Edges: M" (the body must hold exactly M edges and at most N
 * distinct ids: isolated nodes count in N but never appear in an edge list).
 */
#include "graph_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* What the header comments declare (-1: not said). */
struct snap_header {
	bool undirected;
	int64_t nodes, edges;
	unsigned long line; /* where Nodes/Edges were declared */
};

/* "KEY: NUMBER" inside a comment, if the key is there. */
static void header_count(struct reader *r, const char *line, const char *key, int64_t *out,
			 struct snap_header *h)
{
	const char *at = strstr(line, key);
	char word[24] = "";
	int64_t v;

	if (!at)
		return;
	if (*out >= 0)
		reader_fail(r, "a second '%s' header", key);
	sscanf(at + strlen(key), " %23[^ \t,;]", word);
	if (!parse_num(word, 0, INT64_MAX, &v))
		reader_fail(r, "header '%s' needs a count, got '%.23s'", key, word);
	*out = v;
	h->line = r->lineno;
}

static void read_header(struct reader *r, const char *line, struct snap_header *h)
{
	if (strstr(line, "Undirected graph") || strstr(line, "undirected graph"))
		h->undirected = true;
	header_count(r, line, "Nodes:", &h->nodes, h);
	header_count(r, line, "Edges:", &h->edges, h);
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The rank of id among the n ascending ids (it is one of them). */
static int32_t rank_of(const int64_t *ids, int32_t n, int64_t id)
{
	int32_t lo = 0, hi = n - 1;

	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;

		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* g->ids for `distinct` vertices, if the graph may have that many. */
static void alloc_ids(struct reader *r, struct wl_graph *g, int64_t distinct)
{
	if (distinct > r->max_nodes)
		reader_fail(r, "%" PRId64 " distinct vertices, more than the %" PRId32 " accepted",
			    distinct, r->max_nodes);
	g->ids = malloc((size_t)distinct * sizeof(int64_t));
	if (!g->ids)
		reader_nomem(r, "the vertex ids");
}

/*
 * Replaces each of the n endpoint ids in e by its rank among the distinct ids
 * and sets g->ids to those ids, ascending. Ids below a few times n (the usual
 * SNAP crawl) are ranked through a table indexed by id; larger ones by
 * sorting a copy.
 */
static void renumber(struct reader *r, struct wl_graph *g, int64_t *e, size_t n)
{
	int64_t max = 0, distinct = 0;

	for (size_t i = 0; i < n; i++)
		max = e[i] > max ? e[i] : max;
	if ((uint64_t)max < 8 * (uint64_t)n + 1024) {
		int32_t *rank =
		    reader_array(r, 0, (size_t)max + 1, sizeof(int32_t), "the id table");

		memset(rank, 0, ((size_t)max + 1) * sizeof(int32_t));
		for (size_t i = 0; i < n; i++)
			rank[e[i]] = 1;
		for (int64_t id = 0; id <= max; id++)
			distinct += rank[id];
		alloc_ids(r, g, distinct);
		distinct = 0;
		for (int64_t id = 0; id <= max; id++)
			if (rank[id]) {
				g->ids[distinct] = id;
				rank[id] = (int32_t)distinct++;
			}
		for (size_t i = 0; i < n; i++)
			e[i] = rank[e[i]];
	} else {
		int64_t *sorted = reader_array(r, 0, n, sizeof(int64_t), "sorted ids");

		memcpy(sorted, e, n * sizeof(int64_t));
		qsort(sorted, n, sizeof(int64_t), cmp_id);
		for (size_t i = 0; i < n; i++)
			if (i == 0 || sorted[i] != sorted[distinct - 1])
				sorted[distinct++] = sorted[i];
		alloc_ids(r, g, distinct);
		memcpy(g->ids, sorted, (size_t)distinct * sizeof(int64_t));
		for (size_t i = 0; i < n; i++)
			e[i] = rank_of(g->ids, (int32_t)distinct, e[i]);
	}
	g->nodes = (int32_t)distinct;
}

void wlg_read_snap(struct reader *r, struct wl_graph *g)
{
	struct snap_header h = {.nodes = -1, .edges = -1};
	int64_t *e = NULL, count = 0, max_edges;
	char *line;

	while ((line = reader_next(r))) {
		char *p = line + strspn(line, " \t");

		if (*p == '#') {
			/* SNAP's header precedes the edges; later comments are
			 * only comments. */
			if (count == 0)
				read_header(r, p, &h);
			continue;
		}
		if (!*p)
			continue;
		max_edges = h.undirected ? WL_GRAPH_MAX_ARCS / 2 : WL_GRAPH_MAX_ARCS;
		if (count == max_edges)
			reader_fail(r, "more than %" PRId64 " edges", max_edges);
		if (h.edges >= 0 && count == h.edges)
			reader_fail(r,
				    "more edges than the %" PRId64 " the header (line %lu) "
				    "declares",
				    h.edges, h.line);
		e = reader_array(r, 3, 2 * (size_t)count + 2, sizeof(int64_t), "edges");
		e[2 * count] = line_num(r, &p, 0, INT64_MAX, "source id");
		e[2 * count + 1] = line_num(r, &p, 0, INT64_MAX, "target id");
		line_end(r, &p);
		count++;
	}
	if (count == 0)
		reader_fail(r, "no edges in the file");
	if (h.edges >= 0 && count < h.edges)
		reader_fail(r,
			    "unexpected end of file: %" PRId64 " edges, the header (line %lu) "
			    "declares %" PRId64,
			    count, h.line, h.edges);
	renumber(r, g, e, 2 * (size_t)count);
	if (h.nodes >= 0 && g->nodes > h.nodes)
		reader_fail(r,
			    "%" PRId32 " distinct vertices, more than the %" PRId64
			    " the header (line %lu) declares",
			    g->nodes, h.nodes, h.line);
	for (int64_t i = 0, a = 0; i < count; i++) {
		int32_t u = (int32_t)e[2 * i], v = (int32_t)e[2 * i + 1];
		int32_t wt = wl_graph_hash_weight(g->ids[u], g->ids[v]);

		reader_add_arc(r, a++, u, v, wt);
		if (h.undirected)
			reader_add_arc(r, a++, v, u, wt);
	}
	reader_arcs_to_csr(r, g, g->nodes, h.undirected ? 2 * count : count);
	g->source = (int32_t)e[0];
	g->origin = WL_GRAPH_SNAP;
	g->hashed_weights = r->opts->weights;
}
