// SPDX-License-Identifier: MIT
/* graph.c - us-sssp's random graph and its CPU reference. */
#include <stdlib.h>
#include <string.h>

#include "sssp.h"

/*
 * As the original's generateRandomGraph: vertex k's degree targets are
 * uniform over the other vertices and distinct (a draw equal to k or to an
 * earlier target of k is drawn again), each followed by its weight, a
 * multiple of 1/1000 in [0, 0.999] computed in float as the original does.
 */
void us_sssp_generate(struct us_sssp_graph *g, uint64_t seed)
{
	const int32_t d = g->degree;
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (int64_t v = 0; v < g->nodes; v++)
		g->vertex[v] = (int32_t)(v * d);
	for (int64_t k = 0; k < g->nodes; k++) {
		int32_t *t = g->edges + k * d;

		for (int32_t l = 0; l < d; l++) {
			bool fresh;

			do {
				t[l] = (int32_t)wl_rng_below(&rng, (uint64_t)g->nodes);
				fresh = t[l] != k;
				for (int32_t m = 0; m < l && fresh; m++)
					fresh = t[m] != t[l];
			} while (!fresh);
			g->weights[k * d + l] = (float)wl_rng_below(&rng, 1000) / 1000.0f;
		}
	}
}

int us_sssp_reference(const struct wl *w, const struct us_sssp_graph *g, int64_t source,
		      int max_iterations, float *dist)
{
	const int64_t n = g->nodes;
	float *upd = malloc((size_t)n * sizeof(float));
	bool *mask = calloc((size_t)n, sizeof(bool));
	bool frontier = true;
	int it = 0;

	if (!upd || !mask) {
		fprintf(stderr, "%s: out of memory for the CPU reference\n", w->name);
		exit(1);
	}
	for (int64_t v = 0; v < n; v++)
		dist[v] = upd[v] = v == source ? 0.0f : US_SSSP_INF;
	mask[source] = true;
	while (frontier && it < max_iterations) {
		for (int a = 0; a < US_SSSP_ASYNC; a++, it++) {
			for (int64_t v = 0; v < n; v++) {
				if (!mask[v])
					continue;
				mask[v] = false;
				for (int64_t e = g->vertex[v]; e < g->vertex[v] + g->degree; e++) {
					float c = dist[v] + g->weights[e];

					if (c < upd[g->edges[e]])
						upd[g->edges[e]] = c;
				}
			}
			for (int64_t v = 0; v < n; v++) {
				if (dist[v] > upd[v]) {
					dist[v] = upd[v];
					mask[v] = true;
				}
				upd[v] = dist[v];
			}
		}
		frontier = memchr(mask, true, (size_t)n) != NULL;
	}
	free(upd);
	free(mask);
	return it;
}
