// SPDX-License-Identifier: MIT
/* reference.c - pathfinder on the CPU, one row at a time; at the grid's edge
 * a column has no neighbour outside and takes its own cost instead. */
#include "pathfinder.h"

void pf_reference(const int *wall, int *row, int *scratch, int rows, int cols)
{
	int *src = row, *dst = scratch;

	for (int t = 1; t < rows; t++) {
		const int *cost = wall + (size_t)(t - 1) * (size_t)cols;
		int *tmp;

		for (int x = 0; x < cols; x++) {
			int left = src[x > 0 ? x - 1 : x];
			int right = src[x < cols - 1 ? x + 1 : x];

			dst[x] = pf_min(pf_min(left, src[x]), right) + cost[x];
		}
		tmp = src;
		src = dst;
		dst = tmp;
	}
	if (src != row)
		for (int x = 0; x < cols; x++)
			row[x] = src[x];
}
