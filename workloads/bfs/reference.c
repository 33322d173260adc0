// SPDX-License-Identifier: MIT
/* reference.c - the sequential BFS the GPU result is checked against. */
#include <stdlib.h>

#include "bfs.h"

void bfs_reference(const struct wl_graph *g, int32_t source, int32_t *cost)
{
	/* Each node enters the queue once, so N slots suffice. */
	int32_t *queue = malloc((size_t)g->nodes * sizeof(int32_t));
	size_t head = 0, tail = 0;

	if (!queue) {
		fprintf(stderr, "bfs: out of memory for the reference queue\n");
		exit(1);
	}
	for (int32_t u = 0; u < g->nodes; u++)
		cost[u] = -1;
	cost[source] = 0;
	queue[tail++] = source;
	while (head < tail) {
		int32_t u = queue[head++];

		for (int32_t a = g->offset[u]; a < g->offset[u + 1]; a++) {
			int32_t v = g->dest[a];

			if (cost[v] < 0) {
				cost[v] = cost[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	free(queue);
}
