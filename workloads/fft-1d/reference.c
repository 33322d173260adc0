// SPDX-License-Identifier: MIT
/*
 * reference.c - fft-1d on the CPU, and a check of the passes against the
 * DFT's definition.
 *
 * A pass runs the kernels' operations (fft1d.h: the load's twiddle, stages 1
 * and 2, the store's index) on one column at a time: each output is made by
 * the same float operations in the same order as on the GPU, where the
 * column lies in a CTA's tile, so the two agree bit for bit.
 */
#include "fft1d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FFT1D_ALL_BINS_MAX 4096 /* up to this N every bin is checked */
#define FFT1D_BINS	   8	/* else these many: 0, 1, N/2, N - 1 and 4 random */
#define FFT1D_TOLERANCE	   1e-5 /* relative L2 error accepted (see below) */

static void reference_pass(const struct fft1d_pass *ps, const struct fft1d_c *x, struct fft1d_c *y,
			   const struct fft1d_c *tw, bool inverse, float scale)
{
	struct fft1d_c col[FFT1D_RADIX];

	for (uint64_t j = 0; j < ps->cols; j++) {
		for (unsigned m = 0; m < ps->r; m++)
			col[m] = fft1d_load_twiddle(x[j + m * ps->cols], j, m, ps, tw, inverse);
		for (unsigned m1 = 0; m1 < ps->r1; m1++)
			fft1d_stage1(col, 1, m1, ps, tw, inverse);
		for (unsigned s2 = 0; s2 < ps->r2; s2++)
			fft1d_stage2(col, 1, s2, ps, tw, inverse, scale);
		for (unsigned s = 0; s < ps->r; s++)
			y[fft1d_out_index(j, s, ps)] = col[fft1d_row(s, ps)];
	}
}

/* One transform of a, ping-ponging with b as the kernels do; returns the
 * array that holds the result. */
static struct fft1d_c *reference_transform(const struct fft1d_plan *plan, struct fft1d_c *a,
					   struct fft1d_c *b, const struct fft1d_c *tw,
					   bool inverse)
{
	for (int i = 0; i < plan->passes; i++) {
		struct fft1d_c *t = a;

		reference_pass(&plan->pass[i], a, b, tw, inverse,
			       fft1d_pass_scale(plan, i, inverse));
		a = b;
		b = t;
	}
	return a;
}

/*
 * exp(-2 pi i e / N) in double for any e < N from two small tables, w^e =
 * hi[e >> h] lo[e & (2^h - 1)] (2^h and N / 2^h entries, each computed by cos
 * and sin): the product's error is a few 1e-16, far below float's.
 */
struct roots {
	double *lo_re, *lo_im, *hi_re, *hi_im;
	unsigned h;
	uint64_t mask;
};

static bool roots_init(struct roots *r, int log2n)
{
	const double two_pi = 6.28318530717958647692;
	const double n = ldexp(1, log2n);
	const uint64_t nlo = 1ull << (log2n / 2), nhi = 1ull << (log2n - log2n / 2);

	r->h = (unsigned)(log2n / 2);
	r->mask = nlo - 1;
	r->lo_re = malloc(nlo * sizeof(double));
	r->lo_im = malloc(nlo * sizeof(double));
	r->hi_re = malloc(nhi * sizeof(double));
	r->hi_im = malloc(nhi * sizeof(double));
	if (!r->lo_re || !r->lo_im || !r->hi_re || !r->hi_im)
		return false;
	for (uint64_t e = 0; e < nlo; e++) {
		r->lo_re[e] = cos(two_pi * (double)e / n);
		r->lo_im[e] = -sin(two_pi * (double)e / n);
	}
	for (uint64_t e = 0; e < nhi; e++) {
		r->hi_re[e] = cos(two_pi * (double)(e << r->h) / n);
		r->hi_im[e] = -sin(two_pi * (double)(e << r->h) / n);
	}
	return true;
}

static void roots_free(struct roots *r)
{
	free(r->lo_re);
	free(r->lo_im);
	free(r->hi_re);
	free(r->hi_im);
}

/*
 * Bins ks[0..nb) of the DFT of x (N points) by its definition, summed in
 * double: forward X_k = sum_t x_t w^(k t); inverse (1/N) sum_t x_t w^(-k t).
 * One sweep over x for all bins.
 */
static void dft_bins(const struct fft1d_c *x, uint64_t n, const struct roots *r, const uint64_t *ks,
		     int nb, bool inverse, double *re, double *im, uint64_t *e)
{
	const double sign = inverse ? -1 : 1;

	for (int b = 0; b < nb; b++) {
		re[b] = im[b] = 0;
		e[b] = 0;
	}
	for (uint64_t t = 0; t < n; t++) {
		const double xr = x[t].x, xi = x[t].y;

		for (int b = 0; b < nb; b++) {
			const uint64_t hi = e[b] >> r->h, lo = e[b] & r->mask;
			const double wr = r->hi_re[hi] * r->lo_re[lo] - r->hi_im[hi] * r->lo_im[lo];
			const double wi =
			    sign * (r->hi_re[hi] * r->lo_im[lo] + r->hi_im[hi] * r->lo_re[lo]);

			re[b] += xr * wr - xi * wi;
			im[b] += xr * wi + xi * wr;
			e[b] = (e[b] + ks[b]) & (n - 1);
		}
	}
	if (inverse)
		for (int b = 0; b < nb; b++) {
			re[b] /= (double)n;
			im[b] /= (double)n;
		}
}

