// SPDX-License-Identifier: MIT
/* gen.c - 3dconv's input: A uniform in [0, 1), as the original's, from the
 * workload's seeded generator. */
#include "conv3d.h"

void conv3d_generate(uint64_t seed, float *a, size_t n)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		a[i] = (float)wl_rng_unit(&rng);
}
