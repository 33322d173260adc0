/* SPDX-License-Identifier: MIT */
/*
 * sssp.h - Harish-Narayanan style single-source shortest paths on emu-gpu
 * (the Lonestar-style GPU baseline): the managed data layout and the two
 * kernels run once per round.
 */
#ifndef SSSP_H
#define SSSP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "emugpu.h"
#include "graph.h"

/* Threads per CTA, as in the original; a CTA covers that many nodes. */
#define MAX_THREADS_PER_BLOCK 512

/* The distance of a node not reached (yet). */
#define SSSP_INF INT32_MAX

/*
 * Kernel 1 relaxes the arcs of every frontier (mask) node into updating_cost
 * with atomicMin. Node tid's arcs are edges[nodes[tid] .. end - 1], end being
 * nodes[tid + 1], or edge_list_size for the last node.
 */
struct sssp_kernel1_args {
	const int32_t *nodes;
	const int32_t *edges;
	const int32_t *weights;
	bool *mask;
	const int32_t *cost;
	int32_t *updating_cost;
	int32_t no_of_nodes;
	int32_t edge_list_size;
};
EMU_KERNEL_DECLARE(sssp_kernel1, struct sssp_kernel1_args);

/* Kernel 2 commits improved distances, re-marks those nodes as the frontier
 * and raises the host's flag. */
struct sssp_kernel2_args {
	bool *mask;
	int32_t *cost;
	int32_t *updating_cost;
	bool *changed;
	int32_t no_of_nodes;
};
EMU_KERNEL_DECLARE(sssp_kernel2, struct sssp_kernel2_args);

/* Distances from `source` by a sequential Dijkstra; SSSP_INF where
 * unreachable. The caller ensures no path length exceeds INT32_MAX - 1. */
void sssp_reference(const struct wl_graph *g, int32_t source, int32_t *dist);

#endif
