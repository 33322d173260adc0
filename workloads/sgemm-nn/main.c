// SPDX-License-Identifier: MIT
/*
 * main.c - sgemm-nn: C = A B on generated column-major matrices in managed
 * memory with cuBLAS's large-matrix tiling, one launch, checked bit for bit
 * against a CPU reference that sums every element in the same order.
 */
#include "sgemm_nn.h"

#include <math.h>
#include <stdlib.h>

#define NN_DEFAULT_DIM 1024

struct nn_opts {
	long long m, n, k;
};

/*
 * --footprint: square matrices (m = n = k, a multiple of 128), or, with --k,
 * m = n filling the rest: 4 (2 m k + m^2) bytes.
 */
static void size_for_footprint(const struct wl *w, struct nn_opts *o)
{
	const double f = (double)w->footprint / sizeof(float);

	if (!o->k) {
		o->m = wl_round_nearest(sqrt(f / 3), NN_TILE);
		o->k = o->m;
	} else {
		const double k = (double)o->k;

		o->m = wl_round_nearest(-k + sqrt(k * k + f), NN_TILE);
	}
	o->n = o->m;
}

static struct nn_dims choose_dims(const struct wl *w, struct nn_opts *o)
{
	if (w->footprint && (o->m || o->n))
		wl_usage_error(w, "--footprint sizes the matrices: it excludes --m and --n (--k "
				  "may fix k)");
	if (w->footprint) {
		const struct nn_dims least = {NN_TILE, NN_TILE, o->k ? (int)o->k : NN_KSTEP};

		if (w->footprint < nn_footprint_bytes(&least))
			wl_usage_error(w,
				       "--footprint %llu: below the smallest matrices (m %d, n %d, "
				       "k %d: %llu bytes)",
				       (unsigned long long)w->footprint, least.m, least.n, least.k,
				       (unsigned long long)nn_footprint_bytes(&least));
		size_for_footprint(w, o);
	}
	if (!o->m)
		o->m = NN_DEFAULT_DIM;
	if (!o->n)
		o->n = NN_DEFAULT_DIM;
	if (!o->k)
		o->k = NN_DEFAULT_DIM;
	if (o->m % NN_TILE || o->n % NN_TILE || o->k % NN_KSTEP)
		wl_usage_error(w,
			       "--m %lld --n %lld --k %lld: m and n must be multiples of %d, k of "
			       "%d",
			       o->m, o->n, o->k, NN_TILE, NN_KSTEP);
	if (o->m > NN_MAX_DIM || o->n > NN_MAX_DIM || o->k > NN_MAX_DIM)
		wl_usage_error(w, "--m %lld --n %lld --k %lld: each must be at most %d%s", o->m,
			       o->n, o->k, NN_MAX_DIM,
			       w->footprint ? " (--footprint too large)" : "");
	return (struct nn_dims){(int)o->m, (int)o->n, (int)o->k};
}

static void generate(uint64_t seed, float *a, float *b, const struct nn_dims *d)
{
	const size_t na = (size_t)d->m * (size_t)d->k, nb = (size_t)d->k * (size_t)d->n;
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	wl_rng_fill_signed(&rng, a, na);
	wl_rng_fill_signed(&rng, b, nb);
}

int main(int argc, char **argv)
{
	struct nn_opts o = {0};
	const struct wl_opt opts[] = {
	    {"m", WL_INT, &o.m, NN_TILE, NN_MAX_DIM,
	     "rows of A and C, a multiple of 128 (default 1024)"},
	    {"n", WL_INT, &o.n, NN_TILE, NN_MAX_DIM,
	     "columns of B and C, a multiple of 128 (default 1024)"},
	    {"k", WL_INT, &o.k, NN_KSTEP, NN_MAX_DIM,
	     "columns of A, rows of B, a multiple of 8 (default 1024; with --footprint, "
	     "fixes k)"},
	    {0},
	};
	struct nn_dims d;
	struct wl w;
	float *a, *b, *c, *ref;
	size_t nc;
	bool pass;

	wl_init(&w, "sgemm-nn", "C = A B with cuBLAS's NN tiling (128 x 128 tiles)", argc, argv,
		opts);
	d = choose_dims(&w, &o);
	nc = (size_t)d.m * (size_t)d.n;
	a = wl_managed(&w, (size_t)d.m * (size_t)d.k * sizeof(float), "A");
	b = wl_managed(&w, (size_t)d.k * (size_t)d.n * sizeof(float), "B");
	c = wl_managed(&w, nc * sizeof(float), "C");
	wl_footprint(&w, nn_footprint_bytes(&d));
	uvmemu_report_value("m", d.m);
	uvmemu_report_value("n", d.n);
	uvmemu_report_value("k", d.k);
	wl_log(&w, "C (%d x %d) = A (%d x %d) B (%d x %d): 1 launch of %d x %d CTAs of %d threads",
	       d.m, d.n, d.m, d.k, d.k, d.n, d.m / NN_TILE, d.n / NN_TILE, NN_THREADS);

	generate(w.seed, a, b, &d);
	/* The reference runs first, while A and B are still where the CPU
	 * wrote them; C is first touched by the GPU. */
	ref = malloc(nc * sizeof(float));
	if (!ref) {
		fprintf(stderr, "sgemm-nn: out of memory for the CPU reference\n");
		return 1;
	}
	nn_reference(a, b, ref, &d);

	uvmemu_roi_begin();
	nn_run_gpu(&w, a, b, c, &d);
	uvmemu_roi_end();

	wl_log(&w, "sum of C = %.9g", wl_sum_f32(c, nc));
	pass = wl_check_f32_exact(&w, "C", c, ref, nc);
	wl_output_f32(&w, "C", c, nc);
	free(ref);
	WL_CHECK(&w, cudaFree(a));
	WL_CHECK(&w, cudaFree(b));
	WL_CHECK(&w, cudaFree(c));
	return wl_finish(&w, pass);
}
