// SPDX-License-Identifier: MIT
/*
 * graph.c - fuzz target for the graph readers (workloads/common/graph*.c):
 * the input is a whole graph file. FUZZ_FORMAT picks the reader
 * (WL_GRAPH_GENERATED: recognise the format from the content, compressed
 * input included). A parsed graph must be a consistent CSR; a rejected one
 * must come with a one-line message naming the file.
 */
#include <errno.h>

#include "fuzz.h"
#include "graph.h"

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT WL_GRAPH_GENERATED
#endif

static void check_graph(const struct wl_graph *g, bool weights)
{
	FUZZ_ASSERT(g->nodes >= 1 && g->nodes <= (1 << 16));
	FUZZ_ASSERT(g->arcs >= 0);
	FUZZ_ASSERT(g->offset[0] == 0 && g->offset[g->nodes] == g->arcs);
	for (int32_t u = 0; u < g->nodes; u++)
		FUZZ_ASSERT(g->offset[u] <= g->offset[u + 1]);
	for (int32_t a = 0; a < g->arcs; a++) {
		FUZZ_ASSERT(g->dest[a] >= 0 && g->dest[a] < g->nodes);
		FUZZ_ASSERT(!weights || (g->weight[a] >= 0 && g->weight[a] <= g->max_weight));
	}
	FUZZ_ASSERT(weights == (g->weight != NULL));
	FUZZ_ASSERT(g->source >= 0 && g->source < g->nodes);
	FUZZ_ASSERT(g->file_source >= 0 && g->file_source < g->nodes);
	FUZZ_ASSERT((g->origin == WL_GRAPH_SNAP) == (g->ids != NULL));
	for (int32_t u = 0; g->ids && u < g->nodes; u++)
		FUZZ_ASSERT(g->ids[u] >= 0 && (u == 0 || g->ids[u - 1] < g->ids[u]));
	if (FUZZ_FORMAT != WL_GRAPH_GENERATED)
		FUZZ_ASSERT(g->origin == FUZZ_FORMAT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Small node limits keep each run's memory to what the input holds. */
	struct wl_graph_parse_opts opts = {
	    .weights = size % 2 == 0, .max_nodes = 1 << 16, .only = FUZZ_FORMAT};
	FILE *f = fuzz_stream(data, size);
	struct wl_graph g;
	char err[512];
	int ret = wl_graph_parse(f, "in", &opts, &g, err, sizeof(err));

	if (ret == 0) {
		check_graph(&g, opts.weights);
	} else {
		FUZZ_ASSERT(ret == -EINVAL || ret == -ENOMEM);
		fuzz_one_line(err);
		FUZZ_ASSERT(strncmp(err, "in:", 3) == 0);
		FUZZ_ASSERT(g.offset == NULL && g.ids == NULL);
	}
	wl_graph_free(&g);
	fclose(f);
	return 0;
}
