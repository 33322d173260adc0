// SPDX-License-Identifier: MIT
/*
 * reference.c - gaussian on the CPU: the same elimination steps, Fan1's
 * multipliers then Fan2's row updates, with the kernels' per-element
 * arithmetic (gaussian.h). Within a step every element is updated once from
 * values the step does not change, so the order of elements does not matter
 * and the results agree bit for bit. The back substitution is the
 * original's host code, shared by both runs.
 */
#include "gaussian.h"

void gauss_reference(float *a, float *m, float *b, int n, int steps)
{
	const size_t nn = (size_t)n;

	for (size_t t = 0; t < (size_t)steps; t++) {
		const float *pivot = a + nn * t;

		for (size_t row = t + 1; row < nn; row++)
			m[nn * row + t] = gauss_multiplier(a[nn * row + t], pivot[t]);
		for (size_t row = t + 1; row < nn; row++) {
			float *ar = a + nn * row;
			const float mult = m[nn * row + t];

			for (size_t col = t; col < nn; col++)
				ar[col] = gauss_eliminate(ar[col], mult, pivot[col]);
			b[row] = gauss_eliminate(b[row], mult, b[t]);
		}
	}
}

void gauss_back_substitute(const float *a, const float *b, float *x, int n)
{
	const size_t nn = (size_t)n;

	/* Last row first: x[r] = (b[r] - sum of a[r][c] x[c], c > r) / a[r][r],
	 * subtracting from the last column backwards, as the original. */
	for (size_t i = 0; i < nn; i++) {
		const size_t r = nn - i - 1;

		x[r] = b[r];
		for (size_t j = 0; j < i; j++)
			x[r] -= a[nn * r + (nn - j - 1)] * x[nn - j - 1];
		x[r] = x[r] / a[nn * r + r];
	}
}
