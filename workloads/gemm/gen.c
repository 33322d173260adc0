// SPDX-License-Identifier: MIT
/*
 * gen.c - gemm's input from the seeded generator: A, B and C uniform in
 * [0, 1). PolyBench fills them with a closed formula; any values serve, since
 * the check recomputes C from the same inputs in the same order.
 */
#include "gemm.h"

void gemm_generate(const struct gemm_problem *p, uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	wl_rng_fill_unit(&r, p->A, (size_t)p->ni * (size_t)p->nk);
	wl_rng_fill_unit(&r, p->B, (size_t)p->nk * (size_t)p->nj);
	wl_rng_fill_unit(&r, p->C, (size_t)p->ni * (size_t)p->nj);
}
