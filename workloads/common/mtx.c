// SPDX-License-Identifier: MIT
/*
 * mtx.c - Matrix Market reader (see mtx.h): the banner, comments, the size
 * line and the entries, line by line from a FILE or a buffer, into COO
 * arrays that grow with what the file really holds (a size line's count is
 * never trusted for an allocation), then compressed sparse rows.
 */
#include "mtx.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Where lines come from, and where the one error line goes. */
struct mtx_src {
	FILE *f; /* NULL: the buffer */
	const char *buf;
	size_t len, pos;
	char *line;
	size_t cap;
	unsigned long lineno;
	const char *name;
	char *err;
	size_t errlen;
};

/* The entries as read, growing by doubling. */
struct mtx_coo {
	int32_t *row, *col;
	float *val;
	int64_t n, cap;
};

__attribute__((format(printf, 3, 4))) static int fail(struct mtx_src *s, unsigned long line,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!s->err || !s->errlen)
		return -EINVAL;
	n = snprintf(s->err, s->errlen, "%s:%lu: ", s->name, line);
	if (n >= 0 && (size_t)n < s->errlen) {
		va_start(ap, fmt);
		vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int fail_errno(struct mtx_src *s, int e)
{
	if (s->err && s->errlen)
		snprintf(s->err, s->errlen, "%s: %s reading the matrix", s->name,
			 e == -ENOMEM ? "out of memory" : "read error");
	return e;
}

/* The next line without its line end, NUL-terminated: 1, 0 at the end of the
 * input, or a negative errno. */
static int next_line(struct mtx_src *s, char **out)
{
	size_t n;

	if (s->f) {
		ssize_t r;

		errno = 0;
		r = getline(&s->line, &s->cap, s->f);
		if (r < 0) {
			if (ferror(s->f))
				return fail_errno(s, -EIO);
			if (errno == ENOMEM)
				return fail_errno(s, -ENOMEM);
			return 0;
		}
		n = (size_t)r;
	} else {
		const char *start = s->buf + s->pos, *nl;

		if (s->pos >= s->len)
			return 0;
		nl = memchr(start, '\n', s->len - s->pos);
		n = nl ? (size_t)(nl - start) + 1 : s->len - s->pos;
		if (n + 1 > s->cap) {
			char *p = realloc(s->line, n + 1);

			if (!p)
				return fail_errno(s, -ENOMEM);
			s->line = p;
			s->cap = n + 1;
		}
		memcpy(s->line, start, n);
		s->line[n] = '\0';
		s->pos += n;
	}
	s->lineno++;
	if (memchr(s->line, '\0', n))
		return fail(s, s->lineno, "a NUL byte in the line (not a text file?)");
	while (n > 0 && (s->line[n - 1] == '\n' || s->line[n - 1] == '\r'))
		s->line[--n] = '\0';
	*out = s->line;
	return 1;
}

/* The next blank-separated word of *p, NUL-terminated, or NULL. */
static char *next_word(char **p)
{
	char *w = *p, *e;

	while (*w == ' ' || *w == '\t')
		w++;
	if (!*w)
		return NULL;
	for (e = w; *e && *e != ' ' && *e != '\t'; e++)
		;
	*p = *e ? e + 1 : e;
	*e = '\0';
	return w;
}

static bool blank(const char *line)
{
	return line[strspn(line, " \t")] == '\0';
}

/* A whole number of digits in [min, max]. */
static bool parse_count(const char *w, int64_t min, int64_t max, int64_t *out)
{
	int64_t v = 0;

	if (!*w)
		return false;
	for (const char *c = w; *c; c++) {
		if (!isdigit((unsigned char)*c) || v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*c - '0');
	}
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* A value of the field: a finite real within float's range, or an integer. */
static bool parse_value(const char *w, enum mtx_field field, float *out)
{
	char *end;

	errno = 0;
	if (field == MTX_INTEGER) {
		long long v = strtoll(w, &end, 10);

		if (end == w || *end || errno)
			return false;
		*out = (float)v;
		return true;
	}
	double v = strtod(w, &end);

	if (end == w || *end || !isfinite(v) || !isfinite((float)v))
		return false;
	*out = (float)v;
	return true;
}

static int coo_push(struct mtx_coo *c, int32_t r, int32_t col, float v)
{
	if (c->n == c->cap) {
		int64_t cap = c->cap ? 2 * c->cap : 4096;
		int32_t *nr = realloc(c->row, (size_t)cap * sizeof(*nr));
		int32_t *nc;
		float *nv;

		if (!nr)
			return -ENOMEM;
		c->row = nr;
		nc = realloc(c->col, (size_t)cap * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		c->col = nc;
		nv = realloc(c->val, (size_t)cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		c->val = nv;
		c->cap = cap;
	}
	c->row[c->n] = r;
	c->col[c->n] = col;
	c->val[c->n] = v;
	c->n++;
	return 0;
}

static void coo_free(struct mtx_coo *c)
{
	free(c->row);
	free(c->col);
	free(c->val);
	memset(c, 0, sizeof(*c));
}

/* The banner: %%MatrixMarket matrix coordinate FIELD SYMMETRY. */
static int parse_banner(struct mtx_src *s, char *line, struct mtx_matrix *m)
{
	char *p = line, *w[6];
	int n = 0;

	while (n < 6 && (w[n] = next_word(&p)))
		n++;
	if (n == 0 || strcasecmp(w[0], "%%MatrixMarket") != 0)
		return fail(s, s->lineno,
			    "not a Matrix Market file (the first line is not a "
			    "'%%%%MatrixMarket' banner)");
	if (n != 5)
		return fail(s, s->lineno,
			    "the banner needs 4 words after %%%%MatrixMarket (matrix coordinate "
			    "FIELD SYMMETRY), it has %d",
			    n - 1);
	if (strcasecmp(w[1], "matrix") != 0)
		return fail(s, s->lineno, "object '%.40s' is not supported (accepted: matrix)",
			    w[1]);
	if (strcasecmp(w[2], "array") == 0)
		return fail(s, s->lineno,
			    "array (dense) format is not supported (accepted: "
			    "coordinate)");
	if (strcasecmp(w[2], "coordinate") != 0)
		return fail(s, s->lineno, "format '%.40s' is not supported (accepted: coordinate)",
			    w[2]);
	if (strcasecmp(w[3], "real") == 0)
		m->field = MTX_REAL;
	else if (strcasecmp(w[3], "integer") == 0)
		m->field = MTX_INTEGER;
	else if (strcasecmp(w[3], "pattern") == 0)
		m->field = MTX_PATTERN;
	else
		return fail(s, s->lineno,
			    "field '%.40s' is not supported (accepted: real, integer, pattern)",
			    w[3]);
	if (strcasecmp(w[4], "general") == 0)
		m->symmetry = MTX_GENERAL;
	else if (strcasecmp(w[4], "symmetric") == 0)
		m->symmetry = MTX_SYMMETRIC;
	else
		return fail(s, s->lineno,
			    "symmetry '%.40s' is not supported (accepted: general, symmetric)",
			    w[4]);
	return 0;
}

/* ROWS COLUMNS ENTRIES. */
static int parse_size(struct mtx_src *s, char *line, struct mtx_matrix *m)
{
	char *p = line, *w[4];
	int64_t rows, cols;
	int n = 0;

	while (n < 4 && (w[n] = next_word(&p)))
		n++;
	if (n != 3)
		return fail(s, s->lineno,
			    "expected the size line 'rows columns entries', got %d "
			    "word%s",
			    n, n == 1 ? "" : "s");
	if (!parse_count(w[0], 1, INT32_MAX, &rows) || !parse_count(w[1], 1, INT32_MAX, &cols))
		return fail(s, s->lineno,
			    "rows and columns must be whole numbers from 1 to %d, "
			    "got '%.20s' and '%.20s'",
			    INT32_MAX, w[0], w[1]);
	if (!parse_count(w[2], 0, MTX_MAX_ENTRIES, &m->entries))
		return fail(s, s->lineno,
			    "the entry count must be a whole number from 0 to %lld, got '%.20s'",
			    (long long)MTX_MAX_ENTRIES, w[2]);
	if (m->symmetry == MTX_SYMMETRIC && rows != cols)
		return fail(s, s->lineno,
			    "a symmetric matrix must be square, this one is %lld x "
			    "%lld",
			    (long long)rows, (long long)cols);
	m->rows = (int32_t)rows;
	m->cols = (int32_t)cols;
	return 0;
}

/* ROW COLUMN [VALUE]; a symmetric file's off-diagonal entry also goes in
 * mirrored. */
static int parse_entry(struct mtx_src *s, char *line, const struct mtx_matrix *m,
		       struct mtx_coo *coo)
{
	const int want = m->field == MTX_PATTERN ? 2 : 3;
	char *p = line, *w[4];
	int64_t r, c;
	float v = 1;
	int n = 0;

	while (n < 4 && (w[n] = next_word(&p)))
		n++;
	if (n != want)
		return fail(s, s->lineno, "expected '%s', got %d word%s",
			    want == 2 ? "row column" : "row column value", n, n == 1 ? "" : "s");
	if (!parse_count(w[0], 1, m->rows, &r))
		return fail(s, s->lineno, "row '%.20s' is not a whole number from 1 to %d", w[0],
			    m->rows);
	if (!parse_count(w[1], 1, m->cols, &c))
		return fail(s, s->lineno, "column '%.20s' is not a whole number from 1 to %d", w[1],
			    m->cols);
	if (want == 3 && !parse_value(w[2], m->field, &v))
		return fail(s, s->lineno,
			    m->field == MTX_INTEGER
				? "value '%.30s' is not an integer"
				: "value '%.30s' is not a finite number within float's range",
			    w[2]);
	if (coo_push(coo, (int32_t)(r - 1), (int32_t)(c - 1), v))
		return fail_errno(s, -ENOMEM);
	if (m->symmetry == MTX_SYMMETRIC && r != c &&
	    coo_push(coo, (int32_t)(c - 1), (int32_t)(r - 1), v))
		return fail_errno(s, -ENOMEM);
	return 0;
}

/*
 * COO to CSR with columns ascending in each row, duplicates in file order:
 * a stable counting sort by column, then a stable one by row.
 */
static int to_csr(const struct mtx_coo *coo, struct mtx_matrix *m)
{
	const int64_t nnz = coo->n;
	int64_t *col_start = calloc((size_t)m->cols + 1, sizeof(int64_t));
	int64_t *by_col = malloc((size_t)(nnz ? nnz : 1) * sizeof(int64_t));
	int ret = -ENOMEM;

	m->row_start = calloc((size_t)m->rows + 1, sizeof(int64_t));
	m->col = malloc((size_t)(nnz ? nnz : 1) * sizeof(int32_t));
	m->val = malloc((size_t)(nnz ? nnz : 1) * sizeof(float));
	if (!col_start || !by_col || !m->row_start || !m->col || !m->val)
		goto out;
	for (int64_t e = 0; e < nnz; e++) {
		col_start[coo->col[e] + 1]++;
		m->row_start[coo->row[e] + 1]++;
	}
	for (int64_t c = 0; c < m->cols; c++)
		col_start[c + 1] += col_start[c];
	for (int64_t r = 0; r < m->rows; r++)
		m->row_start[r + 1] += m->row_start[r];
	for (int64_t e = 0; e < nnz; e++)
		by_col[col_start[coo->col[e]]++] = e;
	/* row_start[r] is the next free slot of row r while filling; shifted
	 * back afterwards. */
	for (int64_t k = 0; k < nnz; k++) {
		const int64_t e = by_col[k];
		const int64_t at = m->row_start[coo->row[e]]++;

		m->col[at] = coo->col[e];
		m->val[at] = coo->val[e];
	}
	for (int64_t r = m->rows; r > 0; r--)
		m->row_start[r] = m->row_start[r - 1];
	m->row_start[0] = 0;
	m->nnz = nnz;
	ret = 0;
out:
	free(col_start);
	free(by_col);
	if (ret)
		mtx_free(m);
	return ret;
}

static int parse(struct mtx_src *s, struct mtx_matrix *m)
{
	struct mtx_coo coo = {0};
	int64_t listed = 0;
	char *line;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = next_line(s, &line);
	if (ret == 0)
		return fail(s, 1, "empty file (expected a '%%%%MatrixMarket' banner)");
	if (ret < 0 || (ret = parse_banner(s, line, m)))
		return ret;
	/* Comments and blank lines, then the size line. */
	while ((ret = next_line(s, &line)) == 1 && (line[0] == '%' || blank(line)))
		;
	if (ret == 0)
		return fail(s, s->lineno + 1,
			    "file ends before the size line (rows columns "
			    "entries)");
	if (ret < 0 || (ret = parse_size(s, line, m)))
		return ret;
	/* The entries; blank and comment lines between them are skipped. */
	while ((ret = next_line(s, &line)) == 1) {
		if (line[0] == '%' || blank(line))
			continue;
		if (listed == m->entries) {
			ret = fail(s, s->lineno, "more entries than the %lld the size line gives",
				   (long long)m->entries);
			goto out;
		}
		if ((ret = parse_entry(s, line, m, &coo)))
			goto out;
		listed++;
	}
	if (ret < 0)
		goto out;
	if (listed < m->entries) {
		ret = fail(s, s->lineno + 1,
			   "file ends after %lld of the %lld entries the size "
			   "line gives",
			   (long long)listed, (long long)m->entries);
		goto out;
	}
	ret = to_csr(&coo, m);
	if (ret)
		fail_errno(s, ret);
out:
	coo_free(&coo);
	return ret;
}

int mtx_read(FILE *f, const char *name, struct mtx_matrix *m, char *err, size_t errlen)
{
	struct mtx_src s = {.f = f, .name = name, .err = err, .errlen = errlen};
	int ret = parse(&s, m);

	free(s.line);
	return ret;
}

int mtx_parse(const char *buf, size_t len, const char *name, struct mtx_matrix *m, char *err,
	      size_t errlen)
{
	struct mtx_src s = {.buf = buf, .len = len, .name = name, .err = err, .errlen = errlen};
	int ret = parse(&s, m);

	free(s.line);
	return ret;
}

void mtx_free(struct mtx_matrix *m)
{
	free(m->row_start);
	free(m->col);
	free(m->val);
	m->row_start = NULL;
	m->col = NULL;
	m->val = NULL;
}

const char *mtx_field_name(enum mtx_field f)
{
	return f == MTX_REAL ? "real" : f == MTX_INTEGER ? "integer" : "pattern";
}

const char *mtx_symmetry_name(enum mtx_symmetry s)
{
	return s == MTX_SYMMETRIC ? "symmetric" : "general";
}
