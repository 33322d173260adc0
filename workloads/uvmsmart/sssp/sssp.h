/* SPDX-License-Identifier: MIT */
/*
 * sssp.h - UVMSmart's sssp (benchmarks/Managed/sssp/sssp.cu): frontier
 * Bellman-Ford in float on a random graph of fixed out-degree, 16-thread
 * CTAs, a frontier mask in device memory that the host copies back every 5
 * iterations, at most 15 iterations. Not workloads/sssp (Harish-Narayanan
 * on a graphgen graph, run to convergence).
 */
#ifndef US_SSSP_H
#define US_SSSP_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>

#include "emugpu.h"
#include "wl.h"

#define US_SSSP_BLOCK 16 /* BLOCK_SIZE: threads per CTA */
#define US_SSSP_ASYNC 5	 /* NUM_ASYNCHRONOUS_ITERATIONS between mask reads */
#define US_SSSP_INF   FLT_MAX

/* The graph, managed: vertex v's edges are edges[vertex[v] ..], degree of
 * them, with weights. */
struct us_sssp_graph {
	int64_t nodes, edges_count;
	int32_t degree;
	int32_t *vertex;
	int32_t *edges;
	float *weights;
};

/*
 * Sizes are int64_t, one to an 8-byte word: the executor translates every
 * word that holds a managed host-view pointer, and two ints packed in one
 * word could, for some sizes, form such a value.
 */
struct us_sssp_init_args {
	bool *finalized;
	float *dist;
	float *updating;
	int64_t source, nodes;
};
EMU_KERNEL_DECLARE(us_sssp_init, struct us_sssp_init_args);

/* Kernel1: every frontier vertex leaves the frontier and relaxes its edges
 * into updating with atomicMin. */
struct us_sssp_relax_args {
	const int32_t *vertex;
	const int32_t *edges;
	const float *weights;
	bool *finalized;
	const float *dist;
	float *updating;
	int64_t nodes, edges_count;
};
EMU_KERNEL_DECLARE(us_sssp_relax, struct us_sssp_relax_args);

/* Kernel2: every vertex whose updating distance is lower takes it and joins
 * the frontier; updating is reset to the distance. */
struct us_sssp_commit_args {
	bool *finalized;
	float *dist;
	float *updating;
	int64_t nodes;
};
EMU_KERNEL_DECLARE(us_sssp_commit, struct us_sssp_commit_args);

/* graph.c: the original's generateRandomGraph from the seed, written by the
 * host into the managed arrays g->vertex, g->edges, g->weights. */
void us_sssp_generate(struct us_sssp_graph *g, uint64_t seed);

/* graph.c: the same iterations on the CPU, one vertex after another:
 * distances after the rounds the GPU run makes (rounds of US_SSSP_ASYNC
 * iterations while the frontier is not empty and fewer than max_iterations
 * ran). Returns the iterations run. */
int us_sssp_reference(const struct wl *w, const struct us_sssp_graph *g, int64_t source,
		      int max_iterations, float *dist);

#endif
