/* SPDX-License-Identifier: MIT */
/*
 * fwt.h - the CUDA samples' fastWalshTransform on emu-gpu: dyadic
 * convolution of a data vector with a short kernel through three fast
 * Walsh-Hadamard transforms (data, kernel, then the product), for a batch of
 * independent vectors. The butterflies and the modulation are shared by the
 * kernels and the CPU reference, so that both do the same float operations.
 */
#ifndef FWT_H
#define FWT_H

#include <stdbool.h>
#include <stdint.h>

#include "uvmemu.h"
#include "wl.h"

/* Transforms of more than 2^FWT_ELEMENTARY_LOG2 floats take radix-4 passes
 * in global memory until that size is reached; the rest is done per CTA in
 * shared memory (the original's ELEMENTARY_LOG2SIZE). */
#define FWT_ELEMENTARY_LOG2 11
#define FWT_PASS_THREADS    256 /* threads per CTA of a global radix-4 pass */
#define FWT_MOD_CTAS	    128 /* the modulation: 128 CTAs of 256 threads */
#define FWT_MOD_THREADS	    256

struct fwt_problem {
	int log2n;   /* each vector has n = 2^log2n floats */
	int log2k;   /* the kernel's nonzero length, 2^log2k <= n */
	int batch;   /* independent vectors */
	float *data; /* managed: batch x n, the input, then the result */
	float *kern; /* managed: batch x n, the kernel padded with zeros */
};

static inline uint64_t fwt_elems(const struct fwt_problem *p)
{
	return (uint64_t)p->batch << p->log2n;
}

/* The radix-4 butterfly on elements d0..d3 at one stride: a 4-point
 * Walsh-Hadamard transform, in the original's order of operations. */
static inline void fwt_radix4(float *d0, float *d1, float *d2, float *d3)
{
	float a0 = *d0 + *d2, a2 = *d0 - *d2;
	float a1 = *d1 + *d3, a3 = *d1 - *d3;

	*d0 = a0 + a1;
	*d1 = a0 - a1;
	*d2 = a2 + a3;
	*d3 = a2 - a3;
}

/* The radix-2 butterfly that ends a transform of odd log2 size. */
static inline void fwt_radix2(float *d0, float *d1)
{
	float a = *d0, b = *d1;

	*d0 = a + b;
	*d1 = a - b;
}

/* The modulation: data *= kernel * (1 / n), as the original's
 * d_A[pos] *= d_B[pos] * rcpN. */
static inline float fwt_modulate(float a, float b, float rcpn)
{
	return a * (b * rcpn);
}

/* Where the radix-4 butterfly of thread `pos` at `stride` starts: the
 * original's i0 = ((pos - lo) << 2) + lo with lo = pos & (stride - 1). */
static inline uint64_t fwt_first(uint64_t pos, uint64_t stride)
{
	uint64_t lo = pos & (stride - 1);

	return ((pos - lo) << 2) + lo;
}

/* gen.c: per vector, the data uniform in [0, 1), then the kernel's first
 * 2^log2k floats uniform in [0, 1) and zeros after them. */
void fwt_generate(const struct fwt_problem *p, uint64_t seed);

/* kernels.c: transform the data, transform the kernel, modulate, transform
 * the product (22 launches for the original's 2^23 floats), then
 * synchronise. Returns the number of launches. */
int fwt_gpu(const struct wl *w, const struct fwt_problem *p);

/* reference.c: the same on the CPU, in place on host copies `data` and
 * `kern` of the inputs. */
void fwt_reference(const struct fwt_problem *p, float *data, float *kern);

/* reference.c: the dyadic convolution computed directly, in double, at
 * `samples` outputs spread over the batch, against `got` (the GPU's result);
 * `data` and `kern` are the inputs. True when within the tolerance. */
bool fwt_check_direct(const struct wl *w, const struct fwt_problem *p, const float *data,
		      const float *kern, const float *got, int samples);

#endif
