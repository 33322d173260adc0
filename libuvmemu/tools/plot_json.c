// SPDX-License-Identifier: MIT
/*
 * plot_json.c - reading uvmemu reports.
 *
 * A strict JSON parser (RFC 8259 grammar, nothing more) that flattens the
 * document into path = scalar pairs: "wall_s", "config.migrate",
 * "allocations[0].name". Reports are small (a few KB), so the file is read
 * whole. Anything that is not JSON, or JSON that is not a uvmemu report (no
 * numeric "schema", no "config" object, no "wall_s"), is rejected with the
 * file, the line and what was expected.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define MAX_DEPTH  32
#define MAX_REPORT (64u << 20) /* far above any report; a guard against the wrong file */

struct parser {
	const char *p, *end;
	unsigned line;
	int depth;
	struct plot_report *r;
	char *err;
	size_t len;
};

static int fail(struct parser *ps, const char *what)
{
	if (ps->p >= ps->end)
		snprintf(ps->err, ps->len, "%s:%u: unexpected end of file, %s", ps->r->path,
			 ps->line, what);
	else
		snprintf(ps->err, ps->len, "%s:%u: %s (found '%c')", ps->r->path, ps->line, what,
			 *ps->p);
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) {
		if (*ps->p == '\n')
			ps->line++;
		ps->p++;
	}
}

static int add(struct parser *ps, const char *key, const char *text, size_t tlen, bool is_num)
{
	struct plot_report *r = ps->r;
	struct plot_json_value *v;

	v = uvm_grow(r->v, &r->cap, r->n, sizeof(*r->v), 128);
	if (!v)
		return fail(ps, "out of memory");
	r->v = v;
	v = &r->v[r->n];
	v->key = strdup(key);
	v->text = strndup(text, tlen);
	if (!v->key || !v->text) {
		free(v->key);
		free(v->text);
		return fail(ps, "out of memory");
	}
	v->is_num = is_num;
	v->num = is_num ? strtod(v->text, NULL) : 0;
	r->n++;
	return 0;
}

static void put_utf8(char *out, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xc0 | cp >> 6);
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*n)++] = (char)(0xe0 | cp >> 12);
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static bool hex4(const char *s, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		*out = *out << 4 | d;
	}
	return true;
}

/* A string at ps->p (on the quote) into a new buffer; escapes decoded. */
static int parse_string(struct parser *ps, char **out, size_t *olen)
{
	/* Decoded text is never longer than its encoding. */
	const char *start = ++ps->p;
	char *buf;
	size_t n = 0;

	while (ps->p < ps->end && *ps->p != '"') {
		if (*ps->p == '\\' && ps->p + 1 < ps->end)
			ps->p++;
		ps->p++;
	}
	if (ps->p >= ps->end)
		return fail(ps, "unterminated string");
	buf = malloc((size_t)(ps->p - start) + 1);
	if (!buf)
		return fail(ps, "out of memory");
	for (const char *q = start; q < ps->p; q++) {
		unsigned cp;

		if ((unsigned char)*q < 0x20) {
			free(buf);
			return fail(ps, "control character in a string");
		}
		if (*q != '\\') {
			buf[n++] = *q;
			continue;
		}
		switch (*++q) {
		case '"':
		case '\\':
		case '/':
			buf[n++] = *q;
			break;
		case 'b':
			buf[n++] = '\b';
			break;
		case 'f':
			buf[n++] = '\f';
			break;
		case 'n':
			buf[n++] = '\n';
			break;
		case 'r':
			buf[n++] = '\r';
			break;
		case 't':
			buf[n++] = '\t';
			break;
		case 'u':
			if (ps->p - q < 5 || !hex4(q + 1, &cp)) {
				free(buf);
				return fail(ps, "bad \\u escape in a string");
			}
			put_utf8(buf, &n, cp); /* at most 3 bytes for 6 of input */
			q += 4;
			break;
		default:
			free(buf);
			return fail(ps, "bad escape in a string");
		}
	}
	buf[n] = '\0';
	ps->p++;
	*out = buf;
	*olen = n;
	return 0;
}

static int parse_number(struct parser *ps, const char *key)
{
	const char *s = ps->p, *q = s;

	if (q < ps->end && *q == '-')
		q++;
	if (q < ps->end && *q == '0') {
		q++;
	} else if (q < ps->end && *q >= '1' && *q <= '9') {
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	} else {
		return fail(ps, "expected a value");
	}
	if (q < ps->end && *q == '.') {
		if (++q >= ps->end || *q < '0' || *q > '9')
			return fail(ps, "expected digits after '.'");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			return fail(ps, "expected digits in an exponent");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	ps->p = q;
	return add(ps, key, s, (size_t)(q - s), true);
}

static int parse_value(struct parser *ps, const char *key);

static int child_key(struct parser *ps, char **out, const char *parent, const char *member,
		     long index)
{
	int n;

	if (member)
		n = *parent ? asprintf(out, "%s.%s", parent, member) : asprintf(out, "%s", member);
	else
		n = asprintf(out, "%s[%ld]", parent, index);
	if (n < 0)
		return fail(ps, "out of memory");
	return 0;
}

/* After a member or element: 1 when a ',' says another follows, 0 at the
 * closing bracket, -1 on anything else. */
static int list_next(struct parser *ps, char close, const char *what)
{
	skip_ws(ps);
	if (ps->p < ps->end && (*ps->p == ',' || *ps->p == close))
		return *ps->p++ == ',';
	return fail(ps, what);
}

static int parse_object(struct parser *ps, const char *key)
{
	ps->p++; /* { */
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		char *member, *child;
		size_t mlen;
		int rc;

		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"')
			return fail(ps, "expected a member name in quotes");
		if (parse_string(ps, &member, &mlen))
			return -1;
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':') {
			free(member);
			return fail(ps, "expected ':' after a member name");
		}
		ps->p++;
		rc = child_key(ps, &child, key, member, 0);
		free(member);
		if (rc)
			return -1;
		rc = parse_value(ps, child);
		free(child);
		if (rc)
			return -1;
		rc = list_next(ps, '}', "expected ',' or '}' after a member");
		if (rc <= 0)
			return rc;
	}
}

