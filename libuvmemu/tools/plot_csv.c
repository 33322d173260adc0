// SPDX-License-Identifier: MIT
/*
 * plot_csv.c - reading the trace CSVs: a header of column names, then rows
 * of exactly as many fields. The trace writer never quotes (it replaces
 * commas in allocation names), so a row is split at every comma; a row with
 * the wrong number of fields is malformed, not guessed at.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

static int split(char *s, char **out, int max)
{
	int n = 0;

	s[strcspn(s, "\r\n")] = '\0';
	for (;;) {
		char *comma = strchr(s, ',');

		if (n == max)
			return -1;
		out[n++] = s;
		if (!comma)
			return n;
		*comma = '\0';
		s = comma + 1;
	}
}

int plot_csv_open(struct plot_csv *c, const char *dir, const char *name, char *err, size_t len)
{
	ssize_t got;

	memset(c, 0, sizeof(*c));
	if (plot_path(c->path, sizeof(c->path), dir, name)) {
		snprintf(err, len, "%s/%s: path too long", dir ? dir : ".", name);
		return -1;
	}
	c->f = fopen(c->path, "r");
	if (!c->f) {
		snprintf(err, len, "%s: %s", c->path, strerror(errno));
		return -1;
	}
	got = getline(&c->line, &c->cap, c->f);
	c->lineno = 1;
	if (got <= 0) {
		snprintf(err, len, "%s: empty file (no header line)", c->path);
		goto fail;
	}
	c->header = strdup(c->line);
	if (!c->header) {
		snprintf(err, len, "%s: out of memory", c->path);
		goto fail;
	}
	c->ncols = split(c->header, c->name, PLOT_CSV_MAXCOLS);
	if (c->ncols < 2) {
		snprintf(err, len, "%s:1: not a trace CSV header ('%.60s')", c->path, c->line);
		goto fail;
	}
	return 0;
fail:
	plot_csv_close(c);
	return -1;
}

void plot_csv_close(struct plot_csv *c)
{
	if (c->f)
		fclose(c->f);
	free(c->line);
	free(c->header);
	c->f = NULL;
	c->line = c->header = NULL;
}

int plot_csv_col(const struct plot_csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (strcmp(c->name[i], name) == 0)
			return i;
	return -1;
}

int plot_csv_need(const struct plot_csv *c, const char *const *names, int *idx, int n, char *err,
		  size_t len)
{
	for (int i = 0; i < n; i++) {
		idx[i] = plot_csv_col(c, names[i]);
		if (idx[i] < 0) {
			snprintf(err, len, "%s: no column '%s' in the header", c->path, names[i]);
			return -1;
		}
	}
	return 0;
}

int plot_csv_next(struct plot_csv *c, char *err, size_t len)
{
	for (;;) {
		ssize_t got = getline(&c->line, &c->cap, c->f);
		int n;

		if (got < 0) {
			if (ferror(c->f)) {
				snprintf(err, len, "%s: %s", c->path, strerror(errno));
				return -1;
			}
			return 0;
		}
		c->lineno++;
		if (c->line[0] == '\n' || c->line[0] == '\0')
			continue; /* a trailing blank line is not a row */
		n = split(c->line, c->field, PLOT_CSV_MAXCOLS);
		if (n != c->ncols) {
			snprintf(err, len, "%s:%lu: %d fields, the header has %d", c->path,
				 c->lineno, n < 0 ? PLOT_CSV_MAXCOLS : n, c->ncols);
			return -1;
		}
		return 1;
	}
}

int plot_csv_each(const char *dir, const char *name, const char *const *need, int n,
		  plot_csv_row_fn row, void *ctx, char *err, size_t len)
{
	struct plot_csv c;
	int idx[PLOT_CSV_MAXCOLS], rc;

	if (n > PLOT_CSV_MAXCOLS) {
		snprintf(err, len, "%s: more columns needed than a trace CSV has", name);
		return -1;
	}
	if (plot_csv_open(&c, dir, name, err, len))
		return -1;
	rc = plot_csv_need(&c, need, idx, n, err, len);
	while (rc == 0 && (rc = plot_csv_next(&c, err, len)) == 1)
		rc = row(&c, idx, ctx, err, len);
	plot_csv_close(&c);
	return rc < 0 ? -1 : 0;
}

int plot_csv_bad(const struct plot_csv *c, char *err, size_t len, const char *what)
{
	snprintf(err, len, "%s:%lu: %s", c->path, c->lineno, what);
	return -1;
}

int plot_csv_num(const struct plot_csv *c, int col, double *out, char *err, size_t len)
{
	const char *s = c->field[col];
	char *end;

	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		*out = (double)strtoull(s, &end, 16);
	else
		*out = strtod(s, &end);
	if (end == s || *end || errno) {
		snprintf(err, len, "%s:%lu: column '%s': '%.40s' is not a number", c->path,
			 c->lineno, c->name[col], s);
		return -1;
	}
	return 0;
}

int plot_csv_u64(const struct plot_csv *c, int col, uint64_t *out, char *err, size_t len)
{
	const char *s = c->field[col];
	char *end;

	errno = 0;
	/* Base 10 unless marked hexadecimal: a leading 0 is not octal here. */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		*out = strtoull(s, &end, 16);
	else
		*out = strtoull(s, &end, 10);
	if (end == s || *end || errno || s[0] == '-') {
		snprintf(err, len, "%s:%lu: column '%s': '%.40s' is not a whole number", c->path,
			 c->lineno, c->name[col], s);
		return -1;
	}
	return 0;
}
