// SPDX-License-Identifier: MIT
/*
 * gen.c - bicg's input from the seeded generator: r, p and A uniform in
 * [0, 1) (PolyBench fills them with a closed formula; any values serve, since
 * the check recomputes the products in the same order). s and q are left to
 * the kernels, which clear them, as the original leaves its device copies.
 */
#include "bicg.h"

static void fill(struct wl_rng *r, float *v, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		v[i] = (float)wl_rng_unit(r);
}

void bicg_generate(const struct bicg_problem *pb, uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	fill(&r, pb->r, (uint64_t)pb->nx);
	fill(&r, pb->p, (uint64_t)pb->ny);
	fill(&r, pb->A, (uint64_t)pb->nx * (uint64_t)pb->ny);
}
