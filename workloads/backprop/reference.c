// SPDX-License-Identifier: MIT
/*
 * reference.c - backprop's training step on the CPU, from a fresh copy of
 * the generated network, with the kernels' float operations in the kernels'
 * order: products rounded to float, the same column-sum tree per 16-row
 * block, the same double-valued weight changes rounded on store. The results
 * must then equal the GPU's bit for bit.
 */
#include "backprop.h"

#include <stdlib.h>
#include <string.h>

/* Weight of input unit 16*by + ty + 1 to hidden unit tx + 1. */
static size_t ref_index(int by, int ty, int tx)
{
	return ((size_t)BP_HEIGHT * by + ty + 1) * (BP_HIDDEN + 1) + tx + 1;
}

/* bpnn_layerforward_CUDA, one 16-row block after another. */
static void ref_forward(int in, const float *input, float *weights, float *partial)
{
	for (int by = 0; by < in / BP_HEIGHT; by++) {
		float m[BP_HEIGHT][BP_WIDTH];

		for (int ty = 0; ty < BP_HEIGHT; ty++)
			for (int tx = 0; tx < BP_WIDTH; tx++)
				m[ty][tx] =
				    weights[ref_index(by, ty, tx)] * input[BP_HEIGHT * by + ty + 1];
		for (int p = 2; p <= BP_HEIGHT; p *= 2)
			for (int ty = 0; ty < BP_HEIGHT; ty += p)
				for (int tx = 0; tx < BP_WIDTH; tx++)
					m[ty][tx] = m[ty][tx] + m[ty + p / 2][tx];
		for (int ty = 0; ty < BP_HEIGHT; ty++)
			for (int tx = 0; tx < BP_WIDTH; tx++)
				weights[ref_index(by, ty, tx)] = m[ty][tx];
		for (int ty = 0; ty < BP_HIDDEN; ty++)
			partial[(size_t)by * BP_HIDDEN + ty] = m[0][ty];
	}
}

/* bpnn_adjust_weights_cuda: every weight of input units 1..n_in, then the
 * bias unit's row. */
static void ref_adjust(int in, const float *delta, const float *ly, float *w, float *oldw)
{
	for (int by = 0; by < in / BP_HEIGHT; by++) {
		for (int ty = 0; ty < BP_HEIGHT; ty++) {
			for (int tx = 0; tx < BP_WIDTH; tx++) {
				size_t index = ref_index(by, ty, tx);
				int x = tx + 1, y = BP_HEIGHT * by + ty + 1;

				w[index] += BP_ETA * delta[x] * ly[y] + BP_MOMENTUM * oldw[index];
				oldw[index] = BP_ETA * delta[x] * ly[y] + BP_MOMENTUM * oldw[index];
			}
		}
	}
	for (int x = 1; x <= BP_HIDDEN; x++) {
		w[x] += BP_ETA * delta[x] + BP_MOMENTUM * oldw[x];
		oldw[x] = BP_ETA * delta[x] + BP_MOMENTUM * oldw[x];
	}
}

bool bp_check(const struct wl *w, const struct bp_dev *dev, uint64_t seed, int in)
{
	const uint64_t count = bp_weights_count(in);
	const size_t npartial = (size_t)(in / BP_HEIGHT) * BP_HIDDEN;
	float *input = malloc(((size_t)in + 1) * sizeof(float));
	float *weights = malloc(count * sizeof(float));
	float *prev = malloc(count * sizeof(float));
	float *partial = malloc(npartial * sizeof(float));
	/* The weights the second kernel adjusts: the first kernel's output,
	 * or a copy of the initial weights (dev->weights2). */
	float *adjusted = dev->weights2 ? malloc(count * sizeof(float)) : weights;
	struct bp_net net;
	bool pass = false;

	if (!input || !weights || !prev || !partial || !adjusted) {
		fprintf(stderr, "%s: out of memory for the CPU reference\n", w->name);
		goto out;
	}
	bp_generate(&net, in, input, weights, prev, seed);
	if (adjusted != weights)
		memcpy(adjusted, weights, count * sizeof(float));
	ref_forward(in, input, weights, partial);
	bp_host_layers(&net, partial);
	ref_adjust(in, net.hidden_delta, input, adjusted, prev);

	/* Every array is compared, even after a mismatch, to show them all. */
	pass = wl_check_f32_exact(w, "hidden_partial_sum", dev->partial, partial, npartial);
	pass &= wl_check_f32_exact(w, "hidden_delta", dev->hidden_delta, net.hidden_delta,
				   BP_HIDDEN + 1);
	pass &= wl_check_f32_exact(w, "input_weights", dev->weights, weights, count);
	if (dev->weights2)
		pass &= wl_check_f32_exact(w, "input_weights2", dev->weights2, adjusted, count);
	pass &= wl_check_f32_exact(w, "input_prev_weights", dev->prev_weights, prev, count);
out:
	if (adjusted != weights)
		free(adjusted);
	free(input);
	free(weights);
	free(prev);
	free(partial);
	return pass;
}
