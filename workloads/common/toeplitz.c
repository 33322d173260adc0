// SPDX-License-Identifier: MIT
/* toeplitz.c - Rodinia's generated gaussian and lud matrices (toeplitz.h). */
#include "toeplitz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void wl_toeplitz_exp(float *a, size_t n, double rate)
{
	float *coe = malloc(n * sizeof(float));

	if (!coe) {
		fprintf(stderr, "out of memory generating a %zu x %zu matrix\n", n, n);
		exit(1);
	}
	for (size_t d = 0; d < n; d++)
		coe[d] = (float)(10.0 * exp(-rate * (double)d));
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			a[i * n + j] = coe[i > j ? i - j : j - i];
	free(coe);
}
