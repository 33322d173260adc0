// SPDX-License-Identifier: MIT
/*
 * main.c - Rodinia bfs: breadth-first search, level-synchronous, on a
 * graphgen-style random graph or a real input file.
 *
 * Per level the host clears the "over" flag, launches kernel 1 (expand the
 * frontier) and kernel 2 (commit it), waits, and reads the flag. By default
 * the flag is managed, so the CPU and the GPU touch its page in turn every
 * level, as in the managed ports; with --over device it lives in device
 * memory and the host writes and reads it with cudaMemcpy, as UVMSmart's
 * port does (us-bfs).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bfs.h"

/* Rodinia's largest standard input, graph1MW_6, has a million nodes. */
#define BFS_DEFAULT_NODES 1000000

/* The managed arrays, in host view, and the flag (device memory with
 * over_on_device). */
struct bfs_data {
	struct bfs_node *nodes;
	int32_t *edges;
	bool *mask, *updating, *visited;
	int32_t *cost;
	bool *over;
	bool over_on_device;
	uint64_t bytes;
};

/* Managed bytes for n nodes and e arcs: nodes, edges, 3 flags and cost per
 * node, the "over" flag. */
static uint64_t bfs_bytes(int64_t n, int64_t e)
{
	return (uint64_t)n * (sizeof(struct bfs_node) + 3 * sizeof(bool) + sizeof(int32_t)) +
	       (uint64_t)e * sizeof(int32_t) + sizeof(bool);
}

/* Allocates the managed arrays and fills them on the host (CPU first touch),
 * starting from `source` (node 0 unless --source says otherwise, as the
 * original's readers do); the flag goes to device memory with
 * over_on_device, and is then no part of the managed footprint. */
static void bfs_setup(const struct wl *w, const struct wl_graph *g, int32_t source,
		      bool over_on_device, struct bfs_data *d)
{
	int32_t n = g->nodes;

	d->nodes = wl_managed(w, (size_t)n * sizeof(*d->nodes), "nodes");
	d->edges = wl_managed(w, (size_t)g->arcs * sizeof(*d->edges), "edges");
	d->mask = wl_managed(w, (size_t)n * sizeof(bool), "mask");
	d->updating = wl_managed(w, (size_t)n * sizeof(bool), "updating mask");
	d->visited = wl_managed(w, (size_t)n * sizeof(bool), "visited");
	d->cost = wl_managed(w, (size_t)n * sizeof(int32_t), "cost");
	d->over_on_device = over_on_device;
	if (over_on_device)
		WL_CHECK(w, cudaMalloc((void **)&d->over, sizeof(bool)));
	else
		d->over = wl_managed(w, sizeof(bool), "over flag");
	d->bytes = bfs_bytes(n, g->arcs) - (over_on_device ? sizeof(bool) : 0);

	for (int32_t u = 0; u < n; u++) {
		d->nodes[u].start = g->offset[u];
		d->nodes[u].degree = g->offset[u + 1] - g->offset[u];
		d->mask[u] = false;
		d->updating[u] = false;
		d->visited[u] = false;
		d->cost[u] = -1;
	}
	memcpy(d->edges, g->dest, (size_t)g->arcs * sizeof(*d->edges));
	d->mask[source] = true;
	d->visited[source] = true;
	d->cost[source] = 0;
	/* --mem advise: the graph is only read; the flag, which host and GPU
	 * take turns on every level, stays on the host and the GPU writes it
	 * there (unless it is device memory). */
	wl_advise(w, d->nodes, (size_t)n * sizeof(*d->nodes), WL_READ_MOSTLY);
	wl_advise(w, d->edges, (size_t)g->arcs * sizeof(*d->edges), WL_READ_MOSTLY);
	if (!over_on_device) {
		wl_advise(w, d->over, sizeof(bool), WL_PREFER_HOST);
		wl_advise(w, d->over, sizeof(bool), WL_ACCESSED_BY_GPU);
	}
}

/* Every array the kernels use, with its size, for the copies around them. */
static void bfs_to_gpu(const struct wl *w, const struct bfs_data *d, const struct wl_graph *g)
{
	size_t n = (size_t)g->nodes;

	wl_to_gpu(w, d->nodes, n * sizeof(*d->nodes));
	wl_to_gpu(w, d->edges, (size_t)g->arcs * sizeof(*d->edges));
	wl_to_gpu(w, d->mask, n * sizeof(bool));
	wl_to_gpu(w, d->updating, n * sizeof(bool));
	wl_to_gpu(w, d->visited, n * sizeof(bool));
	wl_to_gpu(w, d->cost, n * sizeof(int32_t));
}

/* The GPU part: two launches per level until a level adds no node. Returns
 * the number of levels run (the last one finds the frontier empty). */
