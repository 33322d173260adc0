// SPDX-License-Identifier: MIT
/*
 * host.c - kmeans' host work between the kernels (the original's
 * kmeans_clustering loop and the tail of kmeansCuda). The GPU run and the
 * CPU reference both call it, so their centres are computed by the same
 * float operations; in the GPU run it reads the memberships and features
 * from managed memory every iteration.
 */
#include "kmeans.h"

#include <stdlib.h>
#include <string.h>

int km_host_alloc(struct km_host *h, const struct km_dims *d)
{
	h->membership = malloc((size_t)d->npoints * sizeof(int));
	h->new_centers = calloc((size_t)d->nclusters * (size_t)d->nfeatures, sizeof(float));
	h->new_centers_len = calloc((size_t)d->nclusters, sizeof(int));
	if (!h->membership || !h->new_centers || !h->new_centers_len) {
		km_host_free(h);
		return -1;
	}
	return 0;
}

void km_host_free(struct km_host *h)
{
	free(h->membership);
	free(h->new_centers);
	free(h->new_centers_len);
	memset(h, 0, sizeof(*h));
}

void km_init_centres(const struct km_dims *d, const float *features, float *clusters,
		     struct km_host *h)
{
	const size_t nf = (size_t)d->nfeatures;

	/* The original's "random" pick walks n from 0: the first points. */
	for (size_t c = 0; c < (size_t)d->nclusters; c++)
		for (size_t j = 0; j < nf; j++)
			clusters[c * nf + j] = features[c * nf + j];
	for (size_t i = 0; i < (size_t)d->npoints; i++)
		h->membership[i] = -1;
}

long km_update(const struct km_dims *d, const float *features, const int *membership_new,
	       float *clusters, struct km_host *h)
{
	const size_t nf = (size_t)d->nfeatures;
	long delta = 0;

	for (size_t i = 0; i < (size_t)d->npoints; i++) {
		const int id = membership_new[i];

		/* A corrupted membership must fail the check, not the host. */
		if (id < 0 || id >= d->nclusters)
			return -1;
		h->new_centers_len[id]++;
		if (id != h->membership[i]) {
			delta++;
			h->membership[i] = id;
		}
		for (size_t j = 0; j < nf; j++)
			h->new_centers[(size_t)id * nf + j] += features[i * nf + j];
	}
	for (size_t c = 0; c < (size_t)d->nclusters; c++) {
		for (size_t j = 0; j < nf; j++) {
			if (h->new_centers_len[c] > 0)
				clusters[c * nf + j] =
				    h->new_centers[c * nf + j] / (float)h->new_centers_len[c];
			h->new_centers[c * nf + j] = 0;
		}
		h->new_centers_len[c] = 0;
	}
	return delta;
}
