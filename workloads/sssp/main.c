// SPDX-License-Identifier: MIT
/*
 * main.c - sssp: Harish-Narayanan style Bellman-Ford rounds (the
 * Lonestar-style GPU baseline), on a graphgen-style random graph or a real
 * road network.
 *
 * Per round the host clears the managed "changed" flag, launches kernel 1
 * (relax the frontier's arcs) and kernel 2 (commit and re-mark), waits, and
 * reads the flag: the CPU and the GPU touch the flag's page in turn every
 * round.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sssp.h"

/* The random graph size the original was run on: 2^20 nodes. */
#define SSSP_DEFAULT_NODES (1 << 20)

/* Generated weights are at most 10, so that many nodes keep every path
 * length below SSSP_INF (see load_graph). */
#define SSSP_MAX_GEN_NODES (SSSP_INF / 10 - 1)

/* The managed arrays, in host view. */
struct sssp_data {
	int32_t *nodes, *edges, *weights;
	bool *mask;
	int32_t *cost, *updating_cost;
	bool *changed;
	uint64_t bytes;
};

/* Managed bytes for n nodes and e arcs: node offset, mask, cost and
 * updating cost per node, destination and weight per arc, the flag. */
static uint64_t sssp_bytes(int64_t n, int64_t e)
{
	return (uint64_t)n * (3 * sizeof(int32_t) + sizeof(bool)) +
	       (uint64_t)e * 2 * sizeof(int32_t) + sizeof(bool);
}

static void load_graph(const struct wl *w, struct wl_graph *g, long long nodes, const char *input)
{
	/* The generator averages WL_GRAPH_GEN_ARCS_PER_NODE arcs a node. */
	wl_graph_load(w, g, nodes, input, SSSP_DEFAULT_NODES, SSSP_MAX_GEN_NODES,
		      sssp_bytes(1, WL_GRAPH_GEN_ARCS_PER_NODE) - sizeof(bool), true);
	/* A path has at most nodes - 1 arcs; its length and one more arc must
	 * stay below SSSP_INF in int, the originals' distance type. */
	if ((int64_t)g->max_weight * g->nodes >= SSSP_INF)
		wl_usage_error(w,
			       "%s: weights up to %" PRId32 " over %" PRId32
			       " nodes could overflow 32-bit distances",
			       input ? input : "generated graph", g->max_weight, g->nodes);
}

/* Allocates the managed arrays and fills them on the host (CPU first touch),
 * starting from `source`. */
static void sssp_setup(const struct wl *w, const struct wl_graph *g, int32_t source,
		       struct sssp_data *d)
{
	int32_t n = g->nodes;

	d->nodes = wl_managed(w, (size_t)n * sizeof(int32_t), "nodes");
	d->edges = wl_managed(w, (size_t)g->arcs * sizeof(int32_t), "edges");
	d->weights = wl_managed(w, (size_t)g->arcs * sizeof(int32_t), "weights");
	d->mask = wl_managed(w, (size_t)n * sizeof(bool), "mask");
	d->cost = wl_managed(w, (size_t)n * sizeof(int32_t), "cost");
	d->updating_cost = wl_managed(w, (size_t)n * sizeof(int32_t), "updating cost");
	d->changed = wl_managed(w, sizeof(bool), "changed flag");
	d->bytes = sssp_bytes(n, g->arcs);

	memcpy(d->nodes, g->offset, (size_t)n * sizeof(int32_t));
	memcpy(d->edges, g->dest, (size_t)g->arcs * sizeof(int32_t));
	memcpy(d->weights, g->weight, (size_t)g->arcs * sizeof(int32_t));
	for (int32_t u = 0; u < n; u++) {
		d->mask[u] = false;
		d->cost[u] = SSSP_INF;
		d->updating_cost[u] = SSSP_INF;
	}
	d->mask[source] = true;
	d->cost[source] = 0;
	d->updating_cost[source] = 0;
}

/* The GPU part: two launches per round until a round changes no distance.
 * Returns the number of rounds run (the last one changes nothing). */
