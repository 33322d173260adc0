// SPDX-License-Identifier: MIT
/*
 * gen.c - kmeans' input: points drawn around `nclusters` hidden centres
 * (uniform in the unit cube), each feature off its centre by a normal
 * deviate of standard deviation KM_SPREAD and rounded to a multiple of
 * 1/KM_STEPS, all from the seed. The blobs
 * overlap, so the memberships keep changing for a number of iterations
 * before they settle (Rodinia's inputs are files of such feature vectors).
 */
#include "kmeans.h"

#include <math.h>
#include <stdlib.h>

#define KM_SPREAD 0.25
/* Features are multiples of 1/KM_STEPS, as real inputs' features are often
 * discrete (KDD Cup's counts and flags): squared distances are then exact
 * sums and equal distances to two centres happen, so the first-smallest
 * rule decides. */
#define KM_STEPS 8

/* A standard normal deviate (Box-Muller; 1 - u keeps the log finite). */
static double normal(struct wl_rng *r)
{
	double u = 1.0 - wl_rng_unit(r), v = wl_rng_unit(r);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

void km_generate(uint64_t seed, const struct km_dims *d, float *features)
{
	const size_t nf = (size_t)d->nfeatures, nc = (size_t)d->nclusters;
	double *hidden = malloc(nc * nf * sizeof(double));
	struct wl_rng rng;

	if (!hidden) {
		fprintf(stderr, "kmeans: out of memory for the generator\n");
		exit(1);
	}
	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < nc * nf; i++)
		hidden[i] = wl_rng_unit(&rng);
	for (size_t p = 0; p < (size_t)d->npoints; p++) {
		const double *c = &hidden[wl_rng_below(&rng, nc) * nf];

		for (size_t j = 0; j < nf; j++)
			features[p * nf + j] =
			    (float)(round((c[j] + KM_SPREAD * normal(&rng)) * KM_STEPS) / KM_STEPS);
	}
	free(hidden);
}
