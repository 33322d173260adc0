/* SPDX-License-Identifier: MIT */
/*
 * fft.h - SHOC-style batched 512-point FFTs on emu-gpu: one CTA of 64
 * threads per transform, each thread holding 8 complex values through three
 * radix-8 stages with twiddles between them, the values exchanged through
 * shared memory between stages. Forward and inverse kernels.
 *
 * The per-thread work of each stage is an inline function here, shared by the
 * kernels and the CPU reference, so that both do the same float operations
 * in the same order.
 *
 * The decomposition: n = t + 64 r (t the thread, r its 8 values) and
 * k = k1 + 8 (c + 8 d). Stage 1: thread t transforms its 8 values over r
 * (giving k1) and multiplies by W512^(t k1). Stage 2: for each (k1, a), with
 * t = a + 8 b, an 8-point transform over b (giving c), times W64^(a c).
 * Stage 3: for each (k1, c), an 8-point transform over a (giving d); the
 * result X[k1 + 8 c + 64 d].
 */
#ifndef FFT_H
#define FFT_H

#include <stdbool.h>
#include <stdint.h>

#include "uvmemu.h"
#include "wl.h"

#define FFT_N	    512 /* points per transform */
#define FFT_THREADS 64	/* threads per CTA: 8 values each */

struct fft_c {
	float x, y; /* real, imaginary (CUDA's float2) */
};

struct fft_problem {
	long long ffts;	    /* transforms in the batch */
	int iterations;	    /* forward + inverse launches each */
	struct fft_c *work; /* managed: ffts x 512 complex values, in place */
};

/* W512^m = exp(-2 pi i m / 512) for m < 512, rounded from double: the
 * forward transform's twiddles (the inverse uses their conjugates). The
 * table is plain host memory read by the kernels, the stand-in for SHOC's
 * on-the-fly __sincosf (see the README). */
struct fft_twiddles {
	struct fft_c w[FFT_N];
};

void fft_twiddles_init(struct fft_twiddles *t);

static inline struct fft_c fft_add(struct fft_c a, struct fft_c b)
{
	return (struct fft_c){a.x + b.x, a.y + b.y};
}

static inline struct fft_c fft_sub(struct fft_c a, struct fft_c b)
{
	return (struct fft_c){a.x - b.x, a.y - b.y};
}

static inline struct fft_c fft_mul(struct fft_c a, struct fft_c b)
{
	return (struct fft_c){a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

/* Twiddle m of the forward table, conjugated for the inverse. */
static inline struct fft_c fft_tw(const struct fft_twiddles *t, unsigned m, bool inverse)
{
	struct fft_c w = t->w[m];

	if (inverse)
		w.y = -w.y;
	return w;
}

/*
 * An 8-point transform in place (exp(-2 pi i / 8) for the forward one, its
 * conjugate for the inverse), decimation in frequency: three radix-2 stages,
 * the eighth-turn twiddles done with sqrt(1/2) and the quarter turns by
 * swapping parts. The outputs land in bit-reversed order: out[k] = a[rev(k)].
 */
static inline void fft8(struct fft_c a[8], bool inverse)
{
	const float h = 0.70710678118654752f; /* sqrt(1/2) */
	struct fft_c d;

	for (int j = 0; j < 4; j++) {
		d = fft_sub(a[j], a[j + 4]);
		a[j] = fft_add(a[j], a[j + 4]);
		a[j + 4] = d;
	}
	/* a[5] *= W8, a[6] *= W8^2, a[7] *= W8^3 (conjugates for the inverse). */
	d = a[5];
	a[5] = inverse ? (struct fft_c){(d.x - d.y) * h, (d.x + d.y) * h}
		       : (struct fft_c){(d.x + d.y) * h, (d.y - d.x) * h};
	d = a[6];
	a[6] = inverse ? (struct fft_c){-d.y, d.x} : (struct fft_c){d.y, -d.x};
	d = a[7];
	a[7] = inverse ? (struct fft_c){-(d.x + d.y) * h, (d.x - d.y) * h}
		       : (struct fft_c){(d.y - d.x) * h, -(d.x + d.y) * h};
	for (int base = 0; base < 8; base += 4) {
		for (int j = 0; j < 2; j++) {
			d = fft_sub(a[base + j], a[base + j + 2]);
			a[base + j] = fft_add(a[base + j], a[base + j + 2]);
			a[base + j + 2] = d;
		}
		d = a[base + 3];
		a[base + 3] = inverse ? (struct fft_c){-d.y, d.x} : (struct fft_c){d.y, -d.x};
	}
	for (int j = 0; j < 8; j += 2) {
		d = fft_sub(a[j], a[j + 1]);
		a[j] = fft_add(a[j], a[j + 1]);
		a[j + 1] = d;
	}
}

/* Bit reversal of 3 bits: where fft8 leaves output k. */
static inline unsigned fft_rev8(unsigned k)
{
	return ((k & 1) << 2) | (k & 2) | ((k >> 2) & 1);
}

/* Stage 1 for thread t: v holds x[t + 64 r] for r = 0..7; out[k1] gets
 * Y_t[k1] W512^(t k1). */
static inline void fft_stage1(struct fft_c v[8], struct fft_c out[8], unsigned t,
			      const struct fft_twiddles *tw, bool inverse)
{
	fft8(v, inverse);
	for (unsigned k1 = 0; k1 < 8; k1++)
		out[k1] = fft_mul(v[fft_rev8(k1)], fft_tw(tw, t * k1, inverse));
}

/* Stage 2 for (k1, a): v holds stage 1's outputs k1 of threads a + 8 b for
 * b = 0..7; out[c] gets their transform times W64^(a c) = W512^(8 a c). */
static inline void fft_stage2(struct fft_c v[8], struct fft_c out[8], unsigned a,
			      const struct fft_twiddles *tw, bool inverse)
{
	fft8(v, inverse);
	for (unsigned c = 0; c < 8; c++)
		out[c] = fft_mul(v[fft_rev8(c)], fft_tw(tw, 8 * a * c, inverse));
}

/* Stage 3 for (k1, c): v holds stage 2's outputs c of (k1, a) for a = 0..7;
 * out[d] gets X[k1 + 8 c + 64 d], scaled by 1/512 for the inverse (a power
 * of two: exact). */
static inline void fft_stage3(struct fft_c v[8], struct fft_c out[8], bool inverse)
{
	fft8(v, inverse);
	for (unsigned d = 0; d < 8; d++) {
		out[d] = v[fft_rev8(d)];
		if (inverse) {
			out[d].x *= 1.0f / FFT_N;
			out[d].y *= 1.0f / FFT_N;
		}
	}
}

/* gen.c: real and imaginary parts uniform in [-1, 1), as SHOC's input. */
void fft_generate(const struct fft_problem *p, uint64_t seed);

/* kernels.c: `iterations` times the forward then the inverse launch over the
 * whole batch, then a synchronisation. */
void fft_run_gpu(const struct wl *w, const struct fft_problem *p, const struct fft_twiddles *tw);

/* reference.c: one transform on the CPU in place, with the kernels' stages. */
void fft_reference_one(struct fft_c x[FFT_N], const struct fft_twiddles *tw, bool inverse);

/* reference.c: the sampled transforms of `input` (host copy) against the
 * DFT's definition in double, forward and inverse; true within tolerance. */
bool fft_check_definition(const struct wl *w, const struct fft_c *input, long long ffts,
			  const struct fft_twiddles *tw);

#endif