static int32_t sssp_run(const struct wl *w, const struct sssp_data *d, const struct wl_graph *g)
{
	int32_t n = g->nodes;
	dim3 grid =
	    emu_dim3((unsigned)((n + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK), 1, 1);
	/* A graph smaller than one CTA gets one CTA of n threads. */
	dim3 block =
	    emu_dim3(n < MAX_THREADS_PER_BLOCK ? (unsigned)n : MAX_THREADS_PER_BLOCK, 1, 1);
	int32_t rounds = 0;
	bool changed;

	do {
		*d->changed = false;
		WL_CHECK(w, EMU_LAUNCH(sssp_kernel1, grid, block, 0, .nodes = d->nodes,
				       .edges = d->edges, .weights = d->weights, .mask = d->mask,
				       .cost = d->cost, .updating_cost = d->updating_cost,
				       .no_of_nodes = n, .edge_list_size = g->arcs));
		WL_CHECK(w, EMU_LAUNCH(sssp_kernel2, grid, block, 0, .mask = d->mask,
				       .cost = d->cost, .updating_cost = d->updating_cost,
				       .changed = d->changed, .no_of_nodes = n));
		WL_CHECK(w, cudaDeviceSynchronize());
		changed = *d->changed;
		rounds++;
	} while (changed);
	return rounds;
}

static void sssp_free(const struct wl *w, struct sssp_data *d)
{
	void *all[] = {d->nodes, d->edges,	   d->weights, d->mask,
		       d->cost,	 d->updating_cost, d->changed};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		WL_CHECK(w, cudaFree(all[i]));
}

int main(int argc, char **argv)
{
	long long nodes = 0, source_id = -1;
	const char *input = NULL;
	const struct wl_opt opts[] = {
	    {"nodes", WL_INT, &nodes, 1, WL_GRAPH_GEN_MAX_NODES,
	     "generate a random graph of N nodes (default 1048576)"},
	    {"input", WL_STR, &input, 0, 0,
	     "read a graph: Rodinia text, DIMACS-9 .gr, PACE-2016 .gr or a SNAP edge list "
	     "(plain, .xz or .gz)"},
	    {"source", WL_INT, &source_id, 0, 0,
	     "start from vertex V as the file names it (default: node 0, or a SNAP "
	     "file's first vertex)"},
	    {0},
	};
	struct wl w;
	struct wl_graph g;
	struct sssp_data d;
	int32_t *want, rounds, source;
	struct wl_graph_reach reach;
	double t;
	bool pass;

	wl_init(&w, "sssp", "sssp: Harish-style single-source shortest paths from one node.", argc,
		argv, opts);
	load_graph(&w, &g, nodes, input);
	source = wl_graph_source(&w, &g, source_id);
	sssp_setup(&w, &g, source, &d);
	wl_footprint(&w, d.bytes);
	wl_log(&w,
	       "%s graph: %" PRId32 " nodes, %" PRId32 " arcs, weights up to %" PRId32
	       "%s, source %" PRId64,
	       wl_graph_origin_name(g.origin), g.nodes, g.arcs, g.max_weight,
	       g.hashed_weights ? " (hashed from the endpoints)" : "",
	       wl_graph_file_id(&g, source));

	uvmemu_roi_begin();
	t = wl_now();
	rounds = sssp_run(&w, &d, &g);
	t = wl_now() - t;
	uvmemu_roi_end();

	want = malloc((size_t)g.nodes * sizeof(int32_t));
	if (!want) {
		fprintf(stderr, "sssp: out of memory for the reference\n");
		return 1;
	}
	sssp_reference(&g, source, want);
	pass = wl_check_i32(&w, "distance", d.cost, want, (size_t)g.nodes);
	/* What is printed comes from the GPU's distances, not the reference's. */
	reach = wl_graph_result(&w, &g, source, "distance", d.cost, SSSP_INF);
	wl_log(&w,
	       "%" PRId32 " rounds, %" PRId32 " nodes reached (farthest at %" PRId32
	       "), kernels %.3f s",
	       rounds, reach.reached, reach.farthest, t);
	uvmemu_report_value("rounds", rounds);
	free(want);
	sssp_free(&w, &d);
	wl_graph_free(&g);
	return wl_finish(&w, pass);
}