static int parse_array(struct parser *ps, const char *key)
{
	ps->p++; /* [ */
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return 0;
	}
	for (long i = 0;; i++) {
		char *child;
		int rc;

		if (child_key(ps, &child, key, NULL, i))
			return -1;
		rc = parse_value(ps, child);
		free(child);
		if (rc)
			return -1;
		rc = list_next(ps, ']', "expected ',' or ']' after an element");
		if (rc <= 0)
			return rc;
	}
}

static int parse_word(struct parser *ps, const char *key, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail(ps, "expected a value");
	ps->p += n;
	return add(ps, key, word, n, false);
}

static int parse_value(struct parser *ps, const char *key)
{
	int rc;

	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "expected a value");
	if (++ps->depth > MAX_DEPTH)
		return fail(ps, "nested too deeply for a report");
	switch (*ps->p) {
	case '{':
		rc = parse_object(ps, key);
		break;
	case '[':
		rc = parse_array(ps, key);
		break;
	case '"': {
		char *s;
		size_t n;

		rc = parse_string(ps, &s, &n);
		if (rc == 0) {
			rc = add(ps, key, s, n, false);
			free(s);
		}
		break;
	}
	case 't':
		rc = parse_word(ps, key, "true");
		break;
	case 'f':
		rc = parse_word(ps, key, "false");
		break;
	case 'n':
		rc = parse_word(ps, key, "null");
		break;
	default:
		rc = parse_number(ps, key);
	}
	ps->depth--;
	return rc;
}

static int read_all(const char *path, char **out, size_t *n, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, got = 0;

	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t r;

		if (got + 4096 > cap) {
			char *nb;

			cap = cap ? 2 * cap : 16384;
			nb = cap > MAX_REPORT ? NULL : realloc(buf, cap);
			if (!nb) {
				snprintf(err, len, "%s: too large for a uvmemu report", path);
				goto fail;
			}
			buf = nb;
		}
		r = fread(buf + got, 1, cap - got, f);
		got += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	*out = buf;
	*n = got;
	return 0;
fail:
	fclose(f);
	free(buf);
	return -1;
}

static bool has_prefix_key(const struct plot_report *r, const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < r->n; i++)
		if (strncmp(r->v[i].key, prefix, n) == 0)
			return true;
	return false;
}

int plot_report_read(struct plot_report *r, const char *path, char *err, size_t len)
{
	struct parser ps = {.line = 1, .r = r, .err = err, .len = len};
	const struct plot_json_value *v;
	char *buf;
	size_t n;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	if (read_all(path, &buf, &n, err, len))
		return -1;
	ps.p = buf;
	ps.end = buf + n;
	skip_ws(&ps);
	if (ps.p >= ps.end || *ps.p != '{') {
		fail(&ps, "not a uvmemu report: expected a JSON object");
		goto fail;
	}
	if (parse_value(&ps, ""))
		goto fail;
	skip_ws(&ps);
	if (ps.p < ps.end) {
		fail(&ps, "text after the report's closing '}'");
		goto fail;
	}
	free(buf);
	buf = NULL;
	v = plot_report_get(r, "schema");
	if (!v || !v->is_num || !plot_report_get(r, "wall_s") || !has_prefix_key(r, "config.")) {
		snprintf(err, len,
			 "%s: valid JSON but not a uvmemu report (needs schema, config, "
			 "wall_s)",
			 path);
		goto fail;
	}
	return 0;
fail:
	free(buf);
	plot_report_free(r);
	return -1;
}

void plot_report_free(struct plot_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].key);
		free(r->v[i].text);
	}
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

const struct plot_json_value *plot_report_get(const struct plot_report *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].key, key) == 0)
			return &r->v[i];
	return NULL;
}

int plot_report_num(const struct plot_report *r, const char *key, double *out, char *err,
		    size_t len)
{
	const struct plot_json_value *v = plot_report_get(r, key);

	if (!v || !v->is_num) {
		snprintf(err, len, "%s: %s '%s' in the report", r->path,
			 v ? "not a number:" : "no number", key);
		return -1;
	}
	*out = v->num;
	return 0;
}

const char *plot_report_str(const struct plot_report *r, const char *key, const char *def)
{
	const struct plot_json_value *v = plot_report_get(r, key);

	return v ? v->text : def;
}
