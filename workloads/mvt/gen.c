// SPDX-License-Identifier: MIT
/*
 * gen.c - mvt's input from the seeded generator: the four vectors and A
 * uniform in [0, 1) (PolyBench fills them with a closed formula; any values
 * serve, since the check recomputes the products in the same order).
 */
#include "mvt.h"

static void fill(struct wl_rng *r, float *v, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		v[i] = (float)wl_rng_unit(r);
}

void mvt_generate(const struct mvt_problem *p, uint64_t seed)
{
	struct wl_rng r;
	const uint64_t n = (uint64_t)p->n;

	wl_rng_seed(&r, seed);
	fill(&r, p->x1, n);
	fill(&r, p->x2, n);
	fill(&r, p->y1, n);
	fill(&r, p->y2, n);
	fill(&r, p->A, n * n);
}
