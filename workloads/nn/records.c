// SPDX-License-Identifier: MIT
/*
 * records.c - nn's inputs: Rodinia's hurricane .db files (fixed-width text,
 * one 48-character record per line) and a generator of records in the same
 * ranges as cane4_0.db.
 *
 * A record, by column (from 0):
 *   0-3 year, 4-6 month, 7-9 day, 10-12 hour, 13-15 storm number (right-
 *   aligned integers), 16 blank, 17-26 name (left-aligned), 27-31 latitude,
 *   32-37 longitude (right-aligned, one decimal), 38-42 wind speed,
 *   43-47 pressure (right-aligned integers).
 * The original takes the latitude from columns 28-32 and the longitude from
 * 33-37 with atof; on well-formed records the fields above give the same
 * values, and a record that is not well formed is an error here instead of
 * a silently wrong location.
 */
#include "nn.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct nn_field {
	int start, width;
	const char *name;
	double lo, hi; /* accepted range */
	bool decimal;  /* one decimal (latitude, longitude), else an integer */
};

static const struct nn_field nn_fields[] = {
    {0, 4, "year", 0, 9999, false},
    {4, 3, "month", 1, 12, false},
    {7, 3, "day", 1, 31, false},
    {10, 3, "hour", 0, 23, false},
    {13, 3, "storm number", 0, 999, false},
    {27, 5, "latitude", -90, 90, true},
    {32, 6, "longitude", -360, 360, true},
    {38, 5, "wind speed", 0, 99999, false},
    {43, 5, "pressure", 0, 99999, false},
};

/* A right-aligned number filling columns start..start+width-1: blanks,
 * an optional '-', digits, and for a decimal field '.' and one digit. */
static bool parse_field(const char *line, const struct nn_field *f, double *out)
{
	char buf[8], *p = buf, *end;
	int digits = 0;

	memcpy(buf, line + f->start, (size_t)f->width);
	buf[f->width] = '\0';
	while (*p == ' ')
		p++;
	end = p;
	if (*end == '-')
		end++;
	while (isdigit((unsigned char)*end)) {
		end++;
		digits++;
	}
	if (f->decimal) {
		if (*end != '.' || !isdigit((unsigned char)end[1]))
			return false;
		end += 2;
	}
	if (!digits || *end)
		return false;
	*out = strtod(p, NULL);
	return *out >= f->lo && *out <= f->hi;
}

/* Checks one record (without its newline); NULL if well formed, else why. */
static const char *check_record(const char *line, size_t len, char *why, size_t whylen)
{
	double v;

	if (strlen(line) != len)
		return "a NUL byte inside the record";
	if (len != NN_RECORD_LENGTH) {
		snprintf(why, whylen,
			 "expected a record of %d characters (Rodinia's fixed-width format), got "
			 "%zu",
			 NN_RECORD_LENGTH, len);
		return why;
	}
	for (size_t i = 0; i < sizeof(nn_fields) / sizeof(nn_fields[0]); i++) {
		const struct nn_field *f = &nn_fields[i];

		if (!parse_field(line, f, &v)) {
			snprintf(why, whylen,
				 "%s '%.*s' (columns %d-%d): expected %s from %g to %g", f->name,
				 f->width, line + f->start, f->start + 1, f->start + f->width,
				 f->decimal ? "a number with one decimal" : "a whole number", f->lo,
				 f->hi);
			return why;
		}
	}
	if (line[16] != ' ' || line[17] == ' ') {
		snprintf(why, whylen, "name '%.11s' (columns 17-27): expected a blank, then a name",
			 line + 16);
		return why;
	}
	for (int c = 17; c < 27; c++)
		if (!isprint((unsigned char)line[c])) {
			snprintf(why, whylen, "name (columns 18-27): a control character");
			return why;
		}
	return NULL;
}

