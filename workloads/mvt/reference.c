// SPDX-License-Identifier: MIT
/*
 * reference.c - mvt on the CPU, PolyBench's sequential loops: x1[i] gets
 * A[i][j] * y1[j] over ascending j, x2[i] gets A[j][i] * y2[j] over ascending
 * j (run a row of A at a time, for the cache's sake: that changes no
 * element's order). Each element sees the kernels' additions in the kernels'
 * order, so both must equal the GPU's bit for bit.
 */
#include "mvt.h"

#include <string.h>

void mvt_reference(const struct mvt_problem *p, float *x1, float *x2)
{
	const size_t n = (size_t)p->n;

	memcpy(x1, p->x1, n * sizeof(float));
	memcpy(x2, p->x2, n * sizeof(float));
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			x1[i] = mvt_step(x1[i], p->A[i * n + j], p->y1[j]);
	for (size_t j = 0; j < n; j++)
		for (size_t i = 0; i < n; i++)
			x2[i] = mvt_step(x2[i], p->A[j * n + i], p->y2[j]);
}
