// SPDX-License-Identifier: MIT
/* graph.c - the graph a graph workload runs on (see graph.h): the generator,
 * reading its --input file, and its --source; the file readers are in
 * graph_reader.c, graph_formats.c and graph_snap.c. */
#include "graph_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* malloc that ends the run with a message naming `what` when it fails. */
static void *gen_alloc(const struct wl *w, size_t count, size_t size, const char *what)
{
	void *p = calloc(count ? count : 1, size);

	if (!p) {
		fprintf(stderr, "%s: out of memory for %zu %s\n", w->name, count, what);
		exit(1);
	}
	return p;
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
	g->offset = gen_alloc(w, (size_t)nodes + 1, sizeof(int32_t), "node offsets");
	generate_pass(g, seed, NULL, false);
	wlg_prefix_sum(g);
	/* At most 4 edges per node, 2 arcs each: below 2^31 by the node bound. */
	g->arcs = g->offset[nodes];
	g->dest = gen_alloc(w, (size_t)g->arcs, sizeof(int32_t), "arc destinations");
	g->weight = weights ? gen_alloc(w, (size_t)g->arcs, sizeof(int32_t), "arc weights") : NULL;
	cursor = gen_alloc(w, (size_t)nodes, sizeof(int32_t), "cursors");
	memcpy(cursor, g->offset, (size_t)nodes * sizeof(int32_t));
	generate_pass(g, seed, cursor, true);
	free(cursor);
	g->max_weight = weights ? 10 : 0;
	g->origin = WL_GRAPH_GENERATED;
}

/* ---------------------------------------------------------------- options */

void wl_graph_read(const struct wl *w, struct wl_graph *g, const char *path, bool weights)
{
	const struct wl_graph_parse_opts opts = {.weights = weights};
	char err[512];
	FILE *f = fopen(path, "rb");
	int ret;

	if (!f)
		wl_usage_error(w, "%s: cannot open: %s", path, strerror(errno));
	ret = wl_graph_parse(f, path, &opts, g, err, sizeof(err));
	fclose(f);
	if (ret == -ENOMEM) {
		fprintf(stderr, "%s: %s\n", w->name, err);
		exit(1);
	}
	if (ret)
		wl_usage_error(w, "%s", err);
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

int32_t wl_graph_source(const struct wl *w, const struct wl_graph *g, long long v)
{
	int64_t first = wl_graph_file_id(g, 0), last = wl_graph_file_id(g, g->nodes - 1);
	int32_t lo = 0, hi = g->nodes - 1;

	if (v < 0)
		return g->source;
	if (v < first || v > last)
		wl_usage_error(w, "--source %lld: accepted %" PRId64 " to %" PRId64 "%s", v, first,
			       last,
			       g->ids  ? " (a vertex id of the SNAP file)"
			       : first ? " (vertex ids of the file are 1-based)"
				       : "");
	/* File ids ascend with node numbers: find v's node. */
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;

		if (wl_graph_file_id(g, mid) < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (wl_graph_file_id(g, lo) != v)
		wl_usage_error(w, "--source %lld: no edge of the SNAP file names that vertex", v);
	return lo;
}

struct wl_graph_reach wl_graph_result(struct wl *w, const struct wl_graph *g, int32_t source,
				      const char *what, const int32_t *value, int32_t unreached)
{
	struct wl_graph_reach r = {0, 0};

	for (int32_t u = 0; u < g->nodes; u++) {
		if (value[u] == unreached)
			continue;
		r.reached++;
		r.farthest = value[u] > r.farthest ? value[u] : r.farthest;
	}
	if (r.reached <= 1 && g->nodes > 1)
		fprintf(stderr,
			"%s: warning: the source, vertex %" PRId64 ", reaches no other of the "
			"%" PRId32 " nodes (--source V starts elsewhere)\n",
			w->name, wl_graph_file_id(g, source), g->nodes);
	wl_output_i32(w, what, value, (size_t)g->nodes);
	/* int64_t and uint64_t may alias; SNAP ids are never negative. */
	if (g->ids)
		wl_output_u64(w, "ids", (const uint64_t *)g->ids, (size_t)g->nodes);
	uvmemu_report_value("nodes", g->nodes);
	uvmemu_report_value("arcs", g->arcs);
	uvmemu_report_value("reached", r.reached);
	return r;
}
