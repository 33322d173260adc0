// SPDX-License-Identifier: MIT
/*
 * main.c - kmeans (Rodinia): k-means clustering of generated points in
 * managed memory. invert_mapping once, then per iteration kmeansPoint on the
 * device and the centre update on the host, until at most threshold x
 * npoints points move (or 500 iterations). Memberships, centres and the
 * moved counts of every iteration are checked exactly against a CPU
 * reference that makes the same decisions.
 */
#include "kmeans.h"

#include <stdlib.h>

/* Rodinia's 204800.txt input: 204800 points of 34 features, 5 clusters. */
#define KM_DEFAULT_POINTS   204800
#define KM_DEFAULT_FEATURES 34
#define KM_DEFAULT_CLUSTERS 5
#define KM_MAX_POINTS	    (1 << 28)

struct km_opts {
	long long points, features, clusters, max_iterations;
	double threshold;
};

static void choose_dims(const struct wl *w, struct km_opts *o, struct km_dims *d)
{
	if (w->footprint && o->points)
		wl_usage_error(w, "--footprint and --points both set the problem size; give one");
	if (!(o->threshold >= 0 && o->threshold <= 1))
		wl_usage_error(w, "--threshold %g: expected a fraction from 0 to 1", o->threshold);
	if (o->clusters > o->points && o->points)
		wl_usage_error(w, "--clusters %lld: more centres than the %lld points", o->clusters,
			       o->points);
	if (w->footprint) {
		/* Features twice (as read and transposed), a membership per
		 * point, and the centres. */
		double per_point = (2.0 * (double)o->features + 1) * sizeof(float);
		double rest =
		    (double)w->footprint - (double)(o->clusters * o->features) * sizeof(float);

		o->points = (long long)(rest / per_point + 0.5);
		if (o->points < o->clusters || o->points > KM_MAX_POINTS)
			wl_usage_error(w,
				       "--footprint %llu gives %lld points; accepted %lld to %d "
				       "(with %lld features)",
				       (unsigned long long)w->footprint, o->points, o->clusters,
				       KM_MAX_POINTS, o->features);
	}
	if (!o->points)
		o->points = KM_DEFAULT_POINTS;
	if (o->points * o->features > (1ll << 31) - 1)
		wl_usage_error(w, "%lld points of %lld features: more than 2^31 - 1 values",
			       o->points, o->features);
	*d = (struct km_dims){(int)o->points, (int)o->features, (int)o->clusters};
}

static bool check(const struct wl *w, const struct km_dims *d, const struct km_data *g,
		  int iterations, const long *deltas, const float *features,
		  const struct km_opts *o)
{
	const size_t nc = (size_t)d->nclusters * (size_t)d->nfeatures;
	int *membership = malloc((size_t)d->npoints * sizeof(int));
	float *clusters = malloc(nc * sizeof(float));
	long *ref_deltas = calloc(KM_MAX_ITERATIONS, sizeof(long));
	int ref_iterations;
	bool pass;

	if (!membership || !clusters || !ref_deltas ||
	    (ref_iterations = km_reference(d, features, o->threshold, (int)o->max_iterations,
					   membership, clusters, ref_deltas)) < 0) {
		fprintf(stderr, "kmeans: out of memory for the CPU reference\n");
		exit(1);
	}
	pass = ref_iterations == iterations;
	if (!pass)
		fprintf(stderr, "kmeans: %d iterations, the reference took %d\n", iterations,
			ref_iterations);
	pass &= wl_check_u64(w, "moved points per iteration", (const uint64_t *)deltas,
			     (const uint64_t *)ref_deltas, (size_t)iterations);
	pass &= wl_check_i32(w, "membership", g->membership, membership, (size_t)d->npoints);
	pass &= wl_check_f32_exact(w, "centres", g->clusters, clusters, nc);
	free(membership);
	free(clusters);
	free(ref_deltas);
	return pass;
}

int main(int argc, char **argv)
{
	struct km_opts o = {.features = KM_DEFAULT_FEATURES,
			    .clusters = KM_DEFAULT_CLUSTERS,
			    .max_iterations = KM_MAX_ITERATIONS,
			    .threshold = 0.001};
	const struct wl_opt opts[] = {
	    {"points", WL_INT, &o.points, 1, KM_MAX_POINTS, "points (default 204800)"},
	    {"features", WL_INT, &o.features, 1, 1024, "features per point (default 34)"},
	    {"clusters", WL_INT, &o.clusters, 1, 1024, "centres k (default 5)"},
	    {"threshold", WL_DOUBLE, &o.threshold, 0, 0,
	     "stop when at most this fraction of points moved (default 0.001)"},
	    {"max-iterations", WL_INT, &o.max_iterations, 1, KM_MAX_ITERATIONS,
	     "at most this many iterations (default 500, the original's bound)"},
	    {0},
	};
	struct km_dims d;
	struct km_data g;
	struct wl w;
	long *deltas;
	int iterations, sizes[8] = {0};
	bool pass;

	wl_init(&w, "kmeans", "Rodinia kmeans: k-means clustering, centres recomputed on the host",
		argc, argv, opts);
	choose_dims(&w, &o, &d);
	g.features =
	    wl_managed(&w, (size_t)d.npoints * (size_t)d.nfeatures * sizeof(float), "features");
	g.flipped = wl_managed(&w, (size_t)d.npoints * (size_t)d.nfeatures * sizeof(float),
			       "features (transposed)");
	g.membership = wl_managed(&w, (size_t)d.npoints * sizeof(int), "membership");
	g.clusters =
	    wl_managed(&w, (size_t)d.nclusters * (size_t)d.nfeatures * sizeof(float), "clusters");
	wl_footprint(&w, km_footprint_bytes(&d));
	uvmemu_report_value("points", d.npoints);
	uvmemu_report_value("features", d.nfeatures);
	uvmemu_report_value("clusters", d.nclusters);
	wl_log(&w, "%d points, %d features, %d clusters, threshold %g, at most %lld iterations",
	       d.npoints, d.nfeatures, d.nclusters, o.threshold, o.max_iterations);

	km_generate(w.seed, &d, g.features);
	deltas = calloc(KM_MAX_ITERATIONS, sizeof(long));
	if (!deltas) {
		fprintf(stderr, "kmeans: out of memory\n");
		return 1;
	}

	uvmemu_roi_begin();
	iterations = km_run_gpu(&w, &d, &g, o.threshold, (int)o.max_iterations, deltas);
	uvmemu_roi_end();
	uvmemu_report_value("iterations", iterations);

	for (int i = 0; i < d.npoints; i++)
		if (g.membership[i] >= 0 && g.membership[i] < 8)
			sizes[g.membership[i]]++;
	wl_log(&w,
	       "%d iterations (%d launches), %ld points moved in the last; sizes of the "
	       "first clusters: %d %d %d %d %d",
	       iterations, iterations + 1, deltas[iterations - 1], sizes[0], sizes[1], sizes[2],
	       sizes[3], sizes[4]);
	/* The reference reads the features after the GPU run: the check is
	 * not part of the region of interest. */
	pass = check(&w, &d, &g, iterations, deltas, g.features, &o);
	wl_output_f32(&w, "centres", g.clusters, (size_t)d.nclusters * (size_t)d.nfeatures);
	wl_output_i32(&w, "membership", g.membership, (size_t)d.npoints);
	free(deltas);
	WL_CHECK(&w, cudaFree(g.features));
	WL_CHECK(&w, cudaFree(g.flipped));
	WL_CHECK(&w, cudaFree(g.membership));
	WL_CHECK(&w, cudaFree(g.clusters));
	return wl_finish(&w, pass);
}
