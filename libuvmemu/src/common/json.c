// SPDX-License-Identifier: MIT
/* json.c - a streaming JSON writer for reports. */
#include "json.h"

#include <inttypes.h>
#include <math.h>

void uvm_json_put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Separator, indentation and key before a member. */
static void member(struct uvm_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	fprintf(j->f, "\n%*s", 2 * (j->depth + 1), "");
	if (key) {
		uvm_json_put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open(struct uvm_json *j, const char *key, char bracket)
{
	member(j, key);
	fputc(bracket, j->f);
	if (j->depth + 1 < UVM_JSON_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

void uvm_json_begin(struct uvm_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	fputc('{', f);
	j->first[0] = true;
}

void uvm_json_end(struct uvm_json *j)
{
	while (j->depth > 0)
		uvm_json_close(j, '}');
	fputs("\n}\n", j->f);
}

void uvm_json_object(struct uvm_json *j, const char *key)
{
	open(j, key, '{');
}

void uvm_json_array(struct uvm_json *j, const char *key)
{
	open(j, key, '[');
}

void uvm_json_close(struct uvm_json *j, char bracket)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		fprintf(j->f, "\n%*s", 2 * (j->depth + 1), "");
	fputc(bracket, j->f);
}

void uvm_json_str(struct uvm_json *j, const char *key, const char *value)
{
	member(j, key);
	uvm_json_put_string(j->f, value ? value : "");
}

void uvm_json_u64(struct uvm_json *j, const char *key, uint64_t value)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, value);
}

void uvm_json_i64(struct uvm_json *j, const char *key, int64_t value)
{
	member(j, key);
	fprintf(j->f, "%" PRId64, value);
}

void uvm_json_num(struct uvm_json *j, const char *key, double value)
{
	member(j, key);
	if (isfinite(value))
		fprintf(j->f, "%.9g", value);
	else
		fputs("null", j->f);
}

void uvm_json_bool(struct uvm_json *j, const char *key, bool value)
{
	member(j, key);
	fputs(value ? "true" : "false", j->f);
}
