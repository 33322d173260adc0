// SPDX-License-Identifier: MIT
/*
 * gen.c - bicg's input from the seeded generator: r, p and A uniform in
 * [0, 1) (PolyBench fills them with a closed formula; any values serve, since
 * the check recomputes the products in the same order). s and q are left to
 * the kernels, which clear them, as the original leaves its device copies.
 */
#include "bicg.h"

void bicg_generate(const struct bicg_problem *pb, uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	wl_rng_fill_unit(&r, pb->r, (size_t)pb->nx);
	wl_rng_fill_unit(&r, pb->p, (size_t)pb->ny);
	wl_rng_fill_unit(&r, pb->A, (size_t)pb->nx * (size_t)pb->ny);
}
