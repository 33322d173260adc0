// SPDX-License-Identifier: MIT
/*
 * gen.c - gaussian's input. The matrix is the original's generated one, a
 * symmetric Toeplitz matrix 10 exp(-0.01 |i - j|) (positive definite, so the
 * elimination needs no pivoting); the original sets every b to 1, here b is
 * drawn from the seed so that --seed changes the system.
 */
#include "gaussian.h"

#include "toeplitz.h"

void gauss_generate(uint64_t seed, float *a, float *b, int n)
{
	struct wl_rng rng;

	wl_toeplitz_exp(a, (size_t)n, 0.01);
	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < (size_t)n; i++)
		b[i] = (float)(0.5 + wl_rng_unit(&rng));
}
