// SPDX-License-Identifier: MIT
/*
 * gen.c - gemm's input from the seeded generator: A, B and C uniform in
 * [0, 1). PolyBench fills them with a closed formula; any values serve, since
 * the check recomputes C from the same inputs in the same order.
 */
#include "gemm.h"

static void fill(struct wl_rng *r, float *v, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		v[i] = (float)wl_rng_unit(r);
}

void gemm_generate(const struct gemm_problem *p, uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	fill(&r, p->A, (uint64_t)p->ni * (uint64_t)p->nk);
	fill(&r, p->B, (uint64_t)p->nk * (uint64_t)p->nj);
	fill(&r, p->C, (uint64_t)p->ni * (uint64_t)p->nj);
}
