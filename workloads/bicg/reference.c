// SPDX-License-Identifier: MIT
/*
 * reference.c - bicg on the CPU, PolyBench's sequential loop: for each row i,
 * every s[j] gets A[i][j] * r[i] and q[i] accumulates A[i][j] * p[j] over j.
 * Each element sees the kernels' additions in the kernels' order (s[j] over
 * ascending i, q[i] over ascending j), so both must equal the GPU's bit for
 * bit.
 */
#include "bicg.h"

void bicg_reference(const struct bicg_problem *pb, float *s, float *q)
{
	const size_t nx = (size_t)pb->nx, ny = (size_t)pb->ny;

	for (size_t j = 0; j < ny; j++)
		s[j] = 0.0f;
	for (size_t i = 0; i < nx; i++) {
		const float *row = pb->A + i * ny;

		q[i] = 0.0f;
		for (size_t j = 0; j < ny; j++) {
			s[j] = bicg_step(s[j], row[j], pb->r[i]);
			q[i] = bicg_step(q[i], row[j], pb->p[j]);
		}
	}
}
