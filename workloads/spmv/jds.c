// SPDX-License-Identifier: MIT
/*
 * jds.c - CSR to jagged diagonal storage, as Parboil's converter lays it out:
 * rows sorted by length (longest first, ties in row order), slices of 32
 * sorted rows, each slice as long as its longest row, diagonal k the k-th
 * entries of the slices that have one, padded with zeros to whole slices.
 */
#include "spmv.h"

#include <stdlib.h>

static int32_t row_len(const struct mtx_matrix *m, int32_t r)
{
	return (int32_t)(m->row_start[r + 1] - m->row_start[r]);
}

/* Rows sorted by length, longest first, stable: a counting sort. Returns a
 * malloc'd array of rows entries, or NULL. */
static int32_t *sorted_rows(const struct mtx_matrix *m, int32_t longest)
{
	int64_t *start = calloc((size_t)longest + 2, sizeof(int64_t));
	int32_t *perm = malloc((size_t)m->rows * sizeof(int32_t));

	if (!start || !perm) {
		free(start);
		free(perm);
		return NULL;
	}
	/* Bucket of length L is at start[longest - L]. */
	for (int32_t r = 0; r < m->rows; r++)
		start[longest - row_len(m, r) + 1]++;
	for (int32_t b = 0; b <= longest; b++)
		start[b + 1] += start[b];
	for (int32_t r = 0; r < m->rows; r++)
		perm[start[longest - row_len(m, r)]++] = r;
	free(start);
	return perm;
}

static int32_t longest_row(const struct mtx_matrix *m)
{
	int32_t longest = 0;

	for (int32_t r = 0; r < m->rows; r++)
		if (row_len(m, r) > longest)
			longest = row_len(m, r);
	return longest;
}

/* Sum over slices of 32 x the slice's longest row: the longest rows sort
 * first, so slice s's longest is the (32 s)-th longest row. */
int64_t spmv_jds_len(const struct mtx_matrix *m)
{
	const int32_t longest = longest_row(m);
	int64_t *count = calloc((size_t)longest + 1, sizeof(int64_t));
	int64_t len = 0, seen = 0;

	if (!count)
		return -1;
	for (int32_t r = 0; r < m->rows; r++)
		count[row_len(m, r)]++;
	/* Walk the lengths from the longest: every 32nd sorted row starts a
	 * slice of that length. */
	for (int32_t l = longest; l >= 0; l--) {
		int64_t first = seen, last = seen + count[l]; /* sorted rows [first, last) */
		int64_t starts =
		    (last + SPMV_SLICE - 1) / SPMV_SLICE - (first + SPMV_SLICE - 1) / SPMV_SLICE;

		len += starts * SPMV_SLICE * l;
		seen = last;
	}
	free(count);
	return len;
}

uint64_t spmv_footprint_bytes(const struct mtx_matrix *m)
{
	const uint64_t slices = ((uint64_t)m->rows + SPMV_SLICE - 1) / SPMV_SLICE;
	const uint64_t diags = (uint64_t)longest_row(m);

	const uint64_t len = (uint64_t)spmv_jds_len(m);

	/* Empty arrays still take one element, as spmv_jds_build allocates. */
	return (len ? len : 1) * (sizeof(float) + sizeof(int32_t)) +
	       (uint64_t)m->rows * (sizeof(int32_t) + sizeof(float)) + /* perm, y */
	       (diags ? diags : 1) * sizeof(int32_t) + slices * sizeof(int32_t) +
	       (uint64_t)m->cols * sizeof(float);
}

void spmv_jds_build(const struct wl *w, const struct mtx_matrix *m, struct spmv_jds *j)
{
	int32_t *perm;
	int64_t at = 0;

	j->rows = m->rows;
	j->cols = m->cols;
	j->slices = (int32_t)(((int64_t)m->rows + SPMV_SLICE - 1) / SPMV_SLICE);
	j->diags = longest_row(m);
	j->len = spmv_jds_len(m);
	/* The original indexes the slots with int. */
	if (j->len < 0 || j->len > INT32_MAX)
		wl_usage_error(w, "the matrix needs %lld JDS slots, more than 2^31 - 1",
			       (long long)j->len);
	perm = sorted_rows(m, j->diags);
	if (!perm) {
		fprintf(stderr, "%s: out of memory converting the matrix\n", w->name);
		exit(1);
	}
	j->data = wl_managed(w, (size_t)(j->len ? j->len : 1) * sizeof(float), "data");
	j->index = wl_managed(w, (size_t)(j->len ? j->len : 1) * sizeof(int32_t), "index");
	j->perm = wl_managed(w, (size_t)j->rows * sizeof(int32_t), "perm");
	j->jds_ptr = wl_managed(w, (size_t)(j->diags ? j->diags : 1) * sizeof(int32_t), "jds_ptr");
	j->zcnt = wl_managed(w, (size_t)j->slices * sizeof(int32_t), "sh_zcnt");
	j->x = wl_managed(w, (size_t)j->cols * sizeof(float), "x");
	j->y = wl_managed(w, (size_t)j->rows * sizeof(float), "y");

	for (int32_t ix = 0; ix < j->rows; ix++)
		j->perm[ix] = perm[ix];
	for (int32_t s = 0; s < j->slices; s++)
		j->zcnt[s] = row_len(m, perm[(int64_t)s * SPMV_SLICE]);
	/* Diagonal k spans the slices whose longest row is longer than k: a
	 * prefix of the slices, since they are sorted. */
	for (int32_t k = 0, s = j->slices; k < j->diags; k++) {
		while (s > 0 && j->zcnt[s - 1] <= k)
			s--;
		j->jds_ptr[k] = (int32_t)at;
		at += (int64_t)s * SPMV_SLICE;
	}
	for (int32_t k = 0; k < j->diags; k++)
		for (int64_t ix = 0; ix < (int64_t)j->slices * SPMV_SLICE; ix++) {
			const int64_t slot = j->jds_ptr[k] + ix;
			int32_t r;

			if (j->zcnt[ix / SPMV_SLICE] <= k)
				break; /* this and later slices end before diagonal k */
			r = ix < j->rows ? perm[ix] : -1;
			if (r >= 0 && row_len(m, r) > k) {
				j->data[slot] = m->val[m->row_start[r] + k];
				j->index[slot] = m->col[m->row_start[r] + k];
			} else {
				j->data[slot] = 0.0f;
				j->index[slot] = 0;
			}
		}
	free(perm);
}

void spmv_jds_free(const struct wl *w, struct spmv_jds *j)
{
	WL_CHECK(w, cudaFree(j->data));
	WL_CHECK(w, cudaFree(j->index));
	WL_CHECK(w, cudaFree(j->perm));
	WL_CHECK(w, cudaFree(j->jds_ptr));
	WL_CHECK(w, cudaFree(j->zcnt));
	WL_CHECK(w, cudaFree(j->x));
	WL_CHECK(w, cudaFree(j->y));
}
