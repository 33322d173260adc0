// SPDX-License-Identifier: MIT
/*
 * reference.c - C = A B on the CPU: every element the sum over k, from 0 up,
 * of A(i, k) B(k, j) starting from 0 (nn_term, as each kernel thread adds).
 * The loops take C 16 columns at a time and run over A's columns in order,
 * so that A streams through the cache n / 16 times and the sums of a column
 * vectorize; the order of each element's terms is unchanged.
 */
#include "sgemm_nn.h"

#include <string.h>

#define REF_COLS 16

void nn_reference(const float *a, const float *b, float *c, const struct nn_dims *d)
{
	const size_t m = (size_t)d->m, n = (size_t)d->n, k = (size_t)d->k;

	for (size_t j0 = 0; j0 < n; j0 += REF_COLS) {
		const size_t cols = n - j0 < REF_COLS ? n - j0 : REF_COLS;

		memset(c + j0 * m, 0, cols * m * sizeof(float));
		for (size_t kk = 0; kk < k; kk++) {
			const float *ak = a + kk * m;

			for (size_t j = j0; j < j0 + cols; j++) {
				float *cj = c + j * m;
				const float bv = b[j * k + kk];

				for (size_t i = 0; i < m; i++)
					cj[i] = nn_term(cj[i], ak[i], bv);
			}
		}
	}
}
