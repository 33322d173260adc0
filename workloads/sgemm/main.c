// SPDX-License-Identifier: MIT
/*
 * main.c - sgemm (Parboil): C = A B^T on generated matrices in managed
 * memory, one register-tiled kernel launch, checked bit for bit against a
 * CPU reference that sums every element in the same order.
 */
#include "sgemm.h"

#include <math.h>
#include <stdlib.h>

/* Parboil computes C = 1 A B^T + 0 C. */
#define SGEMM_ALPHA	  1.0f
#define SGEMM_BETA	  0.0f
#define SGEMM_DEFAULT_DIM 1024

struct sgemm_opts {
	long long m, n, k;
};

static long long round_to(double x, long long q)
{
	long long v = llround(x / (double)q) * q;

	return v < q ? q : v;
}

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
		o->m = round_to(sqrt(f / 3), SGEMM_TILE_M);
	else
		o->m = round_to(-k + sqrt(k * k + f), SGEMM_TILE_M);
	if (!o->k) {
		/* n = k: n^2 + 2 m n = f. */
		n = -(double)o->m + sqrt((double)o->m * (double)o->m + f);
		o->n = round_to(n, SGEMM_TILE_N);
		o->k = o->n;
	} else {
		/* m k + n k + m n = f. */
		n = (f - (double)o->m * k) / (k + (double)o->m);
		o->n = round_to(n, SGEMM_TILE_N);
	}
}

static void choose_dims(const struct wl *w, struct sgemm_opts *o)
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
}

int main(int argc, char **argv)
{
	struct sgemm_opts o = {0};
	const struct wl_opt opts[] = {
	    {"m", WL_INT, &o.m, SGEMM_TILE_M, SGEMM_MAX_DIM,
	     "rows of A and C, a multiple of 128 (default 1024)"},
	    {"n", WL_INT, &o.n, SGEMM_TILE_N, SGEMM_MAX_DIM,
	     "rows of B, columns of C, a multiple of 16 (default 1024)"},
	    {"k", WL_INT, &o.k, SGEMM_TILE_TB_HEIGHT, SGEMM_MAX_DIM,
	     "columns of A and B, a multiple of 8 (default 1024; with --footprint, fixes k)"},
	    {NULL},
	};
	struct sgemm_dims d;
	struct wl w;
	float *a, *b, *c, *ref;
	size_t nc;
	double sum = 0;
	bool pass;

	wl_init(&w, "sgemm", "Parboil sgemm: C = A B^T, register-tiled", argc, argv, opts);
	choose_dims(&w, &o);
	d = (struct sgemm_dims){(int)o.m, (int)o.n, (int)o.k};
	nc = (size_t)d.m * (size_t)d.n;
	a = wl_managed(&w, (size_t)d.m * (size_t)d.k * sizeof(float), "A");
	b = wl_managed(&w, (size_t)d.n * (size_t)d.k * sizeof(float), "B");
	c = wl_managed(&w, nc * sizeof(float), "C");
	wl_footprint(&w, sgemm_footprint_bytes(&d));
	uvmemu_report_value("m", d.m);
	uvmemu_report_value("n", d.n);
	uvmemu_report_value("k", d.k);
	wl_log(&w, "C (%d x %d) = A (%d x %d) B^T (%d x %d): 1 launch of %d x %d CTAs", d.m, d.n,
	       d.m, d.k, d.k, d.n, d.m / SGEMM_TILE_M, d.n / SGEMM_TILE_N);

	sgemm_generate(w.seed, a, b, &d);
	/* The reference runs first, while A and B are still where the CPU
	 * wrote them; C is first touched by the GPU, as Parboil's device C. */
	ref = calloc(nc, sizeof(float));
	if (!ref) {
		fprintf(stderr, "sgemm: out of memory for the CPU reference\n");
		return 1;
	}
	sgemm_reference(a, b, ref, &d, SGEMM_ALPHA, SGEMM_BETA);

	uvmemu_roi_begin();
	sgemm_run_gpu(&w, a, b, c, &d, SGEMM_ALPHA, SGEMM_BETA);
	uvmemu_roi_end();

	for (size_t i = 0; i < nc; i++)
		sum += c[i];
	wl_log(&w, "sum of C = %.9g", sum);
	pass = wl_check_f32_exact(&w, "C", c, ref, nc);
	wl_output_f32(&w, "C", c, nc);
	free(ref);
	WL_CHECK(&w, cudaFree(a));
	WL_CHECK(&w, cudaFree(b));
	WL_CHECK(&w, cudaFree(c));
	return wl_finish(&w, pass);
}
