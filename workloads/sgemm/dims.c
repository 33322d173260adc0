// SPDX-License-Identifier: MIT
/*
 * dims.c - sgemm's matrix sizes from --m, --n, --k or --footprint, shared by
 * sgemm and mgpu-sgemm.
 */
#include "sgemm.h"

#include <math.h>

#define SGEMM_DEFAULT_DIM 1024

/*
 * --footprint: m about equal to n (m a multiple of 128, n of 16), and k the
 * same unless --k fixes it; n takes up what rounding m left over, so the
 * footprint 4 (m k + n k + m n) lands close to the request.
 */
static void size_for_footprint(const struct wl *w, struct sgemm_opts *o)
{
	const double f = (double)w->footprint / sizeof(float);
	double k = (double)o->k, n;

	if (!o->k)
		o->m = wl_round_nearest(sqrt(f / 3), SGEMM_TILE_M);
	else
		o->m = wl_round_nearest(-k + sqrt(k * k + f), SGEMM_TILE_M);
	if (!o->k) {
		/* n = k: n^2 + 2 m n = f. */
		n = -(double)o->m + sqrt((double)o->m * (double)o->m + f);
		o->n = wl_round_nearest(n, SGEMM_TILE_N);
		o->k = o->n;
	} else {
		/* m k + n k + m n = f. */
		n = (f - (double)o->m * k) / (k + (double)o->m);
		o->n = wl_round_nearest(n, SGEMM_TILE_N);
	}
}

struct sgemm_dims sgemm_choose_dims(const struct wl *w, struct sgemm_opts *o)
{
	if (w->footprint && (o->m || o->n))
		wl_usage_error(w, "--footprint sizes the matrices: it excludes --m and --n (--k "
				  "may fix k)");
	if (w->footprint) {
		const struct sgemm_dims least = {SGEMM_TILE_M, SGEMM_TILE_N,
						 o->k ? (int)o->k : SGEMM_TILE_TB_HEIGHT};

		if (w->footprint < sgemm_footprint_bytes(&least))
			wl_usage_error(w,
				       "--footprint %llu: below the smallest matrices (m %d, n %d, "
				       "k %d: %llu bytes)",
				       (unsigned long long)w->footprint, least.m, least.n, least.k,
				       (unsigned long long)sgemm_footprint_bytes(&least));
		size_for_footprint(w, o);
	}
	if (!o->m)
		o->m = SGEMM_DEFAULT_DIM;
	if (!o->n)
		o->n = SGEMM_DEFAULT_DIM;
	if (!o->k)
		o->k = SGEMM_DEFAULT_DIM;
	/* The original's condition, and k in whole staging tiles. */
	if (o->m % SGEMM_TILE_M || o->n % SGEMM_TILE_N || o->k % SGEMM_TILE_TB_HEIGHT)
		wl_usage_error(w,
			       "--m %lld --n %lld --k %lld: m must be a multiple of %d, n of %d "
			       "and k of %d",
			       o->m, o->n, o->k, SGEMM_TILE_M, SGEMM_TILE_N, SGEMM_TILE_TB_HEIGHT);
	if (o->m > SGEMM_MAX_DIM || o->n > SGEMM_MAX_DIM || o->k > SGEMM_MAX_DIM)
		wl_usage_error(w, "--m %lld --n %lld --k %lld: each must be at most %d%s", o->m,
			       o->n, o->k, SGEMM_MAX_DIM,
			       w->footprint ? " (--footprint too large)" : "");
	return (struct sgemm_dims){(int)o->m, (int)o->n, (int)o->k};
}