static int32_t bfs_run(const struct wl *w, const struct bfs_data *d, int32_t n)
{
	dim3 grid =
	    emu_dim3((unsigned)((n + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK), 1, 1);
	/* A graph smaller than one CTA gets one CTA of n threads, as in Rodinia. */
	dim3 block =
	    emu_dim3(n < MAX_THREADS_PER_BLOCK ? (unsigned)n : MAX_THREADS_PER_BLOCK, 1, 1);
	int32_t levels = 0;
	bool over;

	do {
		over = false;
		if (d->over_on_device) {
			WL_CHECK(w,
				 cudaMemcpy(d->over, &over, sizeof(over), cudaMemcpyHostToDevice));
		} else {
			*d->over = false;
			wl_to_gpu(w, d->over, sizeof(bool));
		}
		WL_CHECK(w, EMU_LAUNCH(bfs_kernel1, grid, block, 0, .nodes = wl_dev(w, d->nodes),
				       .edges = wl_dev(w, d->edges), .mask = wl_dev(w, d->mask),
				       .updating = wl_dev(w, d->updating),
				       .visited = wl_dev(w, d->visited), .cost = wl_dev(w, d->cost),
				       .no_of_nodes = n));
		WL_CHECK(w, EMU_LAUNCH(bfs_kernel2, grid, block, 0, .mask = wl_dev(w, d->mask),
				       .updating = wl_dev(w, d->updating),
				       .visited = wl_dev(w, d->visited),
				       .over = d->over_on_device ? d->over : wl_dev(w, d->over),
				       .no_of_nodes = n));
		if (d->over_on_device) {
			WL_CHECK(w, cudaDeviceSynchronize());
			WL_CHECK(w,
				 cudaMemcpy(&over, d->over, sizeof(over), cudaMemcpyDeviceToHost));
		} else {
			wl_to_host(w, d->over, sizeof(bool));
			over = *d->over;
		}
		levels++;
	} while (over);
	wl_to_host(w, d->cost, (size_t)n * sizeof(int32_t));
	return levels;
}

static void bfs_free(const struct wl *w, struct bfs_data *d)
{
	void *all[] = {d->nodes, d->edges, d->mask, d->updating, d->visited, d->cost};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		wl_free(w, all[i]);
	if (d->over_on_device)
		WL_CHECK(w, cudaFree(d->over));
	else
		wl_free(w, d->over);
}

int main(int argc, char **argv)
{
	struct wl w;
	long long nodes = 0, source_id = -1;
	const char *input = NULL, *over = "managed";
	const struct wl_opt opts[] = {
	    {"nodes", WL_INT, &nodes, 1, WL_GRAPH_GEN_MAX_NODES,
	     "generate a random graph of N nodes (default 1000000)"},
	    {"input", WL_STR, &input, 0, 0,
	     "read a graph: Rodinia text, DIMACS-9 .gr, PACE-2016 .gr or a SNAP edge list "
	     "(plain, .xz or .gz)"},
	    {"source", WL_INT, &source_id, 0, 0,
	     "start from vertex V as the file names it (default: node 0, or a SNAP "
	     "file's first vertex)"},
	    {"over", WL_STR, &over, 0, 0,
	     "where the host's end-of-search flag lives: managed (default) or device "
	     "(cudaMalloc, cudaMemcpy to clear and read it)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	struct wl_graph g;
	struct bfs_data d;
	int32_t *want, levels, source;
	struct wl_graph_reach reach;
	double t;
	bool pass;

	wl_init(&w, "bfs", "Rodinia bfs: level-synchronous breadth-first search from one node.",
		argc, argv, opts);
	if (strcmp(over, "managed") != 0 && strcmp(over, "device") != 0)
		wl_usage_error(&w, "--over '%s': expected managed or device", over);
	/* The generator averages WL_GRAPH_GEN_ARCS_PER_NODE arcs a node. */
	wl_graph_load(&w, &g, nodes, input, BFS_DEFAULT_NODES, WL_GRAPH_GEN_MAX_NODES,
		      bfs_bytes(1, WL_GRAPH_GEN_ARCS_PER_NODE) - sizeof(bool), false);
	source = wl_graph_source(&w, &g, source_id);
	bfs_setup(&w, &g, source, strcmp(over, "device") == 0, &d);
	wl_footprint(&w, d.bytes);
	wl_log(&w, "%s graph: %" PRId32 " nodes, %" PRId32 " arcs, source %" PRId64,
	       wl_graph_origin_name(g.origin), g.nodes, g.arcs, wl_graph_file_id(&g, source));
	if (d.over_on_device)
		wl_log(&w, "the over flag is in device memory, cleared and read with cudaMemcpy");

	uvmemu_roi_begin();
	t = wl_now();
	bfs_to_gpu(&w, &d, &g);
	levels = bfs_run(&w, &d, g.nodes);
	t = wl_now() - t;
	uvmemu_roi_end();

	want = malloc((size_t)g.nodes * sizeof(int32_t));
	if (!want) {
		fprintf(stderr, "bfs: out of memory for the reference\n");
		return 1;
	}
	bfs_reference(&g, source, want);
	pass = wl_check_i32(&w, "cost", d.cost, want, (size_t)g.nodes);
	/* What is printed comes from the GPU's levels, not the reference's. */
	reach = wl_graph_result(&w, &g, source, "level", d.cost, -1);
	wl_log(&w,
	       "%" PRId32 " levels (deepest node at %" PRId32 "), %" PRId32
	       " nodes reached, kernels %.3f s",
	       levels, reach.farthest, reach.reached, t);
	uvmemu_report_value("levels", levels);
	free(want);
	bfs_free(&w, &d);
	wl_graph_free(&g);
	return wl_finish(&w, pass);
}
