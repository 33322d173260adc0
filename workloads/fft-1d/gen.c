// SPDX-License-Identifier: MIT
/*
 * gen.c - fft-1d's input from the seeded generator (real and imaginary
 * parts uniform in [-1, 1), as workloads/fft's), and its twiddle table.
 */
#include "fft1d.h"

#include <math.h>

void fft1d_generate(struct fft1d_c *x, uint64_t n, uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	wl_rng_fill_signed(&r, (float *)(void *)x, 2 * n); /* re, im interleaved */
}

/*
 * tw[e] = exp(-2 pi i e / N) for e < N, computed in double and rounded to
 * float. Only the first octant (e <= N/8) calls cos and sin; the rest follow
 * by the exact symmetries w^(N/4 - e) = (sin, -cos) and w^(e + N/4) =
 * -i w^e (a swap and a negation), so that w^(N/4) = -i and w^(N/2) = -1
 * exactly, and the table of 2^27 points takes a second rather than eight.
 */
void fft1d_twiddles_init(struct fft1d_c *tw, uint64_t n)
{
	const double two_pi = 6.28318530717958647692;

	for (uint64_t e = 0; e <= n / 8; e++) {
		const double a = two_pi * ((double)e / (double)n);
		const float c = (float)cos(a), s = (float)sin(a);

		tw[e].x = c;
		tw[e].y = 0.0f - s; /* +0, not -0, at e = 0 */
		tw[n / 4 - e].x = s;
		tw[n / 4 - e].y = -c;
	}
	for (uint64_t e = n / 4; e < n; e++) {
		tw[e].x = tw[e - n / 4].y;
		tw[e].y = 0.0f - tw[e - n / 4].x;
	}
}
