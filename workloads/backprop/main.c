// SPDX-License-Identifier: MIT
/*
 * main.c - backprop: options and network size, then generate, run the
 * training step (the region of interest) and check it bit for bit.
 */
#include "backprop.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BP_DEFAULT_INPUTS 65536 /* the size of Rodinia's run script */

/* The multiple of 16 input units whose arrays come closest to `bytes`
 * (the footprint grows by 144 bytes per input unit). */
static int inputs_for_footprint(const struct wl *w, uint64_t bytes, bool copy)
{
	const double per_input = (double)(bp_footprint_bytes(BP_HEIGHT * 2, copy) -
					  bp_footprint_bytes(BP_HEIGHT, copy)) /
				 BP_HEIGHT;
	const double fixed = (double)bp_footprint_bytes(BP_HEIGHT, copy) - per_input * BP_HEIGHT;
	long long in = llround(((double)bytes - fixed) / per_input / BP_HEIGHT) * BP_HEIGHT;

	if (in < BP_HEIGHT)
		wl_usage_error(w,
			       "--footprint %" PRIu64 ": too small for backprop (at least %" PRIu64
			       " bytes)",
			       bytes, bp_footprint_bytes(BP_HEIGHT, copy));
	if (in > BP_MAX_INPUTS)
		wl_usage_error(w,
			       "--footprint %" PRIu64 ": too large for backprop (at most %" PRIu64
			       " bytes)",
			       bytes, bp_footprint_bytes(BP_MAX_INPUTS, copy));
	return (int)in;
}

static void allocate(const struct wl *w, struct bp_dev *dev, int in, bool copy)
{
	const size_t weights = bp_weights_count(in) * sizeof(float);

	dev->input = wl_managed(w, ((size_t)in + 1) * sizeof(float), "the input units");
	dev->output_hidden = wl_managed(w, (BP_HIDDEN + 1) * sizeof(float), "output_hidden");
	dev->weights = wl_managed(w, weights, "the weights");
	dev->weights2 = copy ? wl_managed(w, weights, "the weights to adjust") : NULL;
	dev->partial = wl_managed(w, (size_t)in * sizeof(float), "the partial sums");
	dev->prev_weights = wl_managed(w, weights, "the previous weight changes");
	dev->hidden_delta = wl_managed(w, (BP_HIDDEN + 1) * sizeof(float), "hidden_delta");
	/* The kernels only read the input units and the hidden errors (--mem
	 * advise). */
	wl_advise(w, dev->input, ((size_t)in + 1) * sizeof(float), WL_READ_MOSTLY);
	wl_advise(w, dev->hidden_delta, (BP_HIDDEN + 1) * sizeof(float), WL_READ_MOSTLY);
}

static void release(const struct wl *w, struct bp_dev *dev)
{
	wl_free(w, dev->input);
	wl_free(w, dev->output_hidden);
	wl_free(w, dev->weights);
	if (dev->weights2)
		wl_free(w, dev->weights2);
	wl_free(w, dev->partial);
	wl_free(w, dev->prev_weights);
	wl_free(w, dev->hidden_delta);
}

int main(int argc, char **argv)
{
	struct wl w;
	long long inputs = 0;
	bool adjust_copy = false;
	const struct wl_opt opts[] = {
	    {"inputs", WL_INT, &inputs, BP_HEIGHT, BP_MAX_INPUTS,
	     "input units n_in, a multiple of 16 (default 65536)"},
	    {"adjust-copy", WL_FLAG, &adjust_copy, 0, 0,
	     "the second kernel adjusts a copy of the initial weights, not the first "
	     "kernel's output (UVMSmart's input_weights2)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	struct bp_dev dev;
	struct bp_net net;
	dim3 grid;
	bool pass;
	int in;

	wl_init(&w, "backprop", "Rodinia backprop: one training step of an n_in -> 16 -> 1 network",
		argc, argv, opts);
	if (w.footprint && inputs)
		wl_usage_error(&w, "--footprint and --inputs both set the problem size; give one");
	if (inputs % BP_HEIGHT)
		wl_usage_error(&w, "--inputs '%lld': expected a multiple of %d", inputs, BP_HEIGHT);
	if (w.footprint)
		in = inputs_for_footprint(&w, w.footprint, adjust_copy);
	else
		in = inputs ? (int)inputs : BP_DEFAULT_INPUTS;

	allocate(&w, &dev, in, adjust_copy);
	wl_footprint(&w, bp_footprint_bytes(in, adjust_copy));
	uvmemu_report_value("inputs", in);
	grid = bp_grid(in / BP_HEIGHT);
	wl_log(&w, "%d inputs: 2 launches of a %u x %u grid of %dx%d-thread CTAs", in, grid.x,
	       grid.y, BP_WIDTH, BP_HEIGHT);
	if (adjust_copy)
		wl_log(&w, "the second kernel adjusts a copy of the initial weights");

	bp_generate(&net, in, dev.input, dev.weights, dev.prev_weights, w.seed);
	/* UVMSmart's bpnn_copy: the host writes the copy, so it starts on the
	 * host like the weights. */
	if (dev.weights2)
		memcpy(dev.weights2, dev.weights, bp_weights_count(in) * sizeof(float));

	uvmemu_roi_begin();
	WL_CHECK(&w, bp_gpu(&w, &dev, &net));
	uvmemu_roi_end();
	wl_log(&w, "output error %.6g, hidden error %.6g", net.out_err, net.hid_err);

	pass = bp_check(&w, &dev, w.seed, in);
	/* The errors come from the host's layers fed with the GPU's partial sums. */
	wl_output_f32(&w, "output_error", &net.out_err, 1);
	wl_output_f32(&w, "hidden_error", &net.hid_err, 1);
	wl_output_f32(&w, "input_weights", bp_adjusted(&dev), bp_weights_count(in));
	release(&w, &dev);
	return wl_finish(&w, pass);
}
