// SPDX-License-Identifier: MIT
/* graph.c - host-side graphs for bfs and sssp: generator and readers (see graph.h). */
#include "graph.h"

#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ CSR building */

static void *graph_alloc(const struct wl *w, size_t count, size_t size, const char *what)
{
	void *p = calloc(count ? count : 1, size);

	if (!p) {
		fprintf(stderr, "%s: out of memory for %zu %s\n", w->name, count, what);
		exit(1);
	}
	return p;
}

static void graph_alloc_csr(const struct wl *w, struct wl_graph *g, int32_t nodes, int64_t arcs,
			    bool weights)
{
	g->nodes = nodes;
	g->arcs = (int32_t)arcs;
	g->offset = graph_alloc(w, (size_t)nodes + 1, sizeof(int32_t), "node offsets");
	g->dest = graph_alloc(w, (size_t)arcs, sizeof(int32_t), "arc destinations");
	g->weight = weights ? graph_alloc(w, (size_t)arcs, sizeof(int32_t), "arc weights") : NULL;
}

/* Turns per-node counts in offset[1..nodes] into start offsets. */
static void graph_prefix_sum(struct wl_graph *g)
{
	g->offset[0] = 0;
	for (int32_t u = 0; u < g->nodes; u++)
		g->offset[u + 1] += g->offset[u];
}

/*
 * Builds the CSR from an arc list, keeping the list's order among the arcs of
 * each node (a stable counting sort), so a file's neighbour order survives.
 */
static void graph_from_arcs(const struct wl *w, struct wl_graph *g, int32_t nodes, int64_t arcs,
			    const int32_t *src, const int32_t *dst, const int32_t *wt)
{
	int32_t *cursor;

	graph_alloc_csr(w, g, nodes, arcs, wt != NULL);
	for (int64_t a = 0; a < arcs; a++)
		g->offset[src[a] + 1]++;
	graph_prefix_sum(g);
	cursor = graph_alloc(w, (size_t)nodes, sizeof(int32_t), "cursors");
	memcpy(cursor, g->offset, (size_t)nodes * sizeof(int32_t));
	for (int64_t a = 0; a < arcs; a++) {
		int32_t at = cursor[src[a]]++;

		g->dest[at] = dst[a];
		if (wt)
			g->weight[at] = wt[a];
	}
	free(cursor);
	g->max_weight = 0;
	for (int64_t a = 0; wt && a < arcs; a++)
		if (wt[a] > g->max_weight)
			g->max_weight = wt[a];
}

void wl_graph_free(struct wl_graph *g)
{
	free(g->offset);
	free(g->dest);
	free(g->weight);
	memset(g, 0, sizeof(*g));
}

const char *wl_graph_origin_name(enum wl_graph_origin origin)
{
	switch (origin) {
	case WL_GRAPH_GENERATED:
		return "generated";
	case WL_GRAPH_RODINIA:
		return "rodinia";
	case WL_GRAPH_DIMACS:
		return "dimacs";
	case WL_GRAPH_PACE:
		return "pace";
	}
	return "?";
}

int32_t wl_graph_hash_weight(int64_t u, int64_t v)
{
	uint64_t lo = (uint64_t)(u < v ? u : v), hi = (uint64_t)(u < v ? v : u);
	uint64_t z = (lo << 32) ^ hi;

	/* splitmix64's finaliser: every input bit moves every output bit. */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (int32_t)(1 + z % 100);
}

/* --------------------------------------------------------------- generator */

/*
 * One pass over the generator's edge sequence. The first pass (fill false)
 * counts each node's arcs, the second replays the same random sequence and
 * places the arcs, so the edge list is never held in memory. Arcs land in
 * each node's row in the order they were generated, as graphgen's adjacency
 * lists would hold them.
 */
static void generate_pass(struct wl_graph *g, uint64_t seed, int32_t *cursor, bool fill)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (int32_t i = 0; i < g->nodes; i++) {
		int k = 2 + (int)wl_rng_below(&rng, 3);

		for (int e = 0; e < k; e++) {
			int32_t j = (int32_t)wl_rng_below(&rng, (uint64_t)g->nodes);
			int32_t wt = 1 + (int32_t)wl_rng_below(&rng, 10);

			if (!fill) {
				g->offset[i + 1]++;
				g->offset[j + 1]++;
				continue;
			}
			g->dest[cursor[i]] = j;
			if (g->weight)
				g->weight[cursor[i]] = wt;
			cursor[i]++;
			g->dest[cursor[j]] = i;
			if (g->weight)
				g->weight[cursor[j]] = wt;
			cursor[j]++;
		}
	}
}

