// SPDX-License-Identifier: MIT
/*
 * reference.c - hotspot on the CPU, one time step over the whole grid at a
 * time. The kernel's pyramid computes exactly these values (a cell is only
 * computed while its neighbours are exact), so with the same cell update
 * (hs_cell) the results agree bit for bit.
 */
#include "hotspot.h"

static void step(const float *src, float *dst, const float *power, int rows, int cols,
		 const struct hs_coef *k)
{
	for (int r = 0; r < rows; r++) {
		/* Across the chip edge a cell is its own neighbour. */
		const float *row = src + (size_t)r * (size_t)cols;
		const float *up = r > 0 ? row - cols : row;
		const float *down = r < rows - 1 ? row + cols : row;
		const float *pw = power + (size_t)r * (size_t)cols;
		float *out = dst + (size_t)r * (size_t)cols;

		for (int c = 0; c < cols; c++) {
			int w = c > 0 ? c - 1 : c;
			int e = c < cols - 1 ? c + 1 : c;

			out[c] = hs_cell(row[c], up[c], down[c], row[e], row[w], pw[c],
					 k->step_div_cap, k->rx_1, k->ry_1, k->rz_1);
		}
	}
}

void hs_reference(float *temp, float *scratch, const float *power, int rows, int cols,
		  int iterations, const struct hs_params *p)
{
	const struct hs_coef k = hs_coef_of(p);
	float *src = temp, *dst = scratch;

	for (int t = 0; t < iterations; t++) {
		float *tmp;

		step(src, dst, power, rows, cols, &k);
		tmp = src;
		src = dst;
		dst = tmp;
	}
	if (src != temp)
		for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++)
			temp[i] = src[i];
}
