// SPDX-License-Identifier: MIT
/* gen.c - 3dconv's input: A uniform in [0, 1), as the original's, from the
 * workload's seeded generator. */
#include "conv3d.h"

void conv3d_generate(uint64_t seed, float *a, size_t n)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	wl_rng_fill_unit(&rng, a, n);
}
