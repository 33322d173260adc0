// SPDX-License-Identifier: MIT
/* graph_formats.c - the Rodinia text, DIMACS-9 and PACE-2016 graph formats
 * (SNAP edge lists are in graph_snap.c). */
#include "graph_int.h"

#include <inttypes.h>
#include <string.h>

/* ---------------------------------------------------------- Rodinia format */

/* The next number of a whitespace-separated stream that may span lines. */
static int64_t token_num(struct reader *r, int64_t min, int64_t max, const char *what)
{
	for (;;) {
		char *s = r->pos;

		while (s && (*s == ' ' || *s == '\t'))
			s++;
		if (s && *s) {
			r->pos = s;
			break;
		}
		r->pos = reader_next(r);
		if (!r->pos)
			reader_fail(r, "unexpected end of file: missing %s", what);
	}
	return line_num(r, &r->pos, min, max, what);
}

/*
 * N; N lines "offset degree"; the source; E; E lines "dest weight". Each
 * node's edges are edges[offset .. offset + degree - 1]; they are copied into
 * a compact CSR in node order. A node of degree 0 has no edges, whatever its
 * offset says.
 */
void wlg_read_rodinia(struct reader *r, struct wl_graph *g)
{
	int32_t n = (int32_t)token_num(r, 1, r->max_nodes, "the node count");
	int32_t *start = NULL, *degree = NULL, *fdest = NULL, *fweight = NULL, e;
	int64_t arcs = 0;

	for (int32_t i = 0; i < n; i++) {
		start = reader_array(r, 0, (size_t)i + 1, sizeof(int32_t), "node offsets");
		degree = reader_array(r, 1, (size_t)i + 1, sizeof(int32_t), "node degrees");
		start[i] = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "a node's edge offset");
		degree[i] = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "a node's degree");
	}
	g->file_source = (int32_t)token_num(r, 0, n - 1, "the source node");
	e = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "the edge count");
	for (int32_t i = 0; i < n; i++) {
		if (degree[i] > 0 && (int64_t)start[i] + degree[i] > e)
			reader_fail(r,
				    "node %" PRId32 "'s edges %" PRId32 "..%" PRId64
				    " run past the edge count %" PRId32,
				    i, start[i], (int64_t)start[i] + degree[i] - 1, e);
		arcs += degree[i];
	}
	if (arcs > WL_GRAPH_MAX_ARCS)
		reader_fail(r, "the node degrees add up to %" PRId64 " arcs, more than %d", arcs,
			    WL_GRAPH_MAX_ARCS);
	for (int32_t i = 0; i < e; i++) {
		fdest = reader_array(r, 2, (size_t)i + 1, sizeof(int32_t), "edges");
		fweight = reader_array(r, 3, (size_t)i + 1, sizeof(int32_t), "edge weights");
		fdest[i] = (int32_t)token_num(r, 0, n - 1, "an edge's destination node");
		fweight[i] = (int32_t)token_num(r, 0, INT32_MAX, "an edge's weight");
	}
	while ((r->pos && *r->pos) || (r->pos = reader_next(r)))
		if (next_word(&r->pos))
			reader_fail(r, "unexpected data after the %" PRId32 " edges", e);

	if (wlg_alloc_csr(g, n, arcs, r->opts->weights))
		reader_nomem(r, "the graph");
	for (int32_t u = 0; u < n; u++) {
		int32_t at = g->offset[u];

		g->offset[u + 1] = at + degree[u];
		if (degree[u] == 0)
			continue;
		memcpy(&g->dest[at], &fdest[start[u]], (size_t)degree[u] * sizeof(int32_t));
		for (int32_t k = 0; g->weight && k < degree[u]; k++) {
			int32_t wt = fweight[start[u] + k];

			g->weight[at + k] = wt;
			if (wt > g->max_weight)
				g->max_weight = wt;
		}
	}
	g->origin = WL_GRAPH_RODINIA;
}

/* ------------------------------------------------------- DIMACS and PACE */

