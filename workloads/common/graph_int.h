/* SPDX-License-Identifier: MIT */
/*
 * graph_int.h - what the graph library's files share: building CSR arrays
 * (graph.c) and reading input files line by line, plain or xz-compressed
 * (graph_reader.c), for the format readers (graph_formats.c).
 */
#ifndef WL_GRAPH_INT_H
#define WL_GRAPH_INT_H

#include <stdio.h>

#include "graph.h"

/* malloc that ends the run with a message naming `what` when it fails. */
void *wlg_alloc(const struct wl *w, size_t count, size_t size, const char *what);
void wlg_alloc_csr(const struct wl *w, struct wl_graph *g, int32_t nodes, int64_t arcs,
		   bool weights);
void wlg_prefix_sum(struct wl_graph *g);
/* CSR from a list of arcs src[i] -> dst[i] (weights wt[i], or NULL). */
void wlg_from_arcs(const struct wl *w, struct wl_graph *g, int32_t nodes, int64_t arcs,
		   const int32_t *src, const int32_t *dst, const int32_t *wt);

struct xz_cookie;

struct reader {
	const struct wl *w;
	const char *path;
	FILE *f;
	struct xz_cookie *xz; /* NULL for a plain file */
	char *line;
	size_t cap;
	unsigned long lineno;
	bool pushed_back; /* the next reader_next returns `line` again */
	char *pos;	  /* token cursor in `line` (Rodinia reader) */
	/* The format reader's temporary arrays, freed by reader_close, or before
	 * an error exit so that nothing is left unaccounted for. */
	int32_t *scratch[4];
};

/* Every input error ends here: one line naming the file and line, exit 2. */
__attribute__((noreturn, format(printf, 2, 3))) void reader_fail(struct reader *r, const char *fmt,
								 ...);
void reader_open(const struct wl *w, struct reader *r, const char *path);
void reader_close(struct reader *r);
/* A temporary array kept by the reader (slot 0..3), freed with it. */
int32_t *reader_scratch(struct reader *r, int slot, int64_t count, const char *what);
/* The next line (NULL at the end), or the pushed-back one. */
char *reader_next(struct reader *r);
char *next_word(char **p);
bool parse_num(const char *word, int64_t min, int64_t max, int64_t *out);
int64_t line_num(struct reader *r, char **p, int64_t min, int64_t max, const char *what);
void line_end(struct reader *r, char **p);

#endif
