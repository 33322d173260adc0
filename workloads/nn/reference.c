// SPDX-License-Identifier: MIT
/*
 * reference.c - nn on the CPU: every distance with the kernel's arithmetic
 * (nn_distance), then the same host selection (select.c) on the copy. The
 * selection's swaps leave the whole distance array in an order that depends
 * on every distance, so comparing it (and the record order) with the GPU
 * run's checks the kernel's every output as well as the k nearest.
 */
#include "nn.h"

void nn_reference(const struct nn_latlong *loc, size_t n, float lat, float lng, size_t k,
		  float *distances, int32_t *order)
{
	for (size_t i = 0; i < n; i++) {
		distances[i] = nn_distance(lat, lng, loc[i]);
		order[i] = (int32_t)i;
	}
	nn_find_lowest(distances, order, n, k);
}
