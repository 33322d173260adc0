// SPDX-License-Identifier: MIT
/* gen.c - sgemm's input: A and B uniform in [-1, 1) from the seed (Parboil
 * reads random matrices from its input files). */
#include "sgemm.h"

void sgemm_generate(uint64_t seed, float *a, float *b, const struct sgemm_dims *d)
{
	const size_t na = (size_t)d->m * (size_t)d->k, nb = (size_t)d->n * (size_t)d->k;
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < na; i++)
		a[i] = (float)(2.0 * wl_rng_unit(&rng) - 1.0);
	for (size_t i = 0; i < nb; i++)
		b[i] = (float)(2.0 * wl_rng_unit(&rng) - 1.0);
}
