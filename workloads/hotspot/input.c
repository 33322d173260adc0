// SPDX-License-Identifier: MIT
/*
 * input.c - hotspot's inputs: a synthetic floorplan generated from a seed, or
 * Rodinia's ASCII grids (one float per line, row after row).
 */
#include "hotspot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Power of a cell of Rodinia's 512 x 512 inputs ranges over about these
 * values (W per cell); the generator stays in the same range at that size. */
#define HS_POWER_QUIET 1.7e-5
#define HS_POWER_PEAK  2.8e-3
#define HS_TEMP_BASE   323.0 /* coolest cell of the real input (K) */
#define HS_TEMP_RISE   21.0  /* hottest minus coolest in the real input (K) */
#define HS_UNITS       16    /* functional units on the generated floorplan */

/*
 * A floorplan of functional units: rectangles laid down one after another
 * (later ones cover earlier ones) on a quiet background, each with its own
 * power density. Per-cell power scales with the cell area so the chip's total
 * power does not depend on the grid size. The start temperature rises over
 * hot units, plus a little noise so that no two cells need be equal.
 */
void hs_generate(uint64_t seed, int rows, int cols, float *temp, float *power)
{
	const size_t n = (size_t)rows * (size_t)cols;
	const double area = 512.0 * 512.0 / (double)n;
	struct wl_rng rng;
	float peak = 0;

	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		power[i] = (float)(HS_POWER_QUIET * area);
	for (int u = 0; u < HS_UNITS; u++) {
		int h = 1 + (int)wl_rng_below(&rng, (uint64_t)rows / 3 + 1);
		int wd = 1 + (int)wl_rng_below(&rng, (uint64_t)cols / 3 + 1);
		int r0 = (int)wl_rng_below(&rng, (uint64_t)(rows - h + 1));
		int c0 = (int)wl_rng_below(&rng, (uint64_t)(cols - wd + 1));
		double density =
		    HS_POWER_QUIET + (HS_POWER_PEAK - HS_POWER_QUIET) * wl_rng_unit(&rng);

		for (int r = r0; r < r0 + h; r++)
			for (int c = c0; c < c0 + wd; c++)
				power[(size_t)r * (size_t)cols + (size_t)c] =
				    (float)(density * area);
	}
	for (size_t i = 0; i < n; i++)
		peak = power[i] > peak ? power[i] : peak;
	for (size_t i = 0; i < n; i++)
		temp[i] = (float)(HS_TEMP_BASE + HS_TEMP_RISE * power[i] / peak +
				  0.01 * wl_rng_unit(&rng));
}

/* Parses one line (`len` bytes as read) holding one finite number, with
 * optional blanks around it. */
static bool parse_line(char *line, size_t len, float *out)
{
	char *end;

	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	/* A NUL byte inside the line would hide what follows it. */
	if (strlen(line) != len)
		return false;
	/* Overflow gives an infinity, which is rejected; underflow to a
	 * subnormal or zero is a legitimate tiny value and kept. */
	*out = strtof(line, &end);
	if (end == line || !isfinite(*out))
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	return *end == '\0';
}

float *hs_read_grid(const struct wl *w, const char *path, size_t expect, size_t *count)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0, alloc = 0;
	float *v = NULL;
	ssize_t len;

	if (!f)
		wl_usage_error(w, "%s: cannot open: %s", path, strerror(errno));
	while ((len = getline(&line, &cap, f)) > 0) {
		if (expect && n == expect)
			wl_usage_error(w, "%s:%zu: more than the %zu values of the grid", path,
				       n + 1, expect);
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			v = realloc(v, alloc * sizeof(*v));
			if (!v) {
				fprintf(stderr, "hotspot: out of memory reading %s\n", path);
				exit(1);
			}
		}
		if (!parse_line(line, (size_t)len, &v[n]))
			wl_usage_error(w, "%s:%zu: expected one number per line, got '%.40s'", path,
				       n + 1, line);
		n++;
	}
	if (ferror(f))
		wl_usage_error(w, "%s:%zu: read error: %s", path, n + 1, strerror(errno));
	free(line);
	fclose(f);
	if (n == 0)
		wl_usage_error(w, "%s:1: no values", path);
	if (expect && n < expect)
		wl_usage_error(w, "%s:%zu: file ends after %zu values, the grid has %zu", path,
			       n + 1, n, expect);
	*count = n;
	return v;
}
