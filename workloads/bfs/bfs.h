/* SPDX-License-Identifier: MIT */
/*
 * bfs.h - Rodinia bfs on emu-gpu: the managed data layout and the two kernels
 * run once per BFS level.
 */
#ifndef BFS_H
#define BFS_H

#include <stdbool.h>
#include <stdint.h>

#include "emugpu.h"
#include "graph.h"

/* Threads per CTA, as in the original; a CTA covers that many nodes. */
#define MAX_THREADS_PER_BLOCK 512

/* One node of the graph: its arcs are edges[start .. start + degree - 1]. */
struct bfs_node {
	int32_t start;
	int32_t degree;
};

/* Kernel 1 expands the frontier (mask) into updating and sets their cost. */
struct bfs_kernel1_args {
	const struct bfs_node *nodes;
	const int32_t *edges;
	bool *mask;
	bool *updating;
	const bool *visited;
	int32_t *cost;
	int32_t no_of_nodes;
};
EMU_KERNEL_DECLARE(bfs_kernel1, struct bfs_kernel1_args);

/* Kernel 2 makes updating the next frontier and raises the host's flag. */
struct bfs_kernel2_args {
	bool *mask;
	bool *updating;
	bool *visited;
	bool *over;
	int32_t no_of_nodes;
};
EMU_KERNEL_DECLARE(bfs_kernel2, struct bfs_kernel2_args);

/* Hop counts from `source` by a sequential queue BFS; -1 where unreachable. */
void bfs_reference(const struct wl_graph *g, int32_t source, int32_t *cost);

#endif
