// SPDX-License-Identifier: MIT
/*
 * reference.c - gemm on the CPU. Each element is scaled by beta, then gets
 * alpha * a[i][k] * b[k][j] for ascending k, the kernel's order, so the
 * result must equal the GPU's bit for bit. The loops run i, k, j (a row of B
 * at a time) for the cache's sake; that changes no element's order.
 */
#include "gemm.h"

void gemm_reference(const struct gemm_problem *p, float *c)
{
	const size_t nj = (size_t)p->nj, nk = (size_t)p->nk;

	for (size_t i = 0; i < (size_t)p->ni; i++) {
		float *crow = c + i * nj;
		const float *arow = p->A + i * nk;

		for (size_t j = 0; j < nj; j++)
			crow[j] = gemm_scale(p->C[i * nj + j]);
		for (size_t k = 0; k < nk; k++) {
			const float *brow = p->B + k * nj;

			for (size_t j = 0; j < nj; j++)
				crow[j] = gemm_step(crow[j], arow[k], brow[j]);
		}
	}
}
