// SPDX-License-Identifier: MIT
/*
 * kernel.c - nn's kernel, euclid: one thread per record, CTAs of 256, each
 * thread reading its record's latitude and longitude and writing its
 * distance to the query point. Pure streaming, one launch.
 */
#include "nn.h"

#include "emugpu.h"

struct euclid_args {
	const struct nn_latlong *d_locations;
	float *d_distances;
	int64_t num_records;
	float lat, lng;
};

EMU_KERNEL(euclid, struct euclid_args)
{
	EMU_FOR_THREADS {
		const int64_t global_id =
		    (int64_t)blockDim.x * ((int64_t)gridDim.x * blockIdx.y + blockIdx.x) +
		    threadIdx.x;
		const struct nn_latlong *p;
		struct nn_latlong ll;

		if (global_id >= args->num_records)
			EMU_RETURN;
		p = args->d_locations + global_id;
		ll.lat = ld_global(&p->lat);
		ll.lng = ld_global(&p->lng);
		st_global(&args->d_distances[global_id], nn_distance(args->lat, args->lng, ll));
	}
}

void nn_run_gpu(const struct wl *w, const struct nn_latlong *loc, float *distances, size_t n,
		float lat, float lng)
{
	/* The original sizes the grid from the device's grid limit: x up to
	 * 2^31 - 1 CTAs on current GPUs, so one row of CTAs. */
	const uint64_t max_grid_x = (1ull << 31) - 1;
	const uint64_t blocks = (n + NN_THREADS - 1) / NN_THREADS;
	const uint64_t grid_y = (blocks + max_grid_x - 1) / max_grid_x;
	const uint64_t grid_x = (blocks + grid_y - 1) / grid_y;

	WL_CHECK(w,
		 EMU_LAUNCH(euclid, emu_dim3((unsigned)grid_x, (unsigned)grid_y, 1),
			    emu_dim3(NN_THREADS, 1, 1), 0, loc, distances, (int64_t)n, lat, lng));
	WL_CHECK(w, cudaDeviceSynchronize());
}