/* Relative L2 error of got[ks[b]] against (re, im). */
static double bins_error(const struct fft1d_c *got, const uint64_t *ks, int nb, const double *re,
			 const double *im)
{
	double e = 0, ref = 0;

	for (int b = 0; b < nb; b++) {
		const double dr = got[ks[b]].x - re[b], di = got[ks[b]].y - im[b];

		e += dr * dr + di * di;
		ref += re[b] * re[b] + im[b] * im[b];
	}
	return ref > 0 ? sqrt(e / ref) : sqrt(e);
}

/* Relative L2 error of got against want, over all n points. */
static double array_error(const struct fft1d_c *got, const struct fft1d_c *want, uint64_t n)
{
	double e = 0, ref = 0;

	for (uint64_t t = 0; t < n; t++) {
		const double dr = (double)got[t].x - want[t].x, di = (double)got[t].y - want[t].y;

		e += dr * dr + di * di;
		ref += (double)want[t].x * want[t].x + (double)want[t].y * want[t].y;
	}
	return ref > 0 ? sqrt(e / ref) : sqrt(e);
}

/*
 * The bit-for-bit check cannot see a pass that is wrong on both sides, so
 * the first forward transform is checked against the DFT's definition in
 * double, and the first inverse against the inverse DFT of that forward
 * output: every bin when N <= 4096, else 8 bins (0, 1, N/2, N - 1 and 4
 * random ones, each a sum over all N inputs, which all passes feed). The
 * round trip (forward then inverse) is also compared with the input over
 * the whole array, so that a bin the sample misses cannot be wrong in one
 * direction alone. Floats cannot match the definition exactly. Bound: a
 * radix-2 Cooley-Tukey FFT in float has a relative L2 error of order
 * sqrt(log2 N) roundings of 2^-24 (about 1e-7 at N = 2^27), plus the
 * twiddles' rounding (2^-24 relative each, a few per output); we accept
 * 1e-5 (measured, seed 1: 1.1e-7 to 2.8e-7 forward and inverse, 1.6e-7 to
 * 3.3e-7 round trip, from N = 2^9 to 2^27; the run prints them).
 * A wrong twiddle, index or sign gives an error of order 1.
 */
bool fft1d_reference(const struct wl *w, const struct fft1d_plan *plan, const struct fft1d_c *input,
		     struct fft1d_c *a, struct fft1d_c *b, const struct fft1d_c *tw, int iterations)
{
	const uint64_t n = 1ull << plan->log2n;
	const int nb = n <= FFT1D_ALL_BINS_MAX ? (int)n : FFT1D_BINS;
	uint64_t *ks = malloc((size_t)nb * sizeof(uint64_t));
	uint64_t *e = malloc((size_t)nb * sizeof(uint64_t));
	double *re = malloc((size_t)nb * sizeof(double)), *im = malloc((size_t)nb * sizeof(double));
	struct fft1d_c *f, *g;
	double ef, ei, er;
	struct roots r;
	struct wl_rng rng;
	bool pass;

	if (!ks || !e || !re || !im || !roots_init(&r, plan->log2n)) {
		fprintf(stderr, "%s: out of memory for the definition check\n", w->name);
		exit(1);
	}
	if (nb == (int)n) {
		for (int k = 0; k < nb; k++)
			ks[k] = (uint64_t)k;
	} else {
		ks[0] = 0;
		ks[1] = 1;
		ks[2] = n / 2;
		ks[3] = n - 1;
		wl_rng_seed(&rng, 0x5eed);
		for (int k = 4; k < nb; k++)
			ks[k] = wl_rng_below(&rng, n);
	}

	memcpy(a, input, n * sizeof(struct fft1d_c));
	f = reference_transform(plan, a, b, tw, false);
	dft_bins(input, n, &r, ks, nb, false, re, im, e);
	ef = bins_error(f, ks, nb, re, im);
	/* The inverse's definition, from the forward output it will read. */
	dft_bins(f, n, &r, ks, nb, true, re, im, e);
	g = reference_transform(plan, f, f == a ? b : a, tw, true);
	ei = bins_error(g, ks, nb, re, im);
	er = array_error(g, input, n);
	pass = ef <= FFT1D_TOLERANCE && ei <= FFT1D_TOLERANCE && er <= FFT1D_TOLERANCE;
	if (!pass)
		fprintf(stderr,
			"%s: relative L2 error against the DFT's definition %.3g forward, %.3g "
			"inverse (%d bins), round trip %.3g (accepted: %g)\n",
			w->name, ef, ei, nb, er, FFT1D_TOLERANCE);
	else
		wl_log(w,
		       "reference against the DFT's definition (%d bins): relative L2 error %.2g "
		       "forward, %.2g inverse; round trip %.2g",
		       nb, ef, ei, er);
	for (int it = 1; it < iterations; it++) {
		f = reference_transform(plan, g, g == a ? b : a, tw, false);
		g = reference_transform(plan, f, f == a ? b : a, tw, true);
	}
	if (g != a) { /* cannot happen: a round trip is an even number of passes */
		fprintf(stderr, "%s: the reference's result is not in its first array\n", w->name);
		exit(1);
	}
	roots_free(&r);
	free(ks);
	free(e);
	free(re);
	free(im);
	return pass;
}
