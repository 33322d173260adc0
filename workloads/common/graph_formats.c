// SPDX-License-Identifier: MIT
/* graph_formats.c - the Rodinia text, DIMACS-9 and PACE-2016 graph formats,
 * recognised from the content, and loading a workload's graph from its options. */
#include "graph_int.h"

#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdlib.h>
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
 * a compact CSR in node order.
 */
static void read_rodinia(struct reader *r, struct wl_graph *g, bool weights)
{
	int32_t n = (int32_t)token_num(r, 1, INT32_MAX - 1, "the node count");
	int32_t *start = reader_scratch(r, 0, n, "node offsets");
	int32_t *degree = reader_scratch(r, 1, n, "node degrees");
	int32_t *fdest, *fweight, e;
	int64_t arcs = 0;

	for (int32_t i = 0; i < n; i++) {
		start[i] = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "a node's edge offset");
		degree[i] = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "a node's degree");
	}
	g->file_source = (int32_t)token_num(r, 0, n - 1, "the source node");
	e = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "the edge count");
	for (int32_t i = 0; i < n; i++) {
		if ((int64_t)start[i] + degree[i] > e)
			reader_fail(r,
				    "node %" PRId32 "'s edges %" PRId32 "..%" PRId64
				    " run past the edge count %" PRId32,
				    i, start[i], (int64_t)start[i] + degree[i] - 1, e);
		arcs += degree[i];
	}
	if (arcs > WL_GRAPH_MAX_ARCS)
		reader_fail(r, "the node degrees add up to %" PRId64 " arcs, more than %d", arcs,
			    WL_GRAPH_MAX_ARCS);
	fdest = reader_scratch(r, 2, e, "edges");
	fweight = reader_scratch(r, 3, e, "edge weights");
	for (int32_t i = 0; i < e; i++) {
		fdest[i] = (int32_t)token_num(r, 0, n - 1, "an edge's destination node");
		fweight[i] = (int32_t)token_num(r, 0, INT32_MAX, "an edge's weight");
	}
	while ((r->pos && *r->pos) || (r->pos = reader_next(r)))
		if (next_word(&r->pos))
			reader_fail(r, "unexpected data after the %" PRId32 " edges", e);

	wlg_alloc_csr(r->w, g, n, arcs, weights);
	for (int32_t u = 0; u < n; u++) {
		int32_t at = g->offset[u];

		g->offset[u + 1] = at + degree[u];
		memcpy(&g->dest[at], &fdest[start[u]], (size_t)degree[u] * sizeof(int32_t));
		for (int32_t k = 0; k < degree[u]; k++) {
			int32_t wt = fweight[start[u] + k];

			if (weights)
				g->weight[at + k] = wt;
			if (weights && wt > g->max_weight)
				g->max_weight = wt;
		}
	}
	g->origin = WL_GRAPH_RODINIA;
}

/* ------------------------------------------------------- DIMACS and PACE */

/* Skips comment ('c') and blank lines; returns the next other line or NULL. */
static char *next_content_line(struct reader *r)
{
	char *line;

	while ((line = reader_next(r))) {
		char *s = line;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s && *s != 'c')
			return line;
	}
	return NULL;
}

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
	*n = (int32_t)line_num(r, &p, 1, INT32_MAX - 1, "node count");
	*m = line_num(r, &p, 0, max_m, strcmp(kind, "sp") == 0 ? "arc count" : "edge count");
	line_end(r, &p);
}

static bool is_problem_line(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return line[0] == 'p' && (line[1] == ' ' || line[1] == '\t');
}

/* DIMACS-9 shortest path: "p sp N M" then M lines "a u v w", directed. */
static void read_dimacs(struct reader *r, struct wl_graph *g, bool weights)
{
	int32_t n = 0, *src = NULL, *dst = NULL, *wt = NULL;
	int64_t m = 0, count = 0;
	char *line;

	while ((line = next_content_line(r))) {
		char *p = line, *word;

		if (is_problem_line(line)) {
			if (src)
				reader_fail(r, "a second problem line");
			read_problem_line(r, line, "sp", WL_GRAPH_MAX_ARCS, &n, &m);
			src = reader_scratch(r, 0, m, "arc sources");
			dst = reader_scratch(r, 1, m, "arc heads");
			wt = reader_scratch(r, 2, m, "arc weights");
			continue;
		}
		word = next_word(&p);
		if (strcmp(word, "a") != 0)
			reader_fail(r, "unexpected '%.32s' (expected a 'c', 'p sp' or 'a' line)",
				    word);
		if (!src)
			reader_fail(r, "an arc before the problem line 'p sp NODES ARCS'");
		if (count == m)
			reader_fail(r, "more arcs than the %" PRId64 " the problem line declares",
				    m);
		src[count] = (int32_t)line_num(r, &p, 1, n, "arc tail") - 1;
		dst[count] = (int32_t)line_num(r, &p, 1, n, "arc head") - 1;
		wt[count] = (int32_t)line_num(r, &p, 0, INT32_MAX, "arc weight");
		line_end(r, &p);
		count++;
	}
	if (!src)
		reader_fail(r, "no problem line 'p sp NODES ARCS'");
	if (count < m)
		reader_fail(r,
			    "unexpected end of file: %" PRId64 " arcs, the problem line declares "
			    "%" PRId64,
			    count, m);
	wlg_from_arcs(r->w, g, n, m, src, dst, weights ? wt : NULL);
	g->origin = WL_GRAPH_DIMACS;
}

