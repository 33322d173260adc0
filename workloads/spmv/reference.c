// SPDX-License-Identifier: MIT
/*
 * reference.c - spmv on the CPU, two ways: from the JDS in the kernel's
 * order (bit for bit), and from the CSR in double (catches a conversion that
 * is wrong for both sides).
 */
#include "spmv.h"

#include <math.h>
#include <stdlib.h>

void spmv_reference(const struct spmv_jds *j, float *y)
{
	for (int64_t ix = 0; ix < j->rows; ix++) {
		const int32_t bound = j->zcnt[ix / SPMV_SLICE];
		float sum = 0.0f;

		for (int32_t k = 0; k < bound; k++) {
			const int64_t slot = j->jds_ptr[k] + ix;

			sum = spmv_step(sum, j->data[slot], j->x[j->index[slot]]);
		}
		y[j->perm[ix]] = sum;
	}
}

/*
 * The GPU adds a row's products in CSR order (ascending columns; a padding
 * slot adds an exact zero), each product and each sum rounded once in float.
 * The classic bound for such a sum of n products is
 * |computed - exact| <= gamma_n * sum |a_k x_k| with gamma_n = n u / (1 - n u),
 * u = 2^-24. We accept (n + 1) u (1 + 1e-3) times the sum of magnitudes
 * (computed in double), which covers gamma_n for every row length the JDS
 * allows; a wrong column, value, row or permutation misses by O(1).
 */
bool spmv_check_csr(const struct wl *w, const struct mtx_matrix *m, const float *x,
		    const float *got)
{
	const double u = 0x1p-24;
	int64_t bad = 0;

	for (int32_t r = 0; r < m->rows; r++) {
		const int64_t n = m->row_start[r + 1] - m->row_start[r];
		double want = 0, mag = 0;

		for (int64_t e = m->row_start[r]; e < m->row_start[r + 1]; e++) {
			const double t = (double)m->val[e] * (double)x[m->col[e]];

			want += t;
			mag += fabs(t);
		}
		if (fabs((double)got[r] - want) <= (double)(n + 1) * u * (1 + 1e-3) * mag)
			continue;
		if (bad++ < 5)
			fprintf(stderr, "%s: y[%d] = %.9g, A x by its rows %.9g\n", w->name, r,
				got[r], want);
	}
	if (bad)
		fprintf(stderr, "%s: %lld of %d rows differ from A x by its rows\n", w->name,
			(long long)bad, m->rows);
	return bad == 0;
}
