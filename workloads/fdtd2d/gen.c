// SPDX-License-Identifier: MIT
/* gen.c - fdtd2d's input: the source term of each step is the step number,
 * as in the original; the fields start random (uniform in [0, 1)) from the
 * workload's seeded generator, where the original uses a fixed formula. */
#include "fdtd2d.h"

static void fill(struct wl_rng *rng, float *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = (float)wl_rng_unit(rng);
}

void fdtd_generate(uint64_t seed, const struct fdtd_fields *f)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, seed);
	for (int t = 0; t < f->tmax; t++)
		f->fict[t] = (float)t;
	fill(&rng, f->ex, fdtd_ex_len(f->nx, f->ny));
	fill(&rng, f->ey, fdtd_ey_len(f->nx, f->ny));
	fill(&rng, f->hz, fdtd_hz_len(f->nx, f->ny));
}
