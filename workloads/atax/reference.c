// SPDX-License-Identifier: MIT
/*
 * reference.c - atax on the CPU, PolyBench's sequential loop: for each row i,
 * tmp[i] accumulates A[i][j] * x[j] over j, then every y[j] gets
 * A[i][j] * tmp[i]. Each element sees the kernels' additions in the kernels'
 * order (tmp[i] over ascending j, y[j] over ascending i), so the results
 * must equal the GPU's bit for bit. A is regenerated a row at a time from
 * the seed rather than read back from managed memory.
 */
#include "atax.h"

#include <stdlib.h>

bool atax_check(const struct wl *w, const struct atax_problem *p, uint64_t seed)
{
	float *x = malloc((size_t)p->ny * sizeof(float));
	float *row = malloc((size_t)p->ny * sizeof(float));
	float *y = calloc((size_t)p->ny, sizeof(float));
	float *tmp = calloc((size_t)p->nx, sizeof(float));
	struct wl_rng r;
	bool pass = false;

	if (!x || !row || !y || !tmp) {
		fprintf(stderr, "%s: out of memory for the CPU reference\n", w->name);
		goto out;
	}
	wl_rng_seed(&r, seed);
	atax_gen_x(&r, x, p->ny);
	for (int i = 0; i < p->nx; i++) {
		atax_gen_row(&r, row, p->ny);
		for (int j = 0; j < p->ny; j++)
			tmp[i] = tmp[i] + row[j] * x[j];
		for (int j = 0; j < p->ny; j++)
			y[j] = y[j] + row[j] * tmp[i];
	}
	pass = wl_check_f32_exact(w, "tmp", p->tmp, tmp, (size_t)p->nx);
	pass &= wl_check_f32_exact(w, "y", p->y, y, (size_t)p->ny);
out:
	free(x);
	free(row);
	free(y);
	free(tmp);
	return pass;
}