/*
 * PACE-2016: "p tw N M" then M lines "u v", undirected and unweighted. Each
 * edge becomes the arcs u->v and v->u, weighted by wl_graph_hash_weight.
 */
static void read_pace(struct reader *r, struct wl_graph *g, bool weights)
{
	int32_t n = 0, *src = NULL, *dst = NULL, *wt = NULL;
	int64_t m = 0, count = 0;
	char *line;

	while ((line = next_content_line(r))) {
		char *p = line;
		int32_t u, v;

		if (is_problem_line(line)) {
			if (src)
				reader_fail(r, "a second problem line");
			read_problem_line(r, line, "tw", WL_GRAPH_MAX_ARCS / 2, &n, &m);
			src = reader_scratch(r, 0, 2 * m, "arc sources");
			dst = reader_scratch(r, 1, 2 * m, "arc heads");
			wt = reader_scratch(r, 2, 2 * m, "arc weights");
			continue;
		}
		if (!src)
			reader_fail(r, "an edge before the problem line 'p tw NODES EDGES'");
		if (count == 2 * m)
			reader_fail(r, "more edges than the %" PRId64 " the problem line declares",
				    m);
		u = (int32_t)line_num(r, &p, 1, n, "edge endpoint");
		v = (int32_t)line_num(r, &p, 1, n, "edge endpoint");
		line_end(r, &p);
		src[count] = u - 1;
		dst[count] = v - 1;
		wt[count++] = wl_graph_hash_weight(u, v);
		src[count] = v - 1;
		dst[count] = u - 1;
		wt[count++] = wl_graph_hash_weight(u, v);
	}
	if (!src)
		reader_fail(r, "no problem line 'p tw NODES EDGES'");
	if (count < 2 * m)
		reader_fail(r,
			    "unexpected end of file: %" PRId64 " edges, the problem line "
			    "declares %" PRId64,
			    count / 2, m);
	wlg_from_arcs(r->w, g, n, 2 * m, src, dst, weights ? wt : NULL);
	g->origin = WL_GRAPH_PACE;
	g->hashed_weights = weights;
}

/* ---------------------------------------------------------------- dispatch */

void wl_graph_read(const struct wl *w, struct wl_graph *g, const char *path, bool weights)
{
	struct reader r;
	char kind[8] = "";
	char *line;

	memset(g, 0, sizeof(*g));
	reader_open(w, &r, path);
	line = next_content_line(&r);
	if (!line)
		reader_fail(&r, "no graph in the file (empty, or only comments)");
	r.pushed_back = true;
	if (is_problem_line(line)) {
		if (sscanf(line, " p %7s", kind) == 1 && strcmp(kind, "sp") == 0)
			read_dimacs(&r, g, weights);
		else if (strcmp(kind, "tw") == 0)
			read_pace(&r, g, weights);
		else
			reader_fail(&r, "unknown problem line: expected 'p sp' (DIMACS-9) or "
					"'p tw' (PACE-2016)");
	} else if (line[strspn(line, " \t")] == 'a') {
		read_dimacs(&r, g, weights); /* it names the missing problem line */
	} else if (line[strspn(line, " \t")] >= '0' && line[strspn(line, " \t")] <= '9') {
		read_rodinia(&r, g, weights);
	} else {
		reader_fail(&r, "unrecognised format: expected a Rodinia graph (a node count), "
				"DIMACS-9 'p sp' or PACE-2016 'p tw'");
	}
	reader_close(&r);
}

void wl_graph_load(const struct wl *w, struct wl_graph *g, long long nodes, const char *input,
		   int32_t default_nodes, int32_t max_nodes, uint64_t bytes_per_node, bool weights)
{
	if (!!w->footprint + !!nodes + !!input > 1)
		wl_usage_error(w, "give at most one of --footprint, --nodes and --input");
	if (input) {
		wl_graph_read(w, g, input, weights);
		return;
	}
	if (w->footprint) {
		nodes = (long long)(w->footprint / bytes_per_node);
		if (nodes < 1 || nodes > max_nodes)
			wl_usage_error(
			    w, "--footprint %" PRIu64 ": accepted %" PRIu64 " to %" PRIu64 " bytes",
			    w->footprint, bytes_per_node, bytes_per_node * (uint64_t)max_nodes);
	}
	wl_graph_generate(w, g, nodes ? (int32_t)nodes : default_nodes, w->seed, weights);
}
