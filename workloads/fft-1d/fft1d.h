/* SPDX-License-Identifier: MIT */
/*
 * fft1d.h - one large complex single-precision 1-D FFT of N = 2^p points
 * (p from 9 to 31), done as cuFFT does a large power-of-two transform: a few
 * passes (kernels), each a batch of radix-R sub-transforms whose R inputs lie
 * N/R points apart, so that every pass reads the whole array with long
 * strides. The stand-in for the 2024 batch study's cuFFT workload (the SHOC
 * `fft` reads 4 KB contiguous per CTA, which a large cuFFT transform does
 * not).
 *
 * The formulation is Stockham's autosort FFT: natural order in and out, no
 * bit reversal, out of place, ping-ponging between two arrays. A pass of
 * radix R on sub-transforms of length L (L = 1 at the first pass, times R
 * after each) takes, for every column j in [0, N/R) with k = j mod L,
 *
 *	a_m = x[j + m N/R] * w^(k m),  m in [0, R),  w = exp(-+2 pi i / (L R))
 *
 * and writes the R-point DFT of the a_m, output s, to y[(j - k) R + k + s L].
 * (Proof sketch: after the pass with product L' = L R, y[q L' + k'] for
 * q < N/L', k' < L' is output k' of the L'-point DFT of the subsequence
 * x0[q + t N/L'], t < L', of the original input x0; the twiddle w^(k m) and
 * the R-point DFT over m are one radix-R decimation-in-time step of it. At
 * the end L' = N: y is the DFT in natural order.) Every pass has R = 256
 * except the last, which has what remains (2 to 256).
 *
 * Inside a pass the R-point DFT is a four-step split R = R1 x R2 with
 * R2 = min(R, 16): input m = m1 + R1 m2, output s = s2 + R2 s1. Stage 1, for
 * each m1: the R2-point DFT over m2, output s2 times W_R^(s2 m1); stage 2, for
 * each s2: the R1-point DFT over m1, giving output s2 + R2 s1. The small DFTs
 * (2 to 16 points) are radix-2 decimation in frequency.
 *
 * Every floating-point operation of a pass is in an inline function here,
 * shared by the kernels and the CPU reference (EMU_HOST_DEVICE), so that
 * both do the same operations in the same order and agree bit for bit.
 */
#ifndef FFT1D_H
#define FFT1D_H

#include <stdbool.h>
#include <stdint.h>

#include "emugpu.h"
#include "wl.h"

#define FFT1D_MIN_LOG2	   9   /* N from 2^9 */
#define FFT1D_MAX_LOG2	   31  /* to 2^31 points (32 GiB) */
#define FFT1D_RADIX	   256 /* the radix of every pass but the last */
#define FFT1D_LOG2_RADIX   8
#define FFT1D_MAX_PASSES   4   /* ceil(31 / 8) */
#define FFT1D_THREADS	   256 /* threads per CTA */
#define FFT1D_COLUMNS	   16  /* columns (sub-transforms) per CTA, at most */
#define FFT1D_LOG2_COLUMNS 4
#define FFT1D_SPLIT	   16 /* R2 = min(R, 16): the largest small DFT */
#define FFT1D_LOG2_SPLIT   4

struct fft1d_c {
	float x, y; /* real, imaginary (CUDA's float2) */
};

/* One pass: what its kernel and the reference need, by value. */
struct fft1d_pass {
	uint64_t n;	  /* N */
	uint64_t l;	  /* L: the sub-transforms' length before this pass */
	uint64_t cols;	  /* N / R: the columns, R inputs each, N/R apart */
	uint64_t tw_step; /* N / (L R): w^e is the table's entry e N / (L R) */
	unsigned r;	  /* the radix R */
	unsigned r1, r2;  /* R = R1 x R2, R2 = min(R, 16) */
	unsigned log2_r1, log2_r2;
	unsigned c, log2_c; /* columns per CTA: C = min(16, N / R) */
	unsigned q, log2_q; /* the store's runs: Q = min(C, L) consecutive columns */
};

struct fft1d_plan {
	int log2n;
	int passes;
	struct fft1d_pass pass[FFT1D_MAX_PASSES];
};

/* The passes of N = 2^log2n (run.c). */
void fft1d_plan_init(struct fft1d_plan *plan, int log2n);

/* Pass i's output scale: the inverse transform's last pass divides by N. */
static inline float fft1d_pass_scale(const struct fft1d_plan *plan, int i, bool inverse)
{
	return inverse && i == plan->passes - 1 ? 1.0f / (float)plan->pass[i].n : 1.0f;
}

EMU_HOST_DEVICE static inline struct fft1d_c fft1d_add(struct fft1d_c a, struct fft1d_c b)
{
	struct fft1d_c c;

	c.x = a.x + b.x;
	c.y = a.y + b.y;
	return c;
}

EMU_HOST_DEVICE static inline struct fft1d_c fft1d_sub(struct fft1d_c a, struct fft1d_c b)
{
	struct fft1d_c c;

	c.x = a.x - b.x;
	c.y = a.y - b.y;
	return c;
}

