/* SPDX-License-Identifier: MIT */
/*
 * backprop.h - Rodinia's backprop on emu-gpu: one training step of an
 * n_in -> 16 -> 1 network. The input layer's forward pass and its weight
 * update run on the GPU; the hidden and output layers (a few dozen values)
 * stay on the host, as in the original.
 *
 * Arrays are the original's: units are indexed from 1 (unit 0 is the bias
 * unit), and the input-to-hidden weights are one row-major array of
 * (n_in + 1) rows by (16 + 1) columns, row k holding input unit k's weights
 * to hidden units 1..16 (column 0 unused).
 */
#ifndef BACKPROP_H
#define BACKPROP_H

#include <stdbool.h>
#include <stdint.h>

#include "emugpu.h"
#include "uvmemu.h"
#include "wl.h"

#define BP_HEIGHT 16 /* input units per CTA (CTA rows, HEIGHT) */
#define BP_WIDTH  16 /* hidden units (CTA columns, WIDTH) */
#define BP_HIDDEN 16
#define BP_OUTPUT 1
/* Learning rate and momentum, double constants as in the original, so the
 * weight updates are computed in double and rounded to float on store. */
#define BP_ETA	    0.3
#define BP_MOMENTUM 0.3
/* Keeps (n_in + 1) * 17, the largest weight index, inside an int as the
 * original's int indexing needs (and the footprint at 9 GiB). */
#define BP_MAX_INPUTS (1 << 26)

/* The managed arrays the kernels use. */
struct bp_dev {
	float *input;	      /* n_in + 1 input units */
	float *output_hidden; /* 17, allocated and passed as in the original, unused */
	float *weights;	      /* (n_in + 1) * 17 input-to-hidden weights */
	/* With --adjust-copy (UVMSmart's input_weights2): a copy of the initial
	 * weights, which the second kernel adjusts instead of the weights the
	 * first one overwrote; NULL otherwise. */
	float *weights2;
	float *partial;	     /* n_in / 16 CTAs x 16: per-CTA partial sums */
	float *prev_weights; /* (n_in + 1) * 17 previous weight changes (momentum) */
	float *hidden_delta; /* 17 hidden-unit errors, written by the host */
};

/*
 * Pointers first, then the two ints in one 8-byte word whose high half (hid)
 * is small: the executor translates every word that holds a managed
 * host-view pointer, and such a word can never look like one.
 */
struct bp_forward_args {
	float *input_cuda;
	float *output_hidden_cuda;
	float *input_hidden_cuda;
	float *hidden_partial_sum;
	int in;
	int hid;
};

struct bp_adjust_args {
	float *delta;
	float *ly;
	float *w;
	float *oldw;
	int in;
	int hid;
};

/* Forward pass of the input layer: per-CTA partial sums (kernels.c). */
EMU_KERNEL_DECLARE(bpnn_layerforward_CUDA, struct bp_forward_args);
/* The input-to-hidden weight update with momentum (kernels.c). */
EMU_KERNEL_DECLARE(bpnn_adjust_weights_cuda, struct bp_adjust_args);

/* The host's part of the network. */
struct bp_net {
	int in; /* n_in, a multiple of BP_HEIGHT */
	/* Row 0 of the weights (the bias unit's), which the host adds to the
	 * hidden sums from its own copy, as the original does. */
	float bias_weights[BP_HIDDEN + 1];
	float hidden_units[BP_HIDDEN + 1];
	float hidden_weights[BP_HIDDEN + 1][BP_OUTPUT + 1];
	float hidden_prev_weights[BP_HIDDEN + 1][BP_OUTPUT + 1];
	float output_units[BP_OUTPUT + 1];
	float output_delta[BP_OUTPUT + 1];
	float hidden_delta[BP_HIDDEN + 1];
	float target[BP_OUTPUT + 1];
	float out_err, hid_err;
};

static inline uint64_t bp_weights_count(int in)
{
	return ((uint64_t)in + 1) * (BP_HIDDEN + 1);
}

/* Bytes of managed memory, array by array as bp_dev lists them. */
static inline uint64_t bp_footprint_bytes(int in, bool adjust_copy)
{
	return sizeof(float) * (((uint64_t)in + 1) + (BP_HIDDEN + 1) + bp_weights_count(in) +
				(adjust_copy ? bp_weights_count(in) : 0) + (uint64_t)in +
				bp_weights_count(in) + (BP_HIDDEN + 1));
}

/* The weights the second kernel adjusts: the result of the training step. */
static inline float *bp_adjusted(const struct bp_dev *dev)
{
	return dev->weights2 ? dev->weights2 : dev->weights;
}

/*
 * gen.c: the initial network. Fills the input units, the weights and the
 * previous weight changes (zero) through the given pointers, and the host
 * part of the network; the same seed gives the same network bit for bit.
 */
void bp_generate(struct bp_net *net, int in, float *input, float *weights, float *prev_weights,
		 uint64_t seed);

/*
 * host.c: the host's work between the two kernels: sums the per-CTA partial
 * sums into the hidden units, runs the hidden->output layer, the output and
 * hidden errors and the hidden->output weight update; leaves the hidden
 * errors the second kernel needs in net->hidden_delta.
 */
void bp_host_layers(struct bp_net *net, const float *partial);

/* run.c: the grid of both kernels for n_in / 16 row blocks: the original's
 * (1, n_in / 16) while that fits CUDA's limits. */
dim3 bp_grid(int nblocks);
/* run.c: the GPU part: both kernels and the host work between them, with
 * the data's crossings (--mem). */
cudaError_t bp_gpu(const struct wl *w, const struct bp_dev *dev, struct bp_net *net);

/* reference.c: the whole step again on the CPU in the kernels' operation
 * order; compares partial sums, weights (both arrays with dev->weights2)
 * and weight changes bit for bit. */
bool bp_check(const struct wl *w, const struct bp_dev *dev, uint64_t seed, int in);

#endif