/* "p KIND N M": the node and arc (or edge) counts. */
static void read_problem_line(struct reader *r, char *line, const char *kind, int64_t max_m,
			      int32_t *n, int64_t *m)
{
	char *p = line, *word;

	next_word(&p); /* the 'p' the caller saw */
	word = next_word(&p);
	if (!word || strcmp(word, kind) != 0)
		reader_fail(r, "expected 'p %s NODES %s'", kind,
			    strcmp(kind, "sp") == 0 ? "ARCS" : "EDGES");
	*n = (int32_t)line_num(r, &p, 1, r->max_nodes, "node count");
	*m = line_num(r, &p, 0, max_m, strcmp(kind, "sp") == 0 ? "arc count" : "edge count");
	line_end(r, &p);
}

/* DIMACS-9 shortest path: "p sp N M" then M lines "a u v w", directed. */
void wlg_read_dimacs(struct reader *r, struct wl_graph *g)
{
	int32_t n = 0;
	int64_t m = -1, count = 0;
	char *line;

	while ((line = reader_next_content(r, 'c'))) {
		char *p = line, *word;
		int32_t u, v, wt;

		if (is_problem_line(line)) {
			if (m >= 0)
				reader_fail(r, "a second problem line");
			read_problem_line(r, line, "sp", WL_GRAPH_MAX_ARCS, &n, &m);
			continue;
		}
		word = next_word(&p);
		if (strcmp(word, "a") != 0)
			reader_fail(r, "unexpected '%.32s' (expected a 'c', 'p sp' or 'a' line)",
				    word);
		if (m < 0)
			reader_fail(r, "an arc before the problem line 'p sp NODES ARCS'");
		if (count == m)
			reader_fail(r, "more arcs than the %" PRId64 " the problem line declares",
				    m);
		u = (int32_t)line_num(r, &p, 1, n, "arc tail") - 1;
		v = (int32_t)line_num(r, &p, 1, n, "arc head") - 1;
		wt = (int32_t)line_num(r, &p, 0, INT32_MAX, "arc weight");
		line_end(r, &p);
		reader_add_arc(r, count++, u, v, wt);
	}
	if (m < 0)
		reader_fail(r, "no problem line 'p sp NODES ARCS'");
	if (count < m)
		reader_fail(r,
			    "unexpected end of file: %" PRId64 " arcs, the problem line declares "
			    "%" PRId64,
			    count, m);
	reader_arcs_to_csr(r, g, n, m);
	g->origin = WL_GRAPH_DIMACS;
}

/*
 * PACE-2016: "p tw N M" then M lines "u v", undirected and unweighted. Each
 * edge becomes the arcs u->v and v->u, weighted by wl_graph_hash_weight.
 */
void wlg_read_pace(struct reader *r, struct wl_graph *g)
{
	int32_t n = 0;
	int64_t m = -1, count = 0;
	char *line;

	while ((line = reader_next_content(r, 'c'))) {
		char *p = line;
		int32_t u, v, wt;

		if (is_problem_line(line)) {
			if (m >= 0)
				reader_fail(r, "a second problem line");
			read_problem_line(r, line, "tw", WL_GRAPH_MAX_ARCS / 2, &n, &m);
			continue;
		}
		if (m < 0)
			reader_fail(r, "an edge before the problem line 'p tw NODES EDGES'");
		if (count == 2 * m)
			reader_fail(r, "more edges than the %" PRId64 " the problem line declares",
				    m);
		u = (int32_t)line_num(r, &p, 1, n, "edge endpoint");
		v = (int32_t)line_num(r, &p, 1, n, "edge endpoint");
		line_end(r, &p);
		wt = wl_graph_hash_weight(u, v);
		reader_add_arc(r, count++, u - 1, v - 1, wt);
		reader_add_arc(r, count++, v - 1, u - 1, wt);
	}
	if (m < 0)
		reader_fail(r, "no problem line 'p tw NODES EDGES'");
	if (count < 2 * m)
		reader_fail(r,
			    "unexpected end of file: %" PRId64 " edges, the problem line "
			    "declares %" PRId64,
			    count / 2, m);
	reader_arcs_to_csr(r, g, n, 2 * m);
	g->origin = WL_GRAPH_PACE;
	g->hashed_weights = r->opts->weights;
}