EMU_HOST_DEVICE static inline struct fft1d_c fft1d_mul(struct fft1d_c a, struct fft1d_c b)
{
	struct fft1d_c c;

	c.x = a.x * b.x - a.y * b.y;
	c.y = a.x * b.y + a.y * b.x;
	return c;
}

/* w_N^e = exp(-2 pi i e / N) from the table (e < N), conjugated for the
 * inverse. The table is plain host memory (gen.c; README). */
EMU_HOST_DEVICE static inline struct fft1d_c fft1d_tw(const struct fft1d_c *tw, uint64_t e,
						      bool inverse)
{
	struct fft1d_c w = tw[e];

	if (inverse)
		w.y = -w.y;
	return w;
}

/* a times w_N^e; e = 0 leaves a as it is (no multiplication by 1). */
EMU_HOST_DEVICE static inline struct fft1d_c
fft1d_twiddle(struct fft1d_c a, const struct fft1d_c *tw, uint64_t e, bool inverse)
{
	return e ? fft1d_mul(a, fft1d_tw(tw, e, inverse)) : a;
}

/* The low `bits` bits of k reversed. */
EMU_HOST_DEVICE static inline unsigned fft1d_rev(unsigned k, unsigned bits)
{
	unsigned r = 0;

	for (unsigned b = 0; b < bits; b++, k >>= 1)
		r = (r << 1) | (k & 1);
	return r;
}

/* Inlined where it is called with a constant size, so that its loops unroll. */
#define FFT1D_UNROLLED __attribute__((always_inline))

/*
 * The n-point DFT (n = 2^bits <= 16) of a[0..n) in place, radix-2
 * decimation in frequency; W_n^j is the table's entry j N/n (`step` = N/n).
 * The outputs land in bit-reversed order: output s is a[fft1d_rev(s, bits)].
 */
EMU_HOST_DEVICE static inline FFT1D_UNROLLED void
fft1d_dft(struct fft1d_c *a, unsigned bits, const struct fft1d_c *tw, uint64_t step, bool inverse)
{
	const unsigned n = 1u << bits;

	for (unsigned half = n / 2; half >= 1; half /= 2, step *= 2)
		for (unsigned base = 0; base < n; base += 2 * half)
			for (unsigned j = 0; j < half; j++) {
				const struct fft1d_c u = a[base + j], v = a[base + j + half];

				a[base + j] = fft1d_add(u, v);
				a[base + j + half] =
				    fft1d_twiddle(fft1d_sub(u, v), tw, j * step, inverse);
			}
}

/* The load: input m of column j times the pass's twiddle w^(k m),
 * k = j mod L, which is the table's entry k m N / (L R) (< N). */
EMU_HOST_DEVICE static inline struct fft1d_c
fft1d_load_twiddle(struct fft1d_c a, uint64_t j, unsigned m, const struct fft1d_pass *ps,
		   const struct fft1d_c *tw, bool inverse)
{
	return fft1d_twiddle(a, tw, (j & (ps->l - 1)) * m * ps->tw_step, inverse);
}

/*
 * Stage 1 for m1 on one column of the tile, whose input m sits at
 * col[m * stride]: the R2-point DFT (R2 = 2^bits) of inputs m1 + R1 m2
 * (m2 < R2), output s2 times W_R^(s2 m1) (the table's entry s2 m1 N/R),
 * written back in place: output s2 of m1 at col[(m1 + R1 s2) * stride].
 */
EMU_HOST_DEVICE static inline FFT1D_UNROLLED void
fft1d_stage1_n(struct fft1d_c *col, unsigned stride, unsigned m1, const struct fft1d_pass *ps,
	       const struct fft1d_c *tw, bool inverse, unsigned bits)
{
	const unsigned r2 = 1u << bits;
	struct fft1d_c v[FFT1D_SPLIT];

	for (unsigned m2 = 0; m2 < r2; m2++)
		v[m2] = col[(m1 + ps->r1 * m2) * stride];
	fft1d_dft(v, bits, tw, ps->n >> bits, inverse);
	for (unsigned s2 = 0; s2 < r2; s2++)
		col[(m1 + ps->r1 * s2) * stride] = fft1d_twiddle(
		    v[fft1d_rev(s2, bits)], tw, (uint64_t)s2 * m1 * ps->cols, inverse);
}

/* Stage 1 for the pass's R2, each size compiled with its loops unrolled. */
EMU_HOST_DEVICE static inline void fft1d_stage1(struct fft1d_c *col, unsigned stride, unsigned m1,
						const struct fft1d_pass *ps,
						const struct fft1d_c *tw, bool inverse)
{
	switch (ps->log2_r2) {
	case 4:
		fft1d_stage1_n(col, stride, m1, ps, tw, inverse, 4);
		break;
	case 3:
		fft1d_stage1_n(col, stride, m1, ps, tw, inverse, 3);
		break;
	case 2:
		fft1d_stage1_n(col, stride, m1, ps, tw, inverse, 2);
		break;
	default: /* R2 = 2: R >= 2 */
		fft1d_stage1_n(col, stride, m1, ps, tw, inverse, 1);
		break;
	}
}

