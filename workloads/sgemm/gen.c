// SPDX-License-Identifier: MIT
/* gen.c - sgemm's input: A and B uniform in [-1, 1) from the seed (Parboil
 * reads random matrices from its input files). */
#include "sgemm.h"

void sgemm_generate(uint64_t seed, float *a, float *b, const struct sgemm_dims *d)
{
	const size_t na = (size_t)d->m * (size_t)d->k, nb = (size_t)d->n * (size_t)d->k;
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	wl_rng_fill_signed(&rng, a, na);
	wl_rng_fill_signed(&rng, b, nb);
}
