// SPDX-License-Identifier: MIT
/* graph_reader.c - reading graph files line by line, plain or xz-compressed
 * (liblzma through fopencookie), with one-line errors naming file and line. */
#include "graph_int.h"

#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

/* Every input error ends here: one line naming the file and line, exit 2. */
__attribute__((noreturn, format(printf, 2, 3))) void reader_fail(struct reader *r, const char *fmt,
								 ...)
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

void reader_open(const struct wl *w, struct reader *r, const char *path)
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
	r->xz = wlg_alloc(w, 1, sizeof(*r->xz), "xz decoder");
	r->xz->raw = r->f;
	r->xz->strm = (lzma_stream)LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&r->xz->strm, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		wl_usage_error(w, "%s: cannot start the xz decoder", path);
	r->f = fopencookie(r->xz, "r", xz_io);
	if (!r->f)
		wl_usage_error(w, "%s: cannot open the xz stream: %s", path, strerror(errno));
}

void reader_close(struct reader *r)
{
	for (size_t i = 0; i < sizeof(r->scratch) / sizeof(r->scratch[0]); i++)
		free(r->scratch[i]);
	fclose(r->f);
	free(r->line);
}

/* A zeroed temporary array of `count` ints, kept in scratch slot `slot`. */
int32_t *reader_scratch(struct reader *r, int slot, int64_t count, const char *what)
{
	return r->scratch[slot] = wlg_alloc(r->w, (size_t)count, sizeof(int32_t), what);
}

/* The next line without its line ending, or NULL at the end of the file. */
char *reader_next(struct reader *r)
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
