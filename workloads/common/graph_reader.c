// SPDX-License-Identifier: MIT
/*
 * graph_reader.c - reading graph files line by line (plain or compressed, see
 * graph_unpack.c), with one-line errors naming file and line, and
 * wl_graph_parse, which recognises the format and runs its reader.
 */
#include "graph_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ errors */

/*
 * Reads what is left of a compressed stream, so that a decoder error behind
 * the point where the text stopped making sense is the one reported: a cut
 * or corrupt file is said to be so, not mistaken for a format error.
 */
static void drain(struct reader *r)
{
	char buf[1 << 14];

	while (r->z && !unpack_error(r->z) && fread(buf, 1, sizeof(buf), r->f) == sizeof(buf))
		;
}

static __attribute__((noreturn)) void fail_status(struct reader *r, int status)
{
	r->status = status;
	longjmp(r->fail, 1);
}

void reader_fail(struct reader *r, const char *fmt, ...)
{
	/* An empty file fails before its first line: call that line 1. */
	unsigned long line = r->lineno ? r->lineno : 1;
	char msg[256];
	va_list ap;

	drain(r);
	if (unpack_error(r->z)) {
		snprintf(msg, sizeof(msg), "%s", unpack_error(r->z));
	} else {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	}
	snprintf(r->err, r->errlen, "%s:%lu: %s", r->path, line, msg);
	fail_status(r, -EINVAL);
}

void reader_nomem(struct reader *r, const char *what)
{
	snprintf(r->err, r->errlen, "%s: out of memory for %s", r->path, what);
	fail_status(r, -ENOMEM);
}

void *reader_array(struct reader *r, int slot, size_t need, size_t elem, const char *what)
{
	size_t cap = r->array_bytes[slot];
	void *p;

	if (need > SIZE_MAX / elem)
		reader_nomem(r, what);
	if (need * elem <= cap)
		return r->array[slot];
	cap = cap < 4096 ? 4096 : cap;
	while (cap < need * elem)
		cap = cap > SIZE_MAX / 2 ? need * elem : 2 * cap;
	p = realloc(r->array[slot], cap);
	if (!p)
		reader_nomem(r, what);
	r->array[slot] = p;
	r->array_bytes[slot] = cap;
	return p;
}

void reader_add_arc(struct reader *r, int64_t i, int32_t u, int32_t v, int32_t w)
{
	int32_t *src = reader_array(r, 0, (size_t)i + 1, sizeof(int32_t), "arc sources");
	int32_t *dst = reader_array(r, 1, (size_t)i + 1, sizeof(int32_t), "arc heads");
	int32_t *wt = reader_array(r, 2, (size_t)i + 1, sizeof(int32_t), "arc weights");

	src[i] = u;
	dst[i] = v;
	wt[i] = w;
}

void reader_arcs_to_csr(struct reader *r, struct wl_graph *g, int32_t nodes, int64_t arcs)
{
	/* A graph without arcs still gets its (empty) weights when asked. */
	int32_t *wt =
	    r->opts->weights ? reader_array(r, 2, 1, sizeof(int32_t), "arc weights") : NULL;

	if (wlg_from_arcs(g, nodes, arcs, r->array[0], r->array[1], wt))
		reader_nomem(r, "the graph");
}

/* ------------------------------------------------------------------- lines */

/* The next line without its line ending, or NULL at the end of the file. */
char *reader_next(struct reader *r)
{
	ssize_t n;

	if (r->pushed_back) {
		r->pushed_back = false;
		return r->line;
	}
	errno = 0;
	n = getline(&r->line, &r->cap, r->f);
	/* A decoder error wins over whatever text came before it: that text
	 * may be cut short. */
	if (n < 0 || unpack_error(r->z)) {
		if (ferror(r->f) || unpack_error(r->z)) {
			int err = errno;

			r->lineno++;
			reader_fail(r, "read error: %s", strerror(err));
		}
		if (errno == ENOMEM)
			reader_nomem(r, "a line");
		return NULL;
	}
	r->lineno++;
	while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
		r->line[--n] = '\0';
	if (strlen(r->line) != (size_t)n)
		reader_fail(r, "NUL byte in a text line (binary file?)");
	return r->line;
}

