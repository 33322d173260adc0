// SPDX-License-Identifier: MIT
/*
 * kernels.c - kmeans' two kernels and the clustering loop on the device.
 *
 * invert_mapping (once, 256 threads per CTA, one thread per point)
 * transposes the features to feature-major order, so that kmeansPoint's
 * threads read consecutive points of one feature (coalesced). kmeansPoint
 * (one thread per point, 256 per CTA, on a square 2-D grid of
 * floor(sqrt(blocks)) + 1 CTAs a side as the original) computes the squared
 * distance to every centre in feature order and keeps the first smallest;
 * the centres come from managed memory the host rewrote (the original's
 * constant memory, copied every iteration). The host then reads all the
 * memberships and recomputes the centres (host.c).
 */
#include "kmeans.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "emugpu.h"

struct invert_mapping_args {
	const float *input;
	float *output;
	int64_t npoints, nfeatures;
};

struct kmeansPoint_args {
	const float *features; /* flipped: nfeatures x npoints */
	const float *clusters;
	int *membership;
	int64_t npoints, nfeatures, nclusters;
};

EMU_KERNEL(invert_mapping, struct invert_mapping_args)
{
	const size_t np = (size_t)args->npoints, nf = (size_t)args->nfeatures;

	EMU_FOR_THREADS {
		const size_t point_id = threadIdx.x + (size_t)blockDim.x * blockIdx.x;

		if (point_id >= np)
			EMU_RETURN;
		for (size_t i = 0; i < nf; i++)
			st_global(&args->output[point_id + np * i],
				  ld_global(&args->input[point_id * nf + i]));
	}
}

EMU_KERNEL(kmeansPoint, struct kmeansPoint_args)
{
	const size_t np = (size_t)args->npoints, nf = (size_t)args->nfeatures;
	const int nclusters = (int)args->nclusters;
	const size_t block_id = (size_t)gridDim.x * blockIdx.y + blockIdx.x;

	EMU_FOR_THREADS {
		const size_t point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
		float min_dist = FLT_MAX;
		int index = -1;

		if (point_id >= np)
			EMU_RETURN;
		for (int i = 0; i < nclusters; i++) {
			const float *centre = &args->clusters[(size_t)i * nf];
			float ans = 0.0f;

			for (size_t j = 0; j < nf; j++)
				ans =
				    km_dist_term(ans, ld_global(&args->features[point_id + j * np]),
						 ld_global(&centre[j]));
			/* Strictly smaller: ties go to the lower centre. */
			if (ans < min_dist) {
				min_dist = ans;
				index = i;
			}
		}
		st_global(&args->membership[point_id], index);
	}
}

int km_run_gpu(const struct wl *w, const struct km_dims *d, const struct km_data *g,
	       double threshold, int max_iterations, long *deltas)
{
	const unsigned blocks = (unsigned)((d->npoints + KM_THREADS - 1) / KM_THREADS);
	const unsigned perdim = (unsigned)sqrt((double)blocks) + 1;
	const dim3 block = emu_dim3(KM_THREADS, 1, 1);
	struct km_host h;
	int it = 0;
	long delta;

	if (km_host_alloc(&h, d)) {
		fprintf(stderr, "kmeans: out of memory for the host's arrays\n");
		exit(1);
	}
	WL_CHECK(w, EMU_LAUNCH(invert_mapping, emu_dim3(blocks, 1, 1), block, 0, g->features,
			       g->flipped, d->npoints, d->nfeatures));
	WL_CHECK(w, cudaDeviceSynchronize());
	km_init_centres(d, g->features, g->clusters, &h);
	do {
		WL_CHECK(w, EMU_LAUNCH(kmeansPoint, emu_dim3(perdim, perdim, 1), block, 0,
				       g->flipped, g->clusters, g->membership, d->npoints,
				       d->nfeatures, d->nclusters));
		WL_CHECK(w, cudaDeviceSynchronize());
		/* The host reads every membership and the features, and
		 * rewrites the centres the next launch reads. */
		delta = km_update(d, g->features, g->membership, g->clusters, &h);
		deltas[it++] = delta;
		if (delta < 0)
			break;
	} while (km_again(delta, threshold, d->npoints, it, max_iterations));
	km_host_free(&h);
	return it;
}
