// SPDX-License-Identifier: MIT
/*
 * gen.c - lud's input: the original's generated matrix, a symmetric Toeplitz
 * matrix 10 exp(-0.001 |i - j|) (positive definite, so LU needs no
 * pivoting), plus a diagonal increment uniform in [0, 1) drawn from the seed
 * (which keeps it positive definite) so that --seed changes the matrix.
 */
#include "lud.h"

#include "toeplitz.h"

void lud_generate(uint64_t seed, float *m, int n)
{
	const size_t nn = (size_t)n;
	struct wl_rng rng;

	wl_toeplitz_exp(m, nn, 0.001);
	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < nn; i++)
		m[i * nn + i] += (float)wl_rng_unit(&rng);
}
