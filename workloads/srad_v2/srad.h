/* SPDX-License-Identifier: MIT */
/*
 * srad.h - Rodinia srad_v2: speckle-reducing anisotropic diffusion of an
 * image J. Declarations and the per-pixel arithmetic shared by the kernels
 * and the CPU reference, so that both do the same float (and, where the
 * original writes double constants, double) operations in the same order.
 */
#ifndef SRAD_H
#define SRAD_H

#include <stddef.h>

#include "emugpu.h"
#include "wl.h"

/* CTA edge: 16 x 16 threads, one pixel each; rows and cols are multiples. */
#define SRAD_BLOCK 16

/* The speckle region the host measures every iteration (rows r1..r2,
 * columns c1..c2, inclusive). */
struct srad_roi {
	int r1, r2, c1, c2;
};

/* The arrays, rows * cols floats each: managed, except c and the
 * derivatives with scratch_on_device (--scratch device: cudaMalloc). */
struct srad_data {
	float *j;		  /* the image, updated in place */
	float *c;		  /* diffusion coefficient */
	float *dn, *ds, *dw, *de; /* directional derivatives */
	bool scratch_on_device;
};

/*
 * q0^2, the speckle scale: variance over squared mean of J in the region.
 * The host computes it before each iteration by reading J (in the GPU run,
 * managed memory the kernels wrote).
 */
static inline float srad_q0sqr(const float *j, int cols, const struct srad_roi *roi)
{
	int size_r = (roi->r2 - roi->r1 + 1) * (roi->c2 - roi->c1 + 1);
	float sum = 0, sum2 = 0, mean, var;

	for (int r = roi->r1; r <= roi->r2; r++)
		for (int c = roi->c1; c <= roi->c2; c++) {
			float tmp = j[(size_t)r * (size_t)cols + (size_t)c];

			sum += tmp;
			sum2 += tmp * tmp;
		}
	mean = sum / (float)size_r;
	var = (sum2 / (float)size_r) - mean * mean;
	return var / (mean * mean);
}

/*
 * Diffusion coefficient of a pixel of value jc with derivatives n, s, w, e
 * (neighbour minus jc), saturated to [0, 1]. The original writes 0.5,
 * 1.0/16.0, .25 and 1.0 as double constants, so those steps run in double.
 */
EMU_HOST_DEVICE static inline float srad_coefficient(float jc, float n, float s, float w, float e,
						     float q0sqr)
{
	float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
	float l = (n + s + w + e) / jc;
	float num = (float)((0.5 * g2) - ((1.0 / 16.0) * (l * l)));
	float den = (float)(1 + (.25 * l));
	float qsqr = num / (den * den);
	float c;

	den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
	c = (float)(1.0 / (1.0 + den));
	if (c < 0)
		return 0;
	if (c > 1)
		return 1;
	return c;
}

/* The update of a pixel from its divergence (0.25 is a double, as above). */
EMU_HOST_DEVICE static inline float srad_update(float jc, float cn, float cs, float cw, float ce,
						float dn, float ds, float dw, float de,
						float lambda)
{
	float d_sum = cn * dn + cs * ds + cw * dw + ce * de;

	return (float)(jc + 0.25 * lambda * d_sum);
}

struct srad_cuda_1_args {
	float *e_c, *w_c, *n_c, *s_c;
	const float *j_cuda;
	float *c_cuda;
	int cols, rows;
	float q0sqr;
};

struct srad_cuda_2_args {
	const float *e_c, *w_c, *n_c, *s_c;
	float *j_cuda;
	const float *c_cuda;
	int cols, rows;
	float lambda, q0sqr;
};

/* Derivatives and diffusion coefficient of each pixel, a 16 x 16 tile per
 * CTA; then the update of J in place (kernels.c). */
EMU_KERNEL_DECLARE(srad_cuda_1, struct srad_cuda_1_args);
EMU_KERNEL_DECLARE(srad_cuda_2, struct srad_cuda_2_args);

/* J = exp(uniform [0, 1)) per pixel, from the seed (gen.c). */
void srad_generate(uint64_t seed, float *j, size_t n);

/* run.c: the iterations on the device: per iteration the host computes q0^2
 * from J, then kernel 1 (derivatives, coefficient) and kernel 2 (update)
 * run; at the end J is on the host (--mem). */
void srad_run_gpu(const struct wl *w, const struct srad_data *d, int rows, int cols,
		  const struct srad_roi *roi, float lambda, int iterations);

/* The same on the CPU; `j` is updated in place. Returns 0, or -1 when its
 * scratch arrays cannot be allocated. */
int srad_reference(float *j, int rows, int cols, const struct srad_roi *roi, float lambda,
		   int iterations);

#endif