/*
 * Stage 2 for s2: the R1-point DFT (R1 = 2^bits) of stage 1's outputs s2 (at
 * col[(m1 + R1 s2) * stride], m1 < R1), times `scale` (1, or 1/N at the
 * inverse's last pass: a power of two, exact), written back in place: the
 * pass's output s2 + R2 s1 at col[(s1 + R1 s2) * stride] (fft1d_row).
 */
EMU_HOST_DEVICE static inline FFT1D_UNROLLED void
fft1d_stage2_n(struct fft1d_c *col, unsigned stride, unsigned s2, const struct fft1d_pass *ps,
	       const struct fft1d_c *tw, bool inverse, float scale, unsigned bits)
{
	const unsigned r1 = 1u << bits;
	struct fft1d_c v[FFT1D_SPLIT];

	for (unsigned m1 = 0; m1 < r1; m1++)
		v[m1] = col[(m1 + r1 * s2) * stride];
	fft1d_dft(v, bits, tw, ps->n >> bits, inverse);
	for (unsigned s1 = 0; s1 < r1; s1++) {
		struct fft1d_c o = v[fft1d_rev(s1, bits)];

		if (scale != 1.0f) {
			o.x *= scale;
			o.y *= scale;
		}
		col[(s1 + r1 * s2) * stride] = o;
	}
}

/* Stage 2 for the pass's R1 (1 when R <= 16: only the scaling). */
EMU_HOST_DEVICE static inline void fft1d_stage2(struct fft1d_c *col, unsigned stride, unsigned s2,
						const struct fft1d_pass *ps,
						const struct fft1d_c *tw, bool inverse, float scale)
{
	switch (ps->log2_r1) {
	case 4:
		fft1d_stage2_n(col, stride, s2, ps, tw, inverse, scale, 4);
		break;
	case 3:
		fft1d_stage2_n(col, stride, s2, ps, tw, inverse, scale, 3);
		break;
	case 2:
		fft1d_stage2_n(col, stride, s2, ps, tw, inverse, scale, 2);
		break;
	case 1:
		fft1d_stage2_n(col, stride, s2, ps, tw, inverse, scale, 1);
		break;
	default:
		fft1d_stage2_n(col, stride, s2, ps, tw, inverse, scale, 0);
		break;
	}
}

/* Where stage 2 leaves the pass's output s in its column. */
EMU_HOST_DEVICE static inline unsigned fft1d_row(unsigned s, const struct fft1d_pass *ps)
{
	return (s >> ps->log2_r2) + ps->r1 * (s & (ps->r2 - 1));
}

/* Where output s of column j goes: y[(j - k) R + k + s L], k = j mod L. */
EMU_HOST_DEVICE static inline uint64_t fft1d_out_index(uint64_t j, unsigned s,
						       const struct fft1d_pass *ps)
{
	const uint64_t k = j & (ps->l - 1);

	return (j - k) * ps->r + k + s * ps->l;
}

/* The kernels' arguments: one pass from x to y. */
struct fft1d_args {
	const struct fft1d_c *x;
	struct fft1d_c *y;
	const struct fft1d_c *tw; /* plain host memory: the twiddle table */
	struct fft1d_pass pass;
	float scale; /* 1, or 1/N at the inverse transform's last pass */
};

/* kernels.c: one pass of the forward transform, one of the inverse; a CTA of
 * 256 threads per C columns. */
EMU_KERNEL_DECLARE(fft1d_forward, struct fft1d_args);
EMU_KERNEL_DECLARE(fft1d_inverse, struct fft1d_args);

/* gen.c: the table of the N roots of unity w_N^e, e < N (8 N bytes); and the
 * input, real and imaginary parts uniform in [-1, 1). */
void fft1d_twiddles_init(struct fft1d_c *tw, uint64_t n);
void fft1d_generate(struct fft1d_c *x, uint64_t n, uint64_t seed);

/* run.c: `iterations` times the forward then the inverse transform of x
 * (passes ping-pong between x and y; the result ends in x), with the data's
 * crossings for --mem. */
void fft1d_run_gpu(const struct wl *w, const struct fft1d_plan *plan, struct fft1d_c *x,
		   struct fft1d_c *y, const struct fft1d_c *tw, int iterations);

/* reference.c: the same transforms on the CPU from `input` into a (b is
 * scratch), checking the first forward and inverse against the DFT's
 * definition; true when those checks pass. */
bool fft1d_reference(const struct wl *w, const struct fft1d_plan *plan, const struct fft1d_c *input,
		     struct fft1d_c *a, struct fft1d_c *b, const struct fft1d_c *tw,
		     int iterations);

#endif
