// SPDX-License-Identifier: MIT
/*
 * main.c - us-sssp: UVMSmart's sssp (benchmarks/Managed/sssp/sssp.cu). A
 * random graph of 2^20 vertices with 2 out-edges each in managed memory; the
 * distances and the updating distances managed, the frontier mask in device
 * memory. An initialising kernel, then rounds of 5 iterations (relax,
 * commit) after each of which the host copies the mask back with cudaMemcpy,
 * while some vertex is in the frontier and fewer than 15 iterations ran. The
 * distances are checked bit for bit against the same iterations on the CPU.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sssp.h"

#define US_SSSP_NODES	 (1 << 20) /* numVertices */
#define US_SSSP_DEGREE	 2	   /* neighborsPerVertex */
#define US_SSSP_MAX_ITER 15	   /* MAX_ITERATION */
#define US_SSSP_SOURCE	 0
/* Edges (at most 64 a vertex) are indexed with int, as in the original. */
#define US_SSSP_MAX_NODES (INT32_MAX / 64)

/* Managed bytes: vertex, dist, updating per vertex; edge and weight per edge. */
static uint64_t managed_bytes(int64_t nodes, int64_t degree)
{
	return (uint64_t)nodes * (3 * sizeof(float) + 2 * sizeof(float) * (uint64_t)degree);
}

/* The launches: the initialising kernel, then rounds. Returns the
 * iterations run; *left is the frontier the last mask read found. */
static int run_gpu(const struct wl *w, const struct us_sssp_graph *g, float *dist, float *updating,
		   bool *finalized, int max_iterations, int64_t *left)
{
	const dim3 grid =
	    emu_dim3((unsigned)((g->nodes + US_SSSP_BLOCK - 1) / US_SSSP_BLOCK), 1, 1);
	const dim3 block = emu_dim3(US_SSSP_BLOCK, 1, 1);
	bool *mask = malloc((size_t)g->nodes);
	int it = 0;

	if (!mask) {
		fprintf(stderr, "%s: out of memory for the host's mask\n", w->name);
		exit(1);
	}
	WL_CHECK(w, EMU_LAUNCH(us_sssp_init, grid, block, 0, .finalized = finalized, .dist = dist,
			       .updating = updating, .source = US_SSSP_SOURCE, .nodes = g->nodes));
	/* cudaMemcpy here does not wait for the stream, as CUDA's does. */
	WL_CHECK(w, cudaDeviceSynchronize());
	WL_CHECK(w, cudaMemcpy(mask, finalized, (size_t)g->nodes, cudaMemcpyDeviceToHost));
	while (memchr(mask, true, (size_t)g->nodes) && it < max_iterations) {
		for (int a = 0; a < US_SSSP_ASYNC; a++, it++) {
			WL_CHECK(w, EMU_LAUNCH(us_sssp_relax, grid, block, 0, .vertex = g->vertex,
					       .edges = g->edges, .weights = g->weights,
					       .finalized = finalized, .dist = dist,
					       .updating = updating, .nodes = g->nodes,
					       .edges_count = g->edges_count));
			WL_CHECK(w,
				 EMU_LAUNCH(us_sssp_commit, grid, block, 0, .finalized = finalized,
					    .dist = dist, .updating = updating, .nodes = g->nodes));
		}
		WL_CHECK(w, cudaDeviceSynchronize());
		WL_CHECK(w, cudaMemcpy(mask, finalized, (size_t)g->nodes, cudaMemcpyDeviceToHost));
	}
	*left = 0;
	for (int64_t v = 0; v < g->nodes; v++)
		*left += mask[v];
	free(mask);
	return it;
}

