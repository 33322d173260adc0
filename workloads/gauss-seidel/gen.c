// SPDX-License-Identifier: MIT
/*
 * gen.c - gauss-seidel's input: boundary values uniform in [0, 1) on the
 * ring, a source term f uniform in [-1, 1) stored as h^2 f (h = 1 / (n - 1)),
 * and u = 0 inside, all from the seed.
 */
#include "gs.h"

void gs_generate(uint64_t seed, float *u, float *h2f, int n)
{
	const size_t nn = (size_t)n;
	const double h = 1.0 / (double)(n - 1);
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < nn; i++)
		for (size_t j = 0; j < nn; j++) {
			const bool ring = i == 0 || j == 0 || i == nn - 1 || j == nn - 1;

			u[i * nn + j] = ring ? (float)wl_rng_unit(&rng) : 0.0f;
			h2f[i * nn + j] = (float)(h * h * (2.0 * wl_rng_unit(&rng) - 1.0));
		}
}