void nn_read_db(const struct wl *w, const char *path, struct nn_records *r)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, why[160];
	size_t cap = 0, alloc = 0, lineno = 0;
	ssize_t len;

	memset(r, 0, sizeof(*r));
	if (!f)
		wl_usage_error(w, "%s: cannot open: %s", path, strerror(errno));
	while ((len = getline(&line, &cap, f)) > 0) {
		const char *bad;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		bad = check_record(line, (size_t)len, why, sizeof(why));
		if (bad)
			wl_usage_error(w, "%s:%zu: %s", path, lineno, bad);
		if ((long long)r->count == NN_MAX_RECORDS)
			wl_usage_error(w, "%s:%zu: more than %lld records", path, lineno,
				       NN_MAX_RECORDS);
		if (r->count == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			r->text = realloc(r->text, alloc * sizeof(*r->text));
			if (!r->text) {
				fprintf(stderr, "nn: out of memory reading %s\n", path);
				exit(1);
			}
		}
		memcpy(r->text[r->count++], line, NN_RECORD_LENGTH + 1);
	}
	if (ferror(f))
		wl_usage_error(w, "%s:%zu: read error: %s", path, lineno + 1, strerror(errno));
	free(line);
	fclose(f);
	if (r->count == 0)
		wl_usage_error(w, "%s:1: no records", path);
}

void nn_fill_db(const struct nn_records *r, struct nn_latlong *loc)
{
	for (size_t i = 0; i < r->count; i++) {
		/* Checked by nn_read_db: the latitude and longitude fields, read in
		 * double and rounded, as the original's atof. */
		loc[i].lat = (float)strtod(r->text[i] + 27, NULL);
		loc[i].lng = (float)strtod(r->text[i] + 32, NULL);
	}
}

/* ------------------------------------------------------------ generated */

static const char *const nn_names[] = {
    "ALBERTO", "BERYL", "CHRIS",  "DEBBY", "ERNESTO", "FLORENCE", "GORDON",
    "HELENE",  "ISAAC", "JOYCE",  "KIRK",  "LESLIE",  "MICHAEL",  "NADINE",
    "OSCAR",   "PATTY", "RAFAEL", "SANDY", "TONY",    "VALERIE",  "WILLIAM",
};

/* A record's random bits: a 64-bit mix of the seed and its index. */
static uint64_t record_bits(uint64_t seed, size_t index, uint64_t salt)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ull + index * 0xd1b54a32d192ed03ull + salt;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Latitude 7.0-70.0 and longitude 0.0-358.0 in tenths, cane4_0.db's
 * ranges. */
static struct nn_latlong generated_location(uint64_t seed, size_t index)
{
	uint64_t h = record_bits(seed, index, 1);
	struct nn_latlong p = {(float)(70 + (h & 0xffffffff) % 631) / 10.0f,
			       (float)((h >> 32) % 3581) / 10.0f};

	return p;
}

void nn_generate(struct nn_records *r, uint64_t seed, size_t count, struct nn_latlong *loc)
{
	memset(r, 0, sizeof(*r));
	r->count = count;
	r->seed = seed;
	for (size_t i = 0; i < count; i++)
		loc[i] = generated_location(seed, i);
}

void nn_record_text(const struct nn_records *r, size_t index, char *buf)
{
	uint64_t h;
	struct nn_latlong p;

	if (r->text) {
		memcpy(buf, r->text[index], NN_RECORD_LENGTH + 1);
		return;
	}
	h = record_bits(r->seed, index, 2);
	p = generated_location(r->seed, index);
	snprintf(buf, NN_RECORD_LENGTH + 1, "%4d%3d%3d%3d%3d %-10s%5.1f%6.1f%5d%5d",
		 1950 + (int)(h % 55), 1 + (int)((h >> 8) % 12), 1 + (int)((h >> 16) % 28),
		 6 * (int)((h >> 24) % 4), 1 + (int)((h >> 32) % 28),
		 nn_names[(h >> 40) % (sizeof(nn_names) / sizeof(nn_names[0]))], (double)p.lat,
		 (double)p.lng, 10 + (int)((h >> 48) % 155), (int)((h >> 20) % 900));
}

void nn_records_free(struct nn_records *r)
{
	free(r->text);
	memset(r, 0, sizeof(*r));
}
