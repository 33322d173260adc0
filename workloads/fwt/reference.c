// SPDX-License-Identifier: MIT
/*
 * reference.c - fwt on the CPU, and a direct check of the convolution.
 *
 * The GPU's transform is a sequence of butterfly stages: radix-4 at strides
 * n/4, n/16, ... in global passes while more than 2^11 floats remain, then
 * the same stages inside each CTA's piece continuing the sequence down to
 * stride 1 or 2, and a radix-2 stage at stride 1 when log2 n is odd. Together
 * that is radix-4 at every stride 2^s for s = log2 n - 2, log2 n - 4, ...
 * down to 0 or 1, then radix-2 if log2 n is odd, whatever the split between
 * global passes and shared memory. The stages' butterflies touch disjoint
 * elements, so their order within a stage does not matter: running the
 * stages in sequence with the same butterflies gives the GPU's result bit for
 * bit.
 */
#include "fwt.h"

#include <math.h>

static void transform(float *d, int log2n)
{
	const uint64_t n = (uint64_t)1 << log2n;

	for (int s = log2n - 2; s >= 0; s -= 2) {
		const uint64_t stride = (uint64_t)1 << s;

		for (uint64_t pos = 0; pos < n / 4; pos++) {
			const uint64_t i0 = fwt_first(pos, stride);

			fwt_radix4(&d[i0], &d[i0 + stride], &d[i0 + 2 * stride],
				   &d[i0 + 3 * stride]);
		}
	}
	if (log2n & 1)
		for (uint64_t pos = 0; pos < n / 2; pos++)
			fwt_radix2(&d[2 * pos], &d[2 * pos + 1]);
}

void fwt_reference(const struct fwt_problem *p, float *data, float *kern)
{
	const uint64_t n = (uint64_t)1 << p->log2n;
	const float rcpn = 1.0f / (float)n;

	for (uint64_t b = 0; b < (uint64_t)p->batch; b++) {
		float *d = data + b * n, *k = kern + b * n;

		transform(d, p->log2n);
		transform(k, p->log2n);
		for (uint64_t i = 0; i < n; i++)
			d[i] = fwt_modulate(d[i], k[i], rcpn);
		transform(d, p->log2n);
	}
}

/*
 * The dyadic convolution out[i] = sum over j < 2^log2k of data[i ^ j] *
 * kern[j], computed directly in double at a sample of outputs, checks that
 * the butterflies really compute it (the bit-for-bit check above cannot see a
 * wrong butterfly shared by both sides). The float transforms cannot match a
 * double sum exactly, and per element the relative error is unbounded where
 * an output is near zero, so the criterion is the sample's own: the relative
 * L2 error over the sampled outputs, ||got - want|| / ||want||. The
 * Walsh-Hadamard transform scaled by n^-1/2 is orthogonal, and a float
 * transform of log2 n butterfly levels keeps its relative L2 error within
 * about log2 n rounding units (2^-24 each); the convolution takes three
 * transforms and one modulation, so at most about 3 x 28 x 2^-24 = 5e-6 for
 * the largest vectors (2^28). We accept 1e-5. (Measured at the default size:
 * 3e-7 per element at worst.) A wrong butterfly, stride or scale changes the
 * outputs by O(1) relative, far above it.
 */
bool fwt_check_direct(const struct wl *w, const struct fwt_problem *p, const float *data,
		      const float *kern, const float *got, int samples)
{
	const uint64_t n = (uint64_t)1 << p->log2n, k = (uint64_t)1 << p->log2k;
	const uint64_t total = fwt_elems(p);
	double err2 = 0, ref2 = 0, l2;
	struct wl_rng r;

	wl_rng_seed(&r, 0x5eed);
	for (int s = 0; s < samples; s++) {
		/* The first and last outputs, then random ones. */
		const uint64_t at = s == 0 ? 0 : s == 1 ? total - 1 : wl_rng_below(&r, total);
		const uint64_t b = at / n, i = at % n;
		const float *d = data + b * n, *kv = kern + b * n;
		double want = 0;

		for (uint64_t j = 0; j < k; j++)
			want += (double)d[i ^ j] * (double)kv[j];
		err2 += ((double)got[at] - want) * ((double)got[at] - want);
		ref2 += want * want;
	}
	l2 = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
	if (l2 <= 1e-5)
		return true;
	fprintf(stderr,
		"%s: relative L2 error %.3g over %d outputs against the direct convolution "
		"(accepted: 1e-5)\n",
		w->name, l2, samples);
	return false;
}
