// SPDX-License-Identifier: MIT
/*
 * host.c - the host's work between backprop's two kernels (the original's
 * bpnn_train_cuda between the launches, and the small layer functions it
 * calls). The GPU run and the CPU reference both call it, each on its own
 * network, so its float operations are the same in both.
 */
#include "backprop.h"

#include <math.h>

static float squash(float x)
{
	return (float)(1.0 / (1.0 + exp(-x)));
}

/* l2[1..n2] = squash(sum over k = 0..n1 of conn[k][j] * l1[k]), l1[0] = 1. */
static void layer_forward(float *l1, float *l2, float conn[][BP_OUTPUT + 1], int n1, int n2)
{
	l1[0] = 1.0f;
	for (int j = 1; j <= n2; j++) {
		float sum = 0.0f;

		for (int k = 0; k <= n1; k++)
			sum += conn[k][j] * l1[k];
		l2[j] = squash(sum);
	}
}

static float output_error(float *delta, const float *target, const float *output, int nj)
{
	float errsum = 0.0f;

	for (int j = 1; j <= nj; j++) {
		float o = output[j], t = target[j];

		delta[j] = (float)(o * (1.0 - o) * (t - o));
		errsum += fabsf(delta[j]);
	}
	return errsum;
}

static float hidden_error(float *delta_h, int nh, const float *delta_o, int no,
			  float who[][BP_OUTPUT + 1], const float *hidden)
{
	float errsum = 0.0f;

	for (int j = 1; j <= nh; j++) {
		float h = hidden[j], sum = 0.0f;

		for (int k = 1; k <= no; k++)
			sum += delta_o[k] * who[j][k];
		delta_h[j] = (float)(h * (1.0 - h) * sum);
		errsum += fabsf(delta_h[j]);
	}
	return errsum;
}

static void adjust_weights(const float *delta, int ndelta, float *ly, int nly,
			   float w[][BP_OUTPUT + 1], float oldw[][BP_OUTPUT + 1])
{
	ly[0] = 1.0f;
	for (int j = 1; j <= ndelta; j++) {
		for (int k = 0; k <= nly; k++) {
			/* float, as the original's new_dw */
			float new_dw =
			    (float)(BP_ETA * delta[j] * ly[k] + BP_MOMENTUM * oldw[k][j]);

			w[k][j] += new_dw;
			oldw[k][j] = new_dw;
		}
	}
}

void bp_host_layers(struct bp_net *net, const float *partial)
{
	const int nblocks = net->in / BP_HEIGHT;

	/* Hidden unit j sums column j - 1 of every CTA's partial sums, in CTA
	 * order, then its bias weight. */
	for (int j = 1; j <= BP_HIDDEN; j++) {
		float sum = 0.0f;

		for (int k = 0; k < nblocks; k++)
			sum += partial[(size_t)k * BP_HIDDEN + j - 1];
		sum += net->bias_weights[j];
		net->hidden_units[j] = squash(sum);
	}
	layer_forward(net->hidden_units, net->output_units, net->hidden_weights, BP_HIDDEN,
		      BP_OUTPUT);
	net->out_err = output_error(net->output_delta, net->target, net->output_units, BP_OUTPUT);
	net->hid_err = hidden_error(net->hidden_delta, BP_HIDDEN, net->output_delta, BP_OUTPUT,
				    net->hidden_weights, net->hidden_units);
	adjust_weights(net->output_delta, BP_OUTPUT, net->hidden_units, BP_HIDDEN,
		       net->hidden_weights, net->hidden_prev_weights);
}
