// SPDX-License-Identifier: MIT
/*
 * gen.c - spmv's generated matrix, for --footprint and --rows runs: square,
 * every row holding its diagonal and distinct uniform random columns, the row
 * lengths uniform in 1 .. 2 row_nnz - 1 (so the sorted rows of JDS vary as a
 * real matrix's do), values uniform in [0, 1). Deterministic for the seed.
 */
#include "spmv.h"

#include <stdlib.h>

static void *alloc_or_die(const struct wl *w, size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size);

	if (!p) {
		fprintf(stderr, "%s: out of memory generating the matrix\n", w->name);
		exit(1);
	}
	return p;
}

/* Columns c[0..n) ascending (n is small: a row's length). */
static void sort_columns(int32_t *c, int64_t n)
{
	for (int64_t i = 1; i < n; i++) {
		int32_t v = c[i];
		int64_t k = i;

		for (; k > 0 && c[k - 1] > v; k--)
			c[k] = c[k - 1];
		c[k] = v;
	}
}

static bool taken(const int32_t *c, int64_t n, int32_t col)
{
	for (int64_t i = 0; i < n; i++)
		if (c[i] == col)
			return true;
	return false;
}

void spmv_generate(const struct wl *w, struct mtx_matrix *m, int32_t rows, int row_nnz,
		   uint64_t seed)
{
	const int64_t most = 2 * (int64_t)row_nnz - 1 < rows ? 2 * (int64_t)row_nnz - 1 : rows;
	struct wl_rng r;

	m->rows = m->cols = rows;
	m->field = MTX_REAL;
	m->symmetry = MTX_GENERAL;
	m->row_start = alloc_or_die(w, (size_t)rows + 1, sizeof(int64_t));
	wl_rng_seed(&r, seed);
	for (int32_t i = 0; i < rows; i++)
		m->row_start[i + 1] =
		    m->row_start[i] + 1 + (int64_t)wl_rng_below(&r, (uint64_t)most);
	m->nnz = m->entries = m->row_start[rows];
	m->col = alloc_or_die(w, (size_t)m->nnz, sizeof(int32_t));
	m->val = alloc_or_die(w, (size_t)m->nnz, sizeof(float));
	for (int32_t i = 0; i < rows; i++) {
		int32_t *c = m->col + m->row_start[i];
		const int64_t n = m->row_start[i + 1] - m->row_start[i];

		c[0] = i;
		for (int64_t k = 1; k < n; k++) {
			int32_t col;

			do
				col = (int32_t)wl_rng_below(&r, (uint64_t)rows);
			while (taken(c, k, col));
			c[k] = col;
		}
		sort_columns(c, n);
		for (int64_t k = 0; k < n; k++)
			m->val[m->row_start[i] + k] = (float)wl_rng_unit(&r);
	}
}
