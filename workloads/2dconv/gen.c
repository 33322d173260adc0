// SPDX-License-Identifier: MIT
/* gen.c - 2dconv's input: A uniform in [0, 1), as the original's, from the
 * workload's seeded generator. */
#include "conv2d.h"

void conv2d_generate(uint64_t seed, float *a, size_t n)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		a[i] = (float)wl_rng_unit(&rng);
}