void wl_graph_generate(const struct wl *w, struct wl_graph *g, int32_t nodes, uint64_t seed,
		       bool weights)
{
	int32_t *cursor;

	if (nodes < 1 || nodes > WL_GRAPH_GEN_MAX_NODES)
		wl_usage_error(w, "cannot generate %" PRId32 " nodes: accepted 1 to %d", nodes,
			       WL_GRAPH_GEN_MAX_NODES);
	memset(g, 0, sizeof(*g));
	g->nodes = nodes;
	g->offset = graph_alloc(w, (size_t)nodes + 1, sizeof(int32_t), "node offsets");
	generate_pass(g, seed, NULL, false);
	graph_prefix_sum(g);
	/* At most 4 edges per node, 2 arcs each: below 2^31 by the node bound. */
	g->arcs = g->offset[nodes];
	g->dest = graph_alloc(w, (size_t)g->arcs, sizeof(int32_t), "arc destinations");
	g->weight =
	    weights ? graph_alloc(w, (size_t)g->arcs, sizeof(int32_t), "arc weights") : NULL;
	cursor = graph_alloc(w, (size_t)nodes, sizeof(int32_t), "cursors");
	memcpy(cursor, g->offset, (size_t)nodes * sizeof(int32_t));
	generate_pass(g, seed, cursor, true);
	free(cursor);
	g->max_weight = weights ? 10 : 0;
	g->origin = WL_GRAPH_GENERATED;
}

/* ------------------------------------------------------------- xz streams */

/*
 * An xz file is read through a stdio cookie that decompresses on the fly, so
 * every reader below works on lines from a FILE whatever the file's
 * compression. A decoder error is kept in `err` for the line-numbered message.
 */
struct xz_cookie {
	FILE *raw;
	lzma_stream strm;
	uint8_t in[1 << 16];
	bool in_eof, done;
	const char *err;
};

static const char *xz_error(lzma_ret ret)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		return "out of memory decompressing xz data";
	case LZMA_FORMAT_ERROR:
		return "not an xz stream";
	case LZMA_OPTIONS_ERROR:
		return "unsupported xz options";
	case LZMA_DATA_ERROR:
		return "corrupt xz data";
	case LZMA_BUF_ERROR:
		return "truncated xz data";
	default:
		return "xz decoder error";
	}
}

static ssize_t xz_read(void *cookie, char *buf, size_t size)
{
	struct xz_cookie *c = cookie;
	lzma_stream *s = &c->strm;

	if (c->done || c->err)
		return c->err ? -1 : 0;
	s->next_out = (uint8_t *)buf;
	s->avail_out = size;
	/* Decode until some output exists: xz headers produce none. */
	while (s->avail_out == size) {
		lzma_ret ret;

		if (s->avail_in == 0 && !c->in_eof) {
			s->next_in = c->in;
			s->avail_in = fread(c->in, 1, sizeof(c->in), c->raw);
			if (ferror(c->raw)) {
				c->err = "read error";
				errno = EIO;
				return -1;
			}
			c->in_eof = s->avail_in == 0;
		}
		ret = lzma_code(s, c->in_eof ? LZMA_FINISH : LZMA_RUN);
		if (ret == LZMA_STREAM_END) {
			c->done = true;
			break;
		}
		if (ret != LZMA_OK) {
			c->err = xz_error(ret);
			errno = EIO;
			return -1;
		}
	}
	return (ssize_t)(size - s->avail_out);
}

static int xz_close(void *cookie)
{
	struct xz_cookie *c = cookie;

	lzma_end(&c->strm);
	fclose(c->raw);
	free(c);
	return 0;
}

/* ------------------------------------------------------------ line reading */

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

static void reader_close(struct reader *r);

/* Every input error ends here: one line naming the file and line, exit 2. */
__attribute__((noreturn, format(printf, 2, 3))) static void reader_fail(struct reader *r,
									const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	reader_close(r);
	/* An empty file fails before its first line: call that line 1. */
	wl_usage_error(r->w, "%s:%lu: %s", r->path, r->lineno ? r->lineno : 1, msg);
}

