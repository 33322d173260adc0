// SPDX-License-Identifier: MIT
/*
 * gen.c - lud's input: the original's generated matrix, a symmetric Toeplitz
 * matrix 10 exp(-0.001 |i - j|) (positive definite, so LU needs no
 * pivoting), plus a diagonal increment uniform in [0, 1) drawn from the seed
 * (which keeps it positive definite) so that --seed changes the matrix.
 */
#include "lud.h"

#include <math.h>
#include <stdlib.h>

void lud_generate(uint64_t seed, float *m, int n)
{
	const size_t nn = (size_t)n;
	float *coe = malloc(nn * sizeof(float));
	struct wl_rng rng;

	if (!coe) {
		fprintf(stderr, "lud: out of memory for the generator\n");
		exit(1);
	}
	for (size_t d = 0; d < nn; d++)
		coe[d] = (float)(10.0 * exp(-0.001 * (double)d));
	for (size_t i = 0; i < nn; i++)
		for (size_t j = 0; j < nn; j++)
			m[i * nn + j] = coe[i > j ? i - j : j - i];
	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < nn; i++)
		m[i * nn + i] += (float)wl_rng_unit(&rng);
	free(coe);
}
