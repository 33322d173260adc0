// SPDX-License-Identifier: MIT
/*
 * gen.c - mvt's input from the seeded generator: the four vectors and A
 * uniform in [0, 1) (PolyBench fills them with a closed formula; any values
 * serve, since the check recomputes the products in the same order).
 */
#include "mvt.h"

void mvt_generate(const struct mvt_problem *p, uint64_t seed)
{
	struct wl_rng r;
	const size_t n = (size_t)p->n;

	wl_rng_seed(&r, seed);
	wl_rng_fill_unit(&r, p->x1, n);
	wl_rng_fill_unit(&r, p->x2, n);
	wl_rng_fill_unit(&r, p->y1, n);
	wl_rng_fill_unit(&r, p->y2, n);
	wl_rng_fill_unit(&r, p->A, n * n);
}
