// SPDX-License-Identifier: MIT
/*
 * gen.c - atax's input from the seeded generator: x and A uniform in [0, 1)
 * (PolyBench fills them with a closed formula; any values serve, since the
 * check recomputes them in the same order).
 */
#include "atax.h"

#include <string.h>

void atax_gen_x(struct wl_rng *r, float *x, int ny)
{
	for (int j = 0; j < ny; j++)
		x[j] = (float)wl_rng_unit(r);
}

void atax_gen_row(struct wl_rng *r, float *row, int ny)
{
	for (int j = 0; j < ny; j++)
		row[j] = (float)wl_rng_unit(r);
}

void atax_generate(struct atax_problem *p, uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	atax_gen_x(&r, p->x, p->ny);
	for (int i = 0; i < p->nx; i++)
		atax_gen_row(&r, p->A + (size_t)i * p->ny, p->ny);
	/* The original copies zeroed host arrays to the device: written on the
	 * host here too, so they start host-resident like the rest. */
	memset(p->y, 0, (size_t)p->ny * sizeof(float));
	memset(p->tmp, 0, (size_t)p->nx * sizeof(float));
}