static void reader_open(const struct wl *w, struct reader *r, const char *path)
{
	static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
	static const cookie_io_functions_t xz_io = {.read = xz_read, .close = xz_close};
	uint8_t head[6];
	size_t n;

	memset(r, 0, sizeof(*r));
	r->w = w;
	r->path = path;
	r->f = fopen(path, "rb");
	if (!r->f)
		wl_usage_error(w, "%s: cannot open: %s", path, strerror(errno));
	n = fread(head, 1, sizeof(head), r->f);
	if (fseek(r->f, 0, SEEK_SET) != 0)
		wl_usage_error(w, "%s: cannot seek: %s (a regular file is needed)", path,
			       strerror(errno));
	if (n < sizeof(head) || memcmp(head, xz_magic, sizeof(head)) != 0)
		return;
	r->xz = graph_alloc(w, 1, sizeof(*r->xz), "xz decoder");
	r->xz->raw = r->f;
	r->xz->strm = (lzma_stream)LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&r->xz->strm, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		wl_usage_error(w, "%s: cannot start the xz decoder", path);
	r->f = fopencookie(r->xz, "r", xz_io);
	if (!r->f)
		wl_usage_error(w, "%s: cannot open the xz stream: %s", path, strerror(errno));
}

static void reader_close(struct reader *r)
{
	for (size_t i = 0; i < sizeof(r->scratch) / sizeof(r->scratch[0]); i++)
		free(r->scratch[i]);
	fclose(r->f);
	free(r->line);
}

/* A zeroed temporary array of `count` ints, kept in scratch slot `slot`. */
static int32_t *reader_scratch(struct reader *r, int slot, int64_t count, const char *what)
{
	return r->scratch[slot] = graph_alloc(r->w, (size_t)count, sizeof(int32_t), what);
}

/* The next line without its line ending, or NULL at the end of the file. */
static char *reader_next(struct reader *r)
{
	ssize_t n;

	if (r->pushed_back) {
		r->pushed_back = false;
		return r->line;
	}
	n = getline(&r->line, &r->cap, r->f);
	if (n < 0) {
		if (ferror(r->f)) {
			r->lineno++;
			reader_fail(r, "%s", r->xz && r->xz->err ? r->xz->err : "read error");
		}
		return NULL;
	}
	r->lineno++;
	while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
		r->line[--n] = '\0';
	if (strlen(r->line) != (size_t)n)
		reader_fail(r, "NUL byte in a text line (binary file?)");
	return r->line;
}

/* The next whitespace-separated word of *p (NUL-terminated in place), or NULL. */
static char *next_word(char **p)
{
	char *s = *p, *word;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*p = s;
		return NULL;
	}
	word = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return word;
}

/* A whole decimal number in [min, max], or false. */
static bool parse_num(const char *word, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (!word || !((*word >= '0' && *word <= '9') || *word == '-'))
		return false;
	errno = 0;
	v = strtoll(word, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* The next word of the line as a number in [min, max]; fails naming `what`. */
static int64_t line_num(struct reader *r, char **p, int64_t min, int64_t max, const char *what)
{
	char *word = next_word(p);
	int64_t v;

	if (!word)
		reader_fail(r, "missing %s", what);
	if (!parse_num(word, min, max, &v))
		reader_fail(r, "%s '%.32s' is not a number from %" PRId64 " to %" PRId64, what,
			    word, min, max);
	return v;
}

static void line_end(struct reader *r, char **p)
{
	char *word = next_word(p);

	if (word)
		reader_fail(r, "unexpected '%.32s' at the end of the line", word);
}

/* ---------------------------------------------------------- Rodinia format */

/* The next number of a whitespace-separated stream that may span lines. */
static int64_t token_num(struct reader *r, int64_t min, int64_t max, const char *what)
{
	for (;;) {
		char *s = r->pos;

		while (s && (*s == ' ' || *s == '\t'))
			s++;
		if (s && *s) {
			r->pos = s;
			break;
		}
		r->pos = reader_next(r);
		if (!r->pos)
			reader_fail(r, "unexpected end of file: missing %s", what);
	}
	return line_num(r, &r->pos, min, max, what);
}

/*
 * N; N lines "offset degree"; the source; E; E lines "dest weight". Each
 * node's edges are edges[offset .. offset + degree - 1]; they are copied into
 * a compact CSR in node order.
 */
static void read_rodinia(struct reader *r, struct wl_graph *g, bool weights)
{
	int32_t n = (int32_t)token_num(r, 1, INT32_MAX - 1, "the node count");
	int32_t *start = reader_scratch(r, 0, n, "node offsets");
	int32_t *degree = reader_scratch(r, 1, n, "node degrees");
	int32_t *fdest, *fweight, e;
	int64_t arcs = 0;

	for (int32_t i = 0; i < n; i++) {
		start[i] = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "a node's edge offset");
		degree[i] = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "a node's degree");
	}
	g->file_source = (int32_t)token_num(r, 0, n - 1, "the source node");
	e = (int32_t)token_num(r, 0, WL_GRAPH_MAX_ARCS, "the edge count");
	for (int32_t i = 0; i < n; i++) {
		if ((int64_t)start[i] + degree[i] > e)
			reader_fail(r,
				    "node %" PRId32 "'s edges %" PRId32 "..%" PRId64
				    " run past the edge count %" PRId32,
				    i, start[i], (int64_t)start[i] + degree[i] - 1, e);
		arcs += degree[i];
	}
	if (arcs > WL_GRAPH_MAX_ARCS)
		reader_fail(r, "the node degrees add up to %" PRId64 " arcs, more than %d", arcs,
			    WL_GRAPH_MAX_ARCS);
	fdest = reader_scratch(r, 2, e, "edges");
	fweight = reader_scratch(r, 3, e, "edge weights");
	for (int32_t i = 0; i < e; i++) {
		fdest[i] = (int32_t)token_num(r, 0, n - 1, "an edge's destination node");
		fweight[i] = (int32_t)token_num(r, 0, INT32_MAX, "an edge's weight");
	}
	while ((r->pos && *r->pos) || (r->pos = reader_next(r)))
		if (next_word(&r->pos))
			reader_fail(r, "unexpected data after the %" PRId32 " edges", e);

	graph_alloc_csr(r->w, g, n, arcs, weights);
	for (int32_t u = 0; u < n; u++) {
		int32_t at = g->offset[u];

		g->offset[u + 1] = at + degree[u];
		memcpy(&g->dest[at], &fdest[start[u]], (size_t)degree[u] * sizeof(int32_t));
		for (int32_t k = 0; k < degree[u]; k++) {
			int32_t wt = fweight[start[u] + k];

			if (weights)
				g->weight[at + k] = wt;
			if (weights && wt > g->max_weight)
				g->max_weight = wt;
		}
	}
	g->origin = WL_GRAPH_RODINIA;
}

