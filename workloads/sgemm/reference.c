// SPDX-License-Identifier: MIT
/*
 * reference.c - sgemm on the CPU. Every element of C is the sum over k, from
 * 0 up, of A(m, k) B(n, k) starting from 0, then scaled and added to beta C,
 * exactly as each kernel thread computes it (sgemm.h); the loops are tiled
 * like the kernel's only so that the reference reads A and B from cache.
 */
#include "sgemm.h"

void sgemm_reference(const float *a, const float *b, float *c, const struct sgemm_dims *d,
		     float alpha, float beta)
{
	const size_t m = (size_t)d->m, n = (size_t)d->n, k = (size_t)d->k;
	const size_t lda = m, ldb = n, ldc = m;

	for (size_t n0 = 0; n0 < n; n0 += SGEMM_TILE_N)
		for (size_t m0 = 0; m0 < m; m0 += SGEMM_TILE_M) {
			float sum[SGEMM_TILE_M][SGEMM_TILE_N] = {{0}};

			for (size_t kk = 0; kk < k; kk++) {
				const float *bk = b + n0 + kk * ldb;
				const float *ak = a + m0 + kk * lda;

				for (size_t r = 0; r < SGEMM_TILE_M; r++)
					for (size_t j = 0; j < SGEMM_TILE_N; j++)
						sum[r][j] = sgemm_term(sum[r][j], ak[r], bk[j]);
			}
			for (size_t j = 0; j < SGEMM_TILE_N; j++)
				for (size_t r = 0; r < SGEMM_TILE_M; r++) {
					float *p = &c[(n0 + j) * ldc + m0 + r];

					*p = sgemm_result(*p, sum[r][j], alpha, beta);
				}
		}
}
