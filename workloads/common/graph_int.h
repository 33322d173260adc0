/* SPDX-License-Identifier: MIT */
/*
 * graph_int.h - what the graph library's files share: building CSR arrays
 * (graph_csr.c), decompressing input (graph_unpack.c), reading it line by line
 * with errors that unwind to wl_graph_parse (graph_reader.c), for the format
 * readers (graph_formats.c, graph_snap.c).
 *
 * None of these depend on the runtime or on struct wl, so a fuzz target can
 * link them alone.
 */
#ifndef WL_GRAPH_INT_H
#define WL_GRAPH_INT_H

#include <setjmp.h>
#include <stdio.h>

#include "graph.h"

/* ------------------------------------------------------------ CSR building */

/* Each returns 0 or -ENOMEM (g then owns what was allocated). */
int wlg_alloc_csr(struct wl_graph *g, int32_t nodes, int64_t arcs, bool weights);
void wlg_prefix_sum(struct wl_graph *g);
/* CSR from a list of arcs src[i] -> dst[i] (weights wt[i], or NULL). */
int wlg_from_arcs(struct wl_graph *g, int32_t nodes, int64_t arcs, const int32_t *src,
		  const int32_t *dst, const int32_t *wt);

/* ----------------------------------------------------------- decompression */

struct unpack;

/*
 * The text of `raw`: a stream that decompresses it when it starts with xz or
 * gzip magic (*z then its decoder), or raw itself (*z NULL). raw must be
 * seekable: its first bytes are looked at, then it is rewound. Closing the
 * decompressing stream leaves raw open. Returns 0, -ESPIPE (not seekable) or
 * -ENOMEM.
 */
int unpack_open(FILE *raw, FILE **text, struct unpack **z);
/* The decoder's error ("truncated xz data", "corrupt gz data" ...) or NULL. */
const char *unpack_error(const struct unpack *z);

/* ----------------------------------------------------------------- reading */

#define READER_ARRAYS 4

struct reader {
	const char *path;
	FILE *f;	  /* the text: the input, or the decompressing stream over it */
	struct unpack *z; /* NULL for plain text */
	const struct wl_graph_parse_opts *opts;
	int32_t max_nodes;
	char *line;
	size_t cap;
	unsigned long lineno;
	bool pushed_back; /* the next reader_next returns `line` again */
	char *pos;	  /* token cursor in `line` (Rodinia reader) */
	/* The format reader's temporary arrays, grown on demand (memory follows
	 * the file's content, not the counts it declares) and freed with it. */
	void *array[READER_ARRAYS];
	size_t array_bytes[READER_ARRAYS];
	/* Where an error goes: reader_fail formats it and jumps back to
	 * wl_graph_parse, which frees everything. */
	jmp_buf fail;
	int status; /* -EINVAL or -ENOMEM once failed */
	char *err;
	size_t errlen;
};

/* Every input error ends here: "NAME:LINE: message" and a jump back to
 * wl_graph_parse. For compressed input, a decoder error found in what is left
 * of the stream is reported instead: the text was cut or corrupt. */
__attribute__((noreturn, format(printf, 2, 3))) void reader_fail(struct reader *r, const char *fmt,
								 ...);
/* The same for memory that ran out (-ENOMEM). */
__attribute__((noreturn)) void reader_nomem(struct reader *r, const char *what);
/*
 * Temporary array `slot`, grown to hold at least `need` elements of `elem`
 * bytes (doubling, so appending one at a time is cheap). Its address may
 * change.
 */
void *reader_array(struct reader *r, int slot, size_t need, size_t elem, const char *what);
/* Arc i (src[i] -> dst[i], weight wt[i]) of the list in arrays 0..2. */
void reader_add_arc(struct reader *r, int64_t i, int32_t u, int32_t v, int32_t w);
/* The CSR of the first `arcs` arcs of that list (weights if asked for). */
void reader_arcs_to_csr(struct reader *r, struct wl_graph *g, int32_t nodes, int64_t arcs);
/* The next line without its line ending (NULL at the end), or the pushed-back
 * one. */
char *reader_next(struct reader *r);
/* Skips blank lines and those starting with `comment`; the next other line or
 * NULL. */
char *reader_next_content(struct reader *r, char comment);
/* A DIMACS/PACE problem line "p ...". */
bool is_problem_line(const char *line);
char *next_word(char **p);
bool parse_num(const char *word, int64_t min, int64_t max, int64_t *out);
int64_t line_num(struct reader *r, char **p, int64_t min, int64_t max, const char *what);
void line_end(struct reader *r, char **p);

/* The format readers: each fills g or calls reader_fail. */
void wlg_read_rodinia(struct reader *r, struct wl_graph *g);
void wlg_read_dimacs(struct reader *r, struct wl_graph *g);
void wlg_read_pace(struct reader *r, struct wl_graph *g);
void wlg_read_snap(struct reader *r, struct wl_graph *g);

#endif