char *reader_next_content(struct reader *r, char comment)
{
	char *line;

	while ((line = reader_next(r))) {
		char *s = line + strspn(line, " \t");

		if (*s && *s != comment)
			return line;
	}
	return NULL;
}

/* The next whitespace-separated word of *p (NUL-terminated in place), or NULL. */
char *next_word(char **p)
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
bool parse_num(const char *word, int64_t min, int64_t max, int64_t *out)
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
int64_t line_num(struct reader *r, char **p, int64_t min, int64_t max, const char *what)
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

void line_end(struct reader *r, char **p)
{
	char *word = next_word(p);

	if (word)
		reader_fail(r, "unexpected '%.32s' at the end of the line", word);
}

/* ---------------------------------------------------------------- dispatch */

bool is_problem_line(const char *line)
{
	line += strspn(line, " \t");
	return line[0] == 'p' && (line[1] == ' ' || line[1] == '\t');
}

/* The format of the file from its first line that is not blank or a DIMACS
 * comment; that line is pushed back for the format's reader. */
static enum wl_graph_origin recognise(struct reader *r)
{
	char *line = reader_next_content(r, 'c'), *s, *p, kind[8] = "";
	int words = 0;

	if (!line)
		reader_fail(r, "no graph in the file (empty, or only comments)");
	r->pushed_back = true;
	s = line + strspn(line, " \t");
	if (is_problem_line(line)) {
		if (sscanf(line, " p %7s", kind) == 1 && strcmp(kind, "sp") == 0)
			return WL_GRAPH_DIMACS;
		if (strcmp(kind, "tw") == 0)
			return WL_GRAPH_PACE;
		reader_fail(r, "unknown problem line: expected 'p sp' (DIMACS-9) or "
			       "'p tw' (PACE-2016)");
	}
	if (*s == 'a')
		return WL_GRAPH_DIMACS; /* it names the missing problem line */
	if (*s == '#')
		return WL_GRAPH_SNAP;
	/* Rodinia starts with the node count alone, SNAP with an edge "u v". */
	for (p = s; *p; words++) {
		p += strcspn(p, " \t");
		p += strspn(p, " \t");
	}
	if ((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9'))
		return words == 2 ? WL_GRAPH_SNAP : WL_GRAPH_RODINIA;
	reader_fail(r, "unrecognised format: expected a Rodinia graph (a node count), DIMACS-9 "
		       "'p sp', PACE-2016 'p tw' or a SNAP edge list");
}

/* Runs the reader; a failure anywhere in it comes back here. Kept apart from
 * wl_graph_parse so that no object of the frame that called setjmp changes
 * before the jump (their values would be indeterminate after it). */
static int guarded_read(struct reader *r, struct wl_graph *g)
{
	static void (*const read_format[])(struct reader *, struct wl_graph *) = {
	    [WL_GRAPH_RODINIA] = wlg_read_rodinia,
	    [WL_GRAPH_DIMACS] = wlg_read_dimacs,
	    [WL_GRAPH_PACE] = wlg_read_pace,
	    [WL_GRAPH_SNAP] = wlg_read_snap,
	};
	enum wl_graph_origin format;

	if (setjmp(r->fail))
		return r->status;
	format = r->opts->only != WL_GRAPH_GENERATED ? r->opts->only : recognise(r);
	read_format[format](r, g);
	return 0;
}

int wl_graph_parse(FILE *f, const char *name, const struct wl_graph_parse_opts *opts,
		   struct wl_graph *g, char *err, size_t errlen)
{
	struct reader r = {
	    .path = name,
	    .opts = opts,
	    .max_nodes = opts->max_nodes ? opts->max_nodes : WL_GRAPH_MAX_NODES,
	    .err = err,
	    .errlen = errlen,
	};
	int ret;

	memset(g, 0, sizeof(*g));
	ret = unpack_open(f, &r.f, &r.z);
	if (ret == -ESPIPE)
		snprintf(err, errlen, "%s: cannot seek (a regular file is needed)", name);
	else if (ret)
		snprintf(err, errlen, "%s: out of memory for the decoder", name);
	if (ret)
		return ret;
	ret = guarded_read(&r, g);
	for (int i = 0; i < READER_ARRAYS; i++)
		free(r.array[i]);
	free(r.line);
	if (r.z)
		fclose(r.f); /* the decoder; f stays open */
	if (ret)
		wl_graph_free(g);
	return ret;
}
