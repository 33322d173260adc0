// SPDX-License-Identifier: MIT
/* run.c - hotspot's host loop: the launches of the pyramid, with the data's
 * crossings for --mem. */
#include "hotspot.h"

int hs_run_gpu(const struct wl *w, float *temp[2], const float *power, int rows, int cols,
	       int iterations, int pyramid, const struct hs_params *p)
{
	/* The tiles advance by their inner part and overlap by a border of
	 * `pyramid` cells on each side (the original's EXPAND_RATE of 2). */
	int border = pyramid;
	int small_block = HS_BLOCK - 2 * pyramid;
	int block_cols = cols / small_block + (cols % small_block ? 1 : 0);
	int block_rows = rows / small_block + (rows % small_block ? 1 : 0);
	dim3 grid = emu_dim3((unsigned)block_cols, (unsigned)block_rows, 1);
	dim3 block = emu_dim3(HS_BLOCK, HS_BLOCK, 1);
	int src = 1, dst = 0;
	const size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);

	wl_to_gpu(w, temp[0], bytes);
	wl_to_gpu(w, power, bytes);
	wl_gpu_space(w, temp[1], bytes);

	for (int t = 0; t < iterations; t += pyramid) {
		int steps = iterations - t < pyramid ? iterations - t : pyramid;
		int tmp = src;

		src = dst;
		dst = tmp;
		WL_CHECK(w, EMU_LAUNCH(calculate_temp, grid, block, 0, .power = wl_dev(w, power),
				       .temp_src = wl_dev(w, temp[src]),
				       .temp_dst = wl_dev(w, temp[dst]), .iteration = steps,
				       .grid_cols = cols, .grid_rows = rows, .border_cols = border,
				       .border_rows = border, .p = *p));
	}
	wl_to_host(w, temp[dst], bytes);
	return dst;
}