int main(int argc, char **argv)
{
	long long nodes = 0, degree = US_SSSP_DEGREE, max_iterations = US_SSSP_MAX_ITER;
	const struct wl_opt opts[] = {
	    {"nodes", WL_INT, &nodes, 2, US_SSSP_MAX_NODES, "vertices (default 1048576)"},
	    {"degree", WL_INT, &degree, 1, 64, "out-edges per vertex (default 2)"},
	    {"max-iterations", WL_INT, &max_iterations, 1, 1 << 20,
	     "stop after the round that reaches this many iterations (default 15)"},
	    {0},
	};
	struct us_sssp_graph g = {0};
	float *dist, *updating, *want;
	bool *finalized;
	int64_t reached = 0, left;
	int iterations, want_iterations;
	struct wl w;
	bool pass;

	wl_init(&w, "us-sssp",
		"UVMSmart's sssp: frontier Bellman-Ford on a random graph, at most 15 iterations",
		argc, argv, opts);
	nodes = wl_elements(&w, "--nodes", nodes, managed_bytes(1, degree), 2, US_SSSP_NODES,
			    US_SSSP_MAX_NODES);
	if (degree >= nodes)
		wl_usage_error(&w, "--degree %lld: needs more than that many --nodes (%lld)",
			       degree, nodes);
	g.nodes = nodes;
	g.degree = (int32_t)degree;
	g.edges_count = nodes * degree;

	/* In the original's order: the graph, the distances, then the mask
	 * (device memory) and the updating distances. */
	g.vertex = wl_managed(&w, (size_t)nodes * sizeof(int32_t), "vertexArray");
	g.edges = wl_managed(&w, (size_t)g.edges_count * sizeof(int32_t), "edgeArray");
	g.weights = wl_managed(&w, (size_t)g.edges_count * sizeof(float), "weightArray");
	dist = wl_managed(&w, (size_t)nodes * sizeof(float), "shortestDistances");
	WL_CHECK(&w, cudaMalloc((void **)&finalized, (size_t)nodes));
	updating = wl_managed(&w, (size_t)nodes * sizeof(float), "updatingShortestDistances");
	wl_footprint(&w, managed_bytes(nodes, degree));
	uvmemu_report_value("nodes", (double)nodes);
	wl_log(&w, "%lld vertices, %lld edges, CTAs of %d threads; mask in device memory", nodes,
	       (long long)g.edges_count, US_SSSP_BLOCK);

	us_sssp_generate(&g, w.seed);
	/* Before the run, while the graph is where the host wrote it, so that
	 * the check adds no traffic to the run. */
	want = malloc((size_t)nodes * sizeof(float));
	if (!want) {
		fprintf(stderr, "us-sssp: out of memory for the CPU reference\n");
		return 1;
	}
	want_iterations = us_sssp_reference(&w, &g, US_SSSP_SOURCE, (int)max_iterations, want);

	uvmemu_roi_begin();
	iterations = run_gpu(&w, &g, dist, updating, finalized, (int)max_iterations, &left);
	uvmemu_roi_end();

	pass = wl_check_f32_exact(&w, "distance", dist, want, (size_t)nodes);
	if (iterations != want_iterations) {
		fprintf(stderr, "us-sssp: %d iterations, expected %d\n", iterations,
			want_iterations);
		pass = false;
	}
	for (int64_t v = 0; v < nodes; v++)
		reached += dist[v] < US_SSSP_INF;
	wl_log(&w,
	       "%d iterations (%d launches), %" PRId64 " vertices reached, %" PRId64
	       " still in the frontier",
	       iterations, 1 + 2 * iterations, reached, left);
	uvmemu_report_value("iterations", iterations);
	uvmemu_report_value("reached", (double)reached);
	wl_output_f32(&w, "distance", dist, (size_t)nodes);
	free(want);
	WL_CHECK(&w, cudaFree(g.vertex));
	WL_CHECK(&w, cudaFree(g.edges));
	WL_CHECK(&w, cudaFree(g.weights));
	WL_CHECK(&w, cudaFree(dist));
	WL_CHECK(&w, cudaFree(finalized));
	WL_CHECK(&w, cudaFree(updating));
	return wl_finish(&w, pass);
}
