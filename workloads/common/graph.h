/* SPDX-License-Identifier: MIT */
/*
 * graph.h - graphs for the graph workloads (bfs, sssp): a host-side CSR, the
 * Rodinia graphgen-style random generator and readers for the real inputs.
 *
 * The CSR lives in ordinary (not managed) memory: each workload copies it into
 * its own managed layout, and the CPU reference reads it here, so checking a
 * result never touches the pages the GPU part works on.
 */
#ifndef WL_GRAPH_H
#define WL_GRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wl.h"

/* Node and arc counts stay below 2^31: the kernels index with int, as the
 * originals do. */
#define WL_GRAPH_MAX_ARCS  INT32_MAX
#define WL_GRAPH_MAX_NODES (INT32_MAX - 1)

enum wl_graph_origin {
	WL_GRAPH_GENERATED, /* wl_graph_generate */
	WL_GRAPH_RODINIA,   /* Rodinia text: N, "offset degree" x N, source, E, "dest weight" x E */
	WL_GRAPH_DIMACS,    /* DIMACS-9 shortest path: p sp N M, a u v w (directed arcs) */
	WL_GRAPH_PACE,	    /* PACE-2016: p tw N M, u v (undirected, unweighted) */
	WL_GRAPH_SNAP,	    /* SNAP edge list: # comments, u v (sparse ids, unweighted) */
};

/*
 * Compressed sparse rows: the arcs leaving node u are dest[offset[u]] ..
 * dest[offset[u + 1] - 1], in the order the generator or the file gave them.
 * weight is NULL when the caller did not ask for weights.
 */
struct wl_graph {
	int32_t nodes;
	int32_t arcs;
	int32_t *offset;     /* nodes + 1 entries */
	int32_t *dest;	     /* arcs entries, each in [0, nodes) */
	int32_t *weight;     /* arcs entries, each >= 0, or NULL */
	int32_t max_weight;  /* no arc weighs more (0 without weights) */
	int32_t file_source; /* the source a Rodinia file names (0 otherwise) */
	int32_t source;	     /* the default source: a SNAP file's first vertex, else 0 */
	/* SNAP: the file's id of each node, ascending (ids are renumbered densely
	 * in their order); NULL for the other origins. */
	int64_t *ids;
	enum wl_graph_origin origin;
	bool hashed_weights; /* weights derived with wl_graph_hash_weight (PACE, SNAP) */
};

/*
 * The Rodinia graphgen-style random graph, deterministic for a seed: node i
 * draws k uniform in 2..4 and adds k edges to uniform random nodes j
 * (duplicates and self loops allowed) with a weight uniform in 1..10, each
 * stored as the two arcs i->j and j->i, so the average degree is about 6.
 * Exits with a message if `nodes` is out of range or memory runs out.
 */
void wl_graph_generate(const struct wl *w, struct wl_graph *g, int32_t nodes, uint64_t seed,
		       bool weights);

/* Largest node count wl_graph_generate accepts (its arcs must fit in int). */
#define WL_GRAPH_GEN_MAX_NODES (WL_GRAPH_MAX_ARCS / 8)
/* Expected arcs per node of the generated graph: 2 x mean(2, 3, 4). */
#define WL_GRAPH_GEN_ARCS_PER_NODE 6

/* What wl_graph_parse reads and accepts. */
struct wl_graph_parse_opts {
	bool weights;	   /* keep (or derive) arc weights */
	int32_t max_nodes; /* refuse graphs with more nodes; 0: WL_GRAPH_MAX_NODES */
	/* Read only this format (fuzz targets); WL_GRAPH_GENERATED: recognise
	 * it from the content. */
	enum wl_graph_origin only;
};

/*
 * Parses a graph from `f`, named `name` in messages, recognising the format
 * from the content: xz or gzip data is decompressed first; then a first line
 * "p sp" is DIMACS-9, "p tw" PACE-2016, '#' or two numbers a SNAP edge list,
 * and one number the Rodinia text format. Node ids of DIMACS and PACE files are
 * 1-based and become 0-based; SNAP ids are renumbered densely in ascending
 * order (g->ids keeps them). PACE edges, and the edges of a SNAP file whose
 * header says "Undirected graph", are stored in both directions; their weights
 * come from wl_graph_hash_weight. `f` must be seekable and stays open.
 *
 * Returns 0, or on malformed input -EINVAL with "NAME:LINE: what is wrong" in
 * err (one line), -ENOMEM when memory runs out; *g then holds nothing.
 */
int wl_graph_parse(FILE *f, const char *name, const struct wl_graph_parse_opts *opts,
		   struct wl_graph *g, char *err, size_t errlen);

/*
 * wl_graph_parse on the file at `path`. A malformed file ends the program with
 * one line "NAME: PATH:LINE: what is wrong" and exit status 2.
 */
void wl_graph_read(const struct wl *w, struct wl_graph *g, const char *path, bool weights);

/*
 * The graph a graph workload runs on, from its options: --input FILE, a
 * generated graph of --nodes N, or one sized so the workload's managed
 * footprint (bytes_per_node for a node of the generator's average degree) is
 * close to --footprint; default_nodes when none is given. At most one of the
 * three may be given; a footprint outside 1..max_nodes nodes is a usage error.
 */
void wl_graph_load(const struct wl *w, struct wl_graph *g, long long nodes, const char *input,
		   int32_t default_nodes, int32_t max_nodes, uint64_t bytes_per_node, bool weights);

/*
 * The node a graph workload starts from: --source V as the file names
 * vertices (1-based for DIMACS and PACE, the file's id for SNAP, 0-based for
 * Rodinia and generated graphs), or g->source when v < 0 (not given). A
 * vertex the graph does not have is a usage error (one line, exit 2).
 */
int32_t wl_graph_source(const struct wl *w, const struct wl_graph *g, long long v);

/* The id the input file gives node u (see wl_graph_source). */
int64_t wl_graph_file_id(const struct wl_graph *g, int32_t u);

/* The nodes a graph workload's result reached, and the largest value. */
struct wl_graph_reach {
	int32_t reached; /* the source included */
	int32_t farthest;
};

/*
 * What a graph workload does with its GPU result, value[u] per node
 * (`unreached` for nodes the source does not reach): counts what it reached,
 * warns on stderr when that is the source alone (a run would otherwise pass
 * silently), writes it with --output as section `what`, followed for SNAP
 * inputs by section "ids" (each node's id in the file), and reports nodes,
 * arcs and reached.
 */
struct wl_graph_reach wl_graph_result(struct wl *w, const struct wl_graph *g, int32_t source,
				      const char *what, const int32_t *value, int32_t unreached);

/* The weight 1..100 given to the unweighted edge {u, v} (ids as in the file):
 * a hash of the two endpoints, the same in both directions. */
int32_t wl_graph_hash_weight(int64_t u, int64_t v);

/* A one-word name of the origin, for logs. */
const char *wl_graph_origin_name(enum wl_graph_origin origin);

void wl_graph_free(struct wl_graph *g);

#endif