/* ------------------------------------------------------- DIMACS and PACE */

/* Skips comment ('c') and blank lines; returns the next other line or NULL. */
static char *next_content_line(struct reader *r)
{
	char *line;

	while ((line = reader_next(r))) {
		char *s = line;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s && *s != 'c')
			return line;
	}
	return NULL;
}

/* "p KIND N M": the node and arc (or edge) counts. */
static void read_problem_line(struct reader *r, char *line, const char *kind, int64_t max_m,
			      int32_t *n, int64_t *m)
{
	char *p = line, *word;

	next_word(&p); /* the 'p' the caller saw */
	word = next_word(&p);
	if (!word || strcmp(word, kind) != 0)
		reader_fail(r, "expected 'p %s NODES %s'", kind,
			    strcmp(kind, "sp") == 0 ? "ARCS" : "EDGES");
	*n = (int32_t)line_num(r, &p, 1, INT32_MAX - 1, "node count");
	*m = line_num(r, &p, 0, max_m, strcmp(kind, "sp") == 0 ? "arc count" : "edge count");
	line_end(r, &p);
}

static bool is_problem_line(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return line[0] == 'p' && (line[1] == ' ' || line[1] == '\t');
}

/* DIMACS-9 shortest path: "p sp N M" then M lines "a u v w", directed. */
static void read_dimacs(struct reader *r, struct wl_graph *g, bool weights)
{
	int32_t n = 0, *src = NULL, *dst = NULL, *wt = NULL;
	int64_t m = 0, count = 0;
	char *line;

	while ((line = next_content_line(r))) {
		char *p = line, *word;

		if (is_problem_line(line)) {
			if (src)
				reader_fail(r, "a second problem line");
			read_problem_line(r, line, "sp", WL_GRAPH_MAX_ARCS, &n, &m);
			src = reader_scratch(r, 0, m, "arc sources");
			dst = reader_scratch(r, 1, m, "arc heads");
			wt = reader_scratch(r, 2, m, "arc weights");
			continue;
		}
		word = next_word(&p);
		if (strcmp(word, "a") != 0)
			reader_fail(r, "unexpected '%.32s' (expected a 'c', 'p sp' or 'a' line)",
				    word);
		if (!src)
			reader_fail(r, "an arc before the problem line 'p sp NODES ARCS'");
		if (count == m)
			reader_fail(r, "more arcs than the %" PRId64 " the problem line declares",
				    m);
		src[count] = (int32_t)line_num(r, &p, 1, n, "arc tail") - 1;
		dst[count] = (int32_t)line_num(r, &p, 1, n, "arc head") - 1;
		wt[count] = (int32_t)line_num(r, &p, 0, INT32_MAX, "arc weight");
		line_end(r, &p);
		count++;
	}
	if (!src)
		reader_fail(r, "no problem line 'p sp NODES ARCS'");
	if (count < m)
		reader_fail(r,
			    "unexpected end of file: %" PRId64 " arcs, the problem line declares "
			    "%" PRId64,
			    count, m);
	graph_from_arcs(r->w, g, n, m, src, dst, weights ? wt : NULL);
	g->origin = WL_GRAPH_DIMACS;
}

