// SPDX-License-Identifier: MIT
/*
 * reference.c - srad_v2 on the CPU: both passes over the whole image per
 * iteration, with the edge pixel as its own neighbour across the image edge
 * (what the kernels' edge reads amount to). The per-pixel arithmetic is the
 * kernels' own (srad.h).
 */
#include "srad.h"

#include <stdlib.h>

struct ref_arrays {
	float *c, *dn, *ds, *dw, *de;
};

static void pass1(const float *j, const struct ref_arrays *a, size_t rows, size_t cols, float q0sqr)
{
	for (size_t r = 0; r < rows; r++) {
		const float *row = j + r * cols;
		const float *up = r > 0 ? row - cols : row;
		const float *down = r < rows - 1 ? row + cols : row;

		for (size_t c = 0; c < cols; c++) {
			size_t k = r * cols + c;
			float jc = row[c];
			float n = up[c] - jc;
			float s = down[c] - jc;
			float w = row[c > 0 ? c - 1 : c] - jc;
			float e = row[c < cols - 1 ? c + 1 : c] - jc;

			a->c[k] = srad_coefficient(jc, n, s, w, e, q0sqr);
			a->dn[k] = n;
			a->ds[k] = s;
			a->dw[k] = w;
			a->de[k] = e;
		}
	}
}

static void pass2(float *j, const struct ref_arrays *a, size_t rows, size_t cols, float lambda)
{
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++) {
			size_t k = r * cols + c;
			float cc = a->c[k];
			float cs = a->c[r < rows - 1 ? k + cols : k];
			float ce = a->c[c < cols - 1 ? k + 1 : k];

			j[k] = srad_update(j[k], cc, cs, cc, ce, a->dn[k], a->ds[k], a->dw[k],
					   a->de[k], lambda);
		}
}

int srad_reference(float *j, int rows, int cols, const struct srad_roi *roi, float lambda,
		   int iterations)
{
	size_t n = (size_t)rows * (size_t)cols;
	struct ref_arrays a = {malloc(n * sizeof(float)), malloc(n * sizeof(float)),
			       malloc(n * sizeof(float)), malloc(n * sizeof(float)),
			       malloc(n * sizeof(float))};
	int err = 0;

	if (!a.c || !a.dn || !a.ds || !a.dw || !a.de) {
		err = -1;
		goto out;
	}
	for (int iter = 0; iter < iterations; iter++) {
		float q0sqr = srad_q0sqr(j, cols, roi);

		pass1(j, &a, (size_t)rows, (size_t)cols, q0sqr);
		pass2(j, &a, (size_t)rows, (size_t)cols, lambda);
	}
out:
	free(a.c);
	free(a.dn);
	free(a.ds);
	free(a.dw);
	free(a.de);
	return err;
}
