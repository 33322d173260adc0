// SPDX-License-Identifier: MIT
/* gen.c - pathfinder's input: costs 0..9, uniform, as the original's, drawn
 * row after row from the workload's seeded generator. */
#include "pathfinder.h"

void pf_generate(uint64_t seed, int *first, int *wall, int rows, int cols)
{
	struct wl_rng rng;
	size_t n = (size_t)(rows - 1) * (size_t)cols;

	wl_rng_seed(&rng, seed);
	for (int x = 0; x < cols; x++)
		first[x] = (int)wl_rng_below(&rng, 10);
	for (size_t i = 0; i < n; i++)
		wall[i] = (int)wl_rng_below(&rng, 10);
}
