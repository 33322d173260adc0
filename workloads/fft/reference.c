// SPDX-License-Identifier: MIT
/*
 * reference.c - fft on the CPU, and a check of the stages against the DFT's
 * definition.
 *
 * One transform runs the kernels' three stages (fft_stage1..3 in fft.h) on
 * the same values in the same arrangement, one thread after another, so the
 * result equals the GPU's bit for bit.
 */
#include "fft.h"

#include <math.h>
#include <stdlib.h>

void fft_reference_one(struct fft_c x[FFT_N], const struct fft_twiddles *tw, bool inverse)
{
	struct fft_c z[8][FFT_THREADS]; /* stage 1: [k1][t] */
	struct fft_c v[8][8][8];	/* stage 2: [k1][c][a] */
	struct fft_c in[8], out[8];

	for (unsigned t = 0; t < FFT_THREADS; t++) {
		for (unsigned r = 0; r < 8; r++)
			in[r] = x[t + FFT_THREADS * r];
		fft_stage1(in, out, t, tw, inverse);
		for (unsigned k1 = 0; k1 < 8; k1++)
			z[k1][t] = out[k1];
	}
	for (unsigned k1 = 0; k1 < 8; k1++)
		for (unsigned a = 0; a < 8; a++) {
			for (unsigned b = 0; b < 8; b++)
				in[b] = z[k1][a + 8 * b];
			fft_stage2(in, out, a, tw, inverse);
			for (unsigned c = 0; c < 8; c++)
				v[k1][c][a] = out[c];
		}
	for (unsigned k1 = 0; k1 < 8; k1++)
		for (unsigned c = 0; c < 8; c++) {
			fft_stage3(v[k1][c], out, inverse);
			for (unsigned d = 0; d < 8; d++)
				x[k1 + 8 * c + FFT_THREADS * d] = out[d];
		}
}

/* The DFT of x by its definition in double: sign -1 forward, +1 inverse
 * (then divided by 512). */
static void dft(const struct fft_c *x, double *re, double *im, int sign)
{
	const double pi = 3.14159265358979323846;

	for (int k = 0; k < FFT_N; k++) {
		double sr = 0, si = 0;

		for (int n = 0; n < FFT_N; n++) {
			double a = sign * 2 * pi * (double)((k * n) % FFT_N) / FFT_N;

			sr += x[n].x * cos(a) - x[n].y * sin(a);
			si += x[n].x * sin(a) + x[n].y * cos(a);
		}
		re[k] = sign > 0 ? sr / FFT_N : sr;
		im[k] = sign > 0 ? si / FFT_N : si;
	}
}

/* Relative L2 error of got against (re, im). */
static double l2_error(const struct fft_c *got, const double *re, const double *im)
{
	double e = 0, r = 0;

	for (int k = 0; k < FFT_N; k++) {
		e += (got[k].x - re[k]) * (got[k].x - re[k]) +
		     (got[k].y - im[k]) * (got[k].y - im[k]);
		r += re[k] * re[k] + im[k] * im[k];
	}
	return r > 0 ? sqrt(e / r) : sqrt(e);
}

/*
 * The bit-for-bit check cannot see a stage that is wrong on both sides, so
 * the reference's stages are checked against the DFT's definition, in double,
 * on a few transforms of the input: forward, then inverse of that output.
 * Floats cannot match exactly: SHOC's check compares with a tolerance too.
 * Bound: a radix-8 Cooley-Tukey FFT of 512 points in float has a relative L2
 * error of order log2(512) = 9 roundings (2^-24 each) plus the twiddles'
 * rounding (at most 2^-24 relative each, one multiplication per stage
 * boundary), about 1e-6 (measured: 1.1e-7); we accept 1e-5 per transform. A wrong twiddle,
 * index or sign gives an O(1) relative error.
 */
bool fft_check_definition(const struct wl *w, const struct fft_c *input, long long ffts,
			  const struct fft_twiddles *tw)
{
	double re[FFT_N], im[FFT_N];
	struct fft_c x[FFT_N];
	struct wl_rng r;
	bool pass = true;

	wl_rng_seed(&r, 0x5eed);
	for (int s = 0; s < 4; s++) {
		/* The first and last transforms, then random ones. */
		const long long f = s == 0   ? 0
				    : s == 1 ? ffts - 1
					     : (long long)wl_rng_below(&r, (uint64_t)ffts);
		double ef, ei;

		for (int k = 0; k < FFT_N; k++)
			x[k] = input[f * FFT_N + k];
		dft(x, re, im, -1);
		fft_reference_one(x, tw, false);
		ef = l2_error(x, re, im);
		dft(x, re, im, +1);
		fft_reference_one(x, tw, true);
		ei = l2_error(x, re, im);
		if (ef > 1e-5 || ei > 1e-5) {
			fprintf(stderr,
				"%s: transform %lld: relative L2 error against the DFT %.3g "
				"forward, %.3g inverse (accepted: 1e-5)\n",
				w->name, f, ef, ei);
			pass = false;
		}
	}
	return pass;
}
