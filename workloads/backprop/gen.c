// SPDX-License-Identifier: MIT
/*
 * gen.c - backprop's initial network, from the seeded generator.
 *
 * The original fills inputs and weights with rand()/RAND_MAX. With n_in
 * inputs and weights all in [0, 1) every hidden sum is about n_in / 4, the
 * sigmoid saturates to exactly 1, the hidden errors h(1 - h)... are exactly 0
 * and the weight-update kernel adds zeros, which would leave it unchecked.
 * Here the input-to-hidden weights are zero-mean and scaled by 1/sqrt(n_in),
 * so the hidden sums stay near the sigmoid's middle at every size and every
 * weight change is a real, nonzero result.
 */
#include "backprop.h"

#include <math.h>
#include <string.h>

/* Uniform in [-scale, scale). */
static float symmetric(struct wl_rng *r, double scale)
{
	return (float)((2.0 * wl_rng_unit(r) - 1.0) * scale);
}

void bp_generate(struct bp_net *net, int in, float *input, float *weights, float *prev_weights,
		 uint64_t seed)
{
	const uint64_t count = bp_weights_count(in);
	const double scale = 1.0 / sqrt((double)in);
	struct wl_rng r;

	memset(net, 0, sizeof(*net));
	net->in = in;
	wl_rng_seed(&r, seed);

	input[0] = 1.0f; /* the bias unit */
	for (int k = 1; k <= in; k++)
		input[k] = (float)wl_rng_unit(&r);
	for (uint64_t i = 0; i < count; i++)
		weights[i] = symmetric(&r, scale);
	memcpy(net->bias_weights, weights, sizeof(net->bias_weights));
	/* Written on the host, as the original's copy of its zeroed array. */
	memset(prev_weights, 0, count * sizeof(float));

	for (int j = 0; j <= BP_HIDDEN; j++)
		for (int k = 0; k <= BP_OUTPUT; k++)
			net->hidden_weights[j][k] = symmetric(&r, 1.0);
	net->target[1] = 0.1f;
}