/*
 * PACE-2016: "p tw N M" then M lines "u v", undirected and unweighted. Each
 * edge becomes the arcs u->v and v->u, weighted by wl_graph_hash_weight.
 */
static void read_pace(struct reader *r, struct wl_graph *g, bool weights)
{
	int32_t n = 0, *src = NULL, *dst = NULL, *wt = NULL;
	int64_t m = 0, count = 0;
	char *line;

	while ((line = next_content_line(r))) {
		char *p = line;
		int32_t u, v;

		if (is_problem_line(line)) {
			if (src)
				reader_fail(r, "a second problem line");
			read_problem_line(r, line, "tw", WL_GRAPH_MAX_ARCS / 2, &n, &m);
			src = reader_scratch(r, 0, 2 * m, "arc sources");
			dst = reader_scratch(r, 1, 2 * m, "arc heads");
			wt = reader_scratch(r, 2, 2 * m, "arc weights");
			continue;
		}
		if (!src)
			reader_fail(r, "an edge before the problem line 'p tw NODES EDGES'");
		if (count == 2 * m)
			reader_fail(r, "more edges than the %" PRId64 " the problem line declares",
				    m);
		u = (int32_t)line_num(r, &p, 1, n, "edge endpoint");
		v = (int32_t)line_num(r, &p, 1, n, "edge endpoint");
		line_end(r, &p);
		src[count] = u - 1;
		dst[count] = v - 1;
		wt[count++] = wl_graph_hash_weight(u, v);
		src[count] = v - 1;
		dst[count] = u - 1;
		wt[count++] = wl_graph_hash_weight(u, v);
	}
	if (!src)
		reader_fail(r, "no problem line 'p tw NODES EDGES'");
	if (count < 2 * m)
		reader_fail(r,
			    "unexpected end of file: %" PRId64 " edges, the problem line "
			    "declares %" PRId64,
			    count / 2, m);
	graph_from_arcs(r->w, g, n, 2 * m, src, dst, weights ? wt : NULL);
	g->origin = WL_GRAPH_PACE;
	g->hashed_weights = weights;
}

/* ---------------------------------------------------------------- dispatch */

void wl_graph_read(const struct wl *w, struct wl_graph *g, const char *path, bool weights)
{
	struct reader r;
	char kind[8] = "";
	char *line;

	memset(g, 0, sizeof(*g));
	reader_open(w, &r, path);
	line = next_content_line(&r);
	if (!line)
		reader_fail(&r, "no graph in the file (empty, or only comments)");
	r.pushed_back = true;
	if (is_problem_line(line)) {
		if (sscanf(line, " p %7s", kind) == 1 && strcmp(kind, "sp") == 0)
			read_dimacs(&r, g, weights);
		else if (strcmp(kind, "tw") == 0)
			read_pace(&r, g, weights);
		else
			reader_fail(&r, "unknown problem line: expected 'p sp' (DIMACS-9) or "
					"'p tw' (PACE-2016)");
	} else if (line[strspn(line, " \t")] == 'a') {
		read_dimacs(&r, g, weights); /* it names the missing problem line */
	} else if (line[strspn(line, " \t")] >= '0' && line[strspn(line, " \t")] <= '9') {
		read_rodinia(&r, g, weights);
	} else {
		reader_fail(&r, "unrecognised format: expected a Rodinia graph (a node count), "
				"DIMACS-9 'p sp' or PACE-2016 'p tw'");
	}
	reader_close(&r);
}

void wl_graph_load(const struct wl *w, struct wl_graph *g, long long nodes, const char *input,
		   int32_t default_nodes, int32_t max_nodes, uint64_t bytes_per_node, bool weights)
{
	if (!!w->footprint + !!nodes + !!input > 1)
		wl_usage_error(w, "give at most one of --footprint, --nodes and --input");
	if (input) {
		wl_graph_read(w, g, input, weights);
		return;
	}
	if (w->footprint) {
		nodes = (long long)(w->footprint / bytes_per_node);
		if (nodes < 1 || nodes > max_nodes)
			wl_usage_error(w,
				       "--footprint %" PRIu64 ": accepted %" PRIu64 " to %" PRIu64
				       " bytes",
				       w->footprint, bytes_per_node,
				       bytes_per_node * (uint64_t)max_nodes);
	}
	wl_graph_generate(w, g, nodes ? (int32_t)nodes : default_nodes, w->seed, weights);
}
