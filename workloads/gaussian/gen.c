// SPDX-License-Identifier: MIT
/*
 * gen.c - gaussian's input. The matrix is the original's generated one, a
 * symmetric Toeplitz matrix 10 exp(-0.01 |i - j|) (positive definite, so the
 * elimination needs no pivoting); the original sets every b to 1, here b is
 * drawn from the seed so that --seed changes the system.
 */
#include "gaussian.h"

#include <math.h>
#include <stdlib.h>

void gauss_generate(uint64_t seed, float *a, float *b, int n)
{
	const size_t nn = (size_t)n;
	float *coe = malloc(nn * sizeof(float));
	struct wl_rng rng;

	if (!coe) {
		fprintf(stderr, "gaussian: out of memory for the generator\n");
		exit(1);
	}
	/* One value per distance from the diagonal, as the original does. */
	for (size_t d = 0; d < nn; d++)
		coe[d] = (float)(10.0 * exp(-0.01 * (double)d));
	for (size_t i = 0; i < nn; i++)
		for (size_t j = 0; j < nn; j++)
			a[i * nn + j] = coe[i > j ? i - j : j - i];
	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < nn; i++)
		b[i] = (float)(0.5 + wl_rng_unit(&rng));
	free(coe);
}
