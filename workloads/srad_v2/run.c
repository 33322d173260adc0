// SPDX-License-Identifier: MIT
/*
 * run.c - srad_v2's host loop: per iteration q0^2 from the speckle region of
 * J, then both kernels, with the data's crossings for --mem. Between
 * iterations the host reads the region's rows where the kernels left them,
 * so J goes back and forth between CPU and GPU.
 */
#include "srad.h"

/* A scratch array (C, a derivative) as the kernels reach it: device memory
 * as it is (--scratch device), the workload's data through wl_dev. */
static float *scratch(const struct wl *w, const struct srad_data *d, float *p)
{
	return d->scratch_on_device ? p : wl_dev(w, p);
}

void srad_run_gpu(const struct wl *w, const struct srad_data *d, int rows, int cols,
		  const struct srad_roi *roi, float lambda, int iterations)
{
	dim3 grid = emu_dim3((unsigned)(cols / SRAD_BLOCK), (unsigned)(rows / SRAD_BLOCK), 1);
	dim3 block = emu_dim3(SRAD_BLOCK, SRAD_BLOCK, 1);
	const size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
	/* The region's pixels, first to last, as one range of J. */
	const float *region = d->j + (size_t)roi->r1 * (size_t)cols + (size_t)roi->c1;
	const size_t region_bytes =
	    ((size_t)(roi->r2 - roi->r1) * (size_t)cols + (size_t)(roi->c2 - roi->c1) + 1) *
	    sizeof(float);

	for (int iter = 0; iter < iterations; iter++) {
		float q0sqr;

		/* The original copies J back after each iteration's kernels. */
		if (iter > 0)
			wl_to_host(w, region, region_bytes);
		q0sqr = srad_q0sqr(d->j, cols, roi);
		/* J goes to the GPU once the host has read it a first time. */
		if (iter == 0)
			wl_to_gpu(w, d->j, bytes);
		if (iter == 0 && !d->scratch_on_device) {
			wl_gpu_space(w, d->c, bytes);
			wl_gpu_space(w, d->de, bytes);
			wl_gpu_space(w, d->dw, bytes);
			wl_gpu_space(w, d->dn, bytes);
			wl_gpu_space(w, d->ds, bytes);
		}
		WL_CHECK(w, EMU_LAUNCH(srad_cuda_1, grid, block, 0, scratch(w, d, d->de),
				       scratch(w, d, d->dw), scratch(w, d, d->dn),
				       scratch(w, d, d->ds), wl_dev(w, d->j), scratch(w, d, d->c),
				       cols, rows, q0sqr));
		WL_CHECK(w, EMU_LAUNCH(srad_cuda_2, grid, block, 0, scratch(w, d, d->de),
				       scratch(w, d, d->dw), scratch(w, d, d->dn),
				       scratch(w, d, d->ds), wl_dev(w, d->j), scratch(w, d, d->c),
				       cols, rows, lambda, q0sqr));
	}
	wl_to_host(w, d->j, bytes);
}
