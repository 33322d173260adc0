// SPDX-License-Identifier: MIT
/* gen.c - srad_v2's input: a random image, as the original's (uniform
 * intensities, exponentiated), drawn from the workload's seeded generator. */
#include "srad.h"

#include <math.h>

void srad_generate(uint64_t seed, float *j, size_t n)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (size_t k = 0; k < n; k++) {
		float i = (float)wl_rng_unit(&rng);

		j[k] = (float)exp(i);
	}
}
