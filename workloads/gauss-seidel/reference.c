// SPDX-License-Identifier: MIT
/*
 * reference.c - gauss-seidel on the CPU: per iteration a red sweep, then a
 * black sweep, with the kernels' cell update (gs.h). A cell of one colour
 * reads only cells of the other, so the order inside a sweep does not change
 * any value and the results agree bit for bit.
 */
#include "gs.h"

#include <math.h>

static void sweep(float *u, const float *h2f, size_t n, int colour)
{
	for (size_t i = 1; i + 1 < n; i++)
		for (size_t j = gs_first_col(i, colour); j + 1 < n; j += 2) {
			float *c = &u[i * n + j];

			*c = gs_relax(c[-(ptrdiff_t)n], c[n], c[-1], c[1], h2f[i * n + j]);
		}
}

void gs_reference(float *u, const float *h2f, int n, int iterations)
{
	for (int it = 0; it < iterations; it++) {
		sweep(u, h2f, (size_t)n, GS_RED);
		sweep(u, h2f, (size_t)n, GS_BLACK);
	}
}

double gs_residual(const float *u, const float *h2f, int n)
{
	const size_t nn = (size_t)n;
	double sum = 0;

	for (size_t i = 1; i + 1 < nn; i++)
		for (size_t j = 1; j + 1 < nn; j++) {
			const float *c = &u[i * nn + j];
			double r = (double)c[-(ptrdiff_t)nn] + c[nn] + c[-1] + c[1] - 4.0 * c[0] +
				   h2f[i * nn + j];

			sum += r * r;
		}
	return sqrt(sum / (double)((nn - 2) * (nn - 2)));
}
