// SPDX-License-Identifier: MIT
/*
 * select.c - nn's host selection (the original's findLowest): k passes over
 * the distances, each finding the first smallest of those not yet placed and
 * swapping it forward. In the GPU run the distances are the managed array
 * the kernel wrote, so every pass reads it from the host side.
 */
#include "nn.h"

void nn_find_lowest(float *distances, int32_t *order, size_t n, size_t k)
{
	for (size_t i = 0; i < k && i < n; i++) {
		size_t min_loc = i;
		float tmp;
		int32_t rec;

		for (size_t j = i; j < n; j++)
			if (distances[j] < distances[min_loc])
				min_loc = j;
		tmp = distances[i];
		distances[i] = distances[min_loc];
		distances[min_loc] = tmp;
		rec = order[i];
		order[i] = order[min_loc];
		order[min_loc] = rec;
	}
}
