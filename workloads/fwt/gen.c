// SPDX-License-Identifier: MIT
/*
 * gen.c - fwt's input from the seeded generator: per vector, the data
 * uniform in [0, 1), then the kernel's 2^log2k values uniform in [0, 1),
 * as the original's rand() / RAND_MAX, padded with zeros to the vector's
 * length. The host writes every element (the original clears the device
 * kernel with cudaMemset and copies the short kernel in).
 */
#include "fwt.h"

void fwt_generate(const struct fwt_problem *p, uint64_t seed)
{
	const uint64_t n = (uint64_t)1 << p->log2n, k = (uint64_t)1 << p->log2k;
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	for (uint64_t b = 0; b < (uint64_t)p->batch; b++) {
		float *d = p->data + b * n, *kern = p->kern + b * n;

		wl_rng_fill_unit(&r, d, n);
		for (uint64_t i = 0; i < n; i++)
			kern[i] = i < k ? (float)wl_rng_unit(&r) : 0.0f;
	}
}
