// SPDX-License-Identifier: MIT
/*
 * gen.c - fft's input from the seeded generator: real and imaginary parts
 * uniform in [-1, 1), as SHOC's, and its twiddle table.
 */
#include "fft.h"

#include <math.h>

void fft_generate(const struct fft_problem *p, uint64_t seed)
{
	const uint64_t n = (uint64_t)p->ffts * FFT_N;
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	wl_rng_fill_signed(&r, (float *)(void *)p->work, 2 * n); /* re, im interleaved */
}

void fft_twiddles_init(struct fft_twiddles *t)
{
	const double pi = 3.14159265358979323846;

	for (int m = 0; m < FFT_N; m++) {
		double angle = -2 * pi * m / FFT_N;

		t->w[m].x = (float)cos(angle);
		t->w[m].y = (float)sin(angle);
	}
}
