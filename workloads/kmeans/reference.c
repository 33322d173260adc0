// SPDX-License-Identifier: MIT
/*
 * reference.c - kmeans on the CPU: the same clustering from the same first
 * centres, each distance summed in feature order with the kernel's
 * arithmetic (km_dist_term), the first smallest distance winning as in the
 * kernel, and the same host update (host.c). It makes the same decisions as
 * the GPU run, so memberships, centres and the moved counts of every
 * iteration must agree exactly.
 */
#include "kmeans.h"

#include <float.h>
#include <stdlib.h>

static void assign(const struct km_dims *d, const float *features, const float *clusters,
		   int *membership)
{
	const size_t nf = (size_t)d->nfeatures;

	for (size_t p = 0; p < (size_t)d->npoints; p++) {
		float min_dist = FLT_MAX;
		int index = -1;

		for (int i = 0; i < d->nclusters; i++) {
			float ans = 0.0f;

			for (size_t j = 0; j < nf; j++)
				ans = km_dist_term(ans, features[p * nf + j],
						   clusters[(size_t)i * nf + j]);
			if (ans < min_dist) {
				min_dist = ans;
				index = i;
			}
		}
		membership[p] = index;
	}
}

int km_reference(const struct km_dims *d, const float *features, double threshold,
		 int max_iterations, int *membership, float *clusters, long *deltas)
{
	struct km_host h;
	int it = 0;
	long delta;

	if (km_host_alloc(&h, d))
		return -1;
	km_init_centres(d, features, clusters, &h);
	do {
		assign(d, features, clusters, membership);
		delta = km_update(d, features, membership, clusters, &h);
		deltas[it++] = delta;
	} while (delta >= 0 && km_again(delta, threshold, d->npoints, it, max_iterations));
	km_host_free(&h);
	return it;
}
