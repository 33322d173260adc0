/* SPDX-License-Identifier: MIT */
/*
 * kmeans.h - Rodinia kmeans: Lloyd's k-means. Per iteration a kernel assigns
 * every point to its nearest centre and the host, reading the memberships
 * from managed memory, recomputes the centres. Declarations, the distance
 * arithmetic shared by the kernel and the CPU reference, and the host step
 * both runs share.
 */
#ifndef KMEANS_H
#define KMEANS_H

#include <stdbool.h>
#include <stddef.h>

#include "wl.h"

/* The original's THREADS_PER_BLOCK (16 x 16, run as a 1-D block of 256). */
#define KM_THREADS 256
/* The original's loop bound: at most 500 iterations. */
#define KM_MAX_ITERATIONS 500

struct km_dims {
	int npoints, nfeatures, nclusters;
};

/* The managed arrays. */
struct km_data {
	float *features; /* npoints x nfeatures, as read (host-written) */
	float *flipped;	 /* nfeatures x npoints: invert_mapping's transpose */
	int *membership; /* npoints: nearest centre, written by the kernel */
	float *clusters; /* nclusters x nfeatures: centres, written by the host */
};

/* The host's state between iterations (host memory, as in the original). */
struct km_host {
	int *membership;      /* the previous iteration's memberships, -1 at first */
	float *new_centers;   /* nclusters x nfeatures sums */
	int *new_centers_len; /* points per centre */
};

/* One term of a squared distance, in feature order from 0. */
static inline float km_dist_term(float ans, float feature, float centre)
{
	float diff = feature - centre;

	return ans + diff * diff;
}

static inline uint64_t km_footprint_bytes(const struct km_dims *d)
{
	const uint64_t np = (uint64_t)d->npoints, nf = (uint64_t)d->nfeatures;

	return 2 * np * nf * sizeof(float) + np * sizeof(int) +
	       (uint64_t)d->nclusters * nf * sizeof(float);
}

/* Points in `nclusters` Gaussian blobs from the seed (gen.c). */
void km_generate(uint64_t seed, const struct km_dims *d, float *features);

/*
 * host.c: the original's host work. km_init_centres takes the first
 * nclusters points as centres and sets every membership to -1. km_update
 * reads the kernel's memberships, counts the points that moved (returned),
 * sums every point into its centre in point order and sets each centre to
 * sum / count (a centre with no points keeps its place). A membership out
 * of range gives -1.
 */
int km_host_alloc(struct km_host *h, const struct km_dims *d);
void km_host_free(struct km_host *h);
void km_init_centres(const struct km_dims *d, const float *features, float *clusters,
		     struct km_host *h);
long km_update(const struct km_dims *d, const float *features, const int *membership_new,
	       float *clusters, struct km_host *h);

/* Whether another iteration runs: more than threshold * npoints points
 * moved, and fewer than max iterations ran. */
static inline bool km_again(long delta, double threshold, int npoints, int iterations,
			    int max_iterations)
{
	return (double)delta > threshold * (double)npoints && iterations < max_iterations;
}

/* The clustering on the device (kernels.c): invert_mapping once, then per
 * iteration kmeansPoint and the host update. Returns the iterations run;
 * deltas[i] is iteration i's count of moved points. */
int km_run_gpu(const struct wl *w, const struct km_dims *d, const struct km_data *g,
	       double threshold, int max_iterations, long *deltas);

/* The same on the CPU from the same features (reference.c); fills
 * membership and clusters. Returns the iterations run, or -1 when out of
 * memory. */
int km_reference(const struct km_dims *d, const float *features, double threshold,
		 int max_iterations, int *membership, float *clusters, long *deltas);

#endif
