// SPDX-License-Identifier: MIT
/*
 * run.c - backprop's GPU part: the forward kernel, the host's layers on its
 * partial sums, and the weight update, with the data's crossings for --mem.
 */
#include "backprop.h"

#include <string.h>

/* The largest gridDim.y CUDA accepts. */
#define BP_MAX_GRID_Y 65535u

/*
 * The original's grid is (1, n_in / 16): CTA `by` takes input units
 * 16*by + 1 .. 16*by + 16. Past 65535 row blocks the grid wraps into x;
 * CTAs keep the same linear order (x fastest), the kernels read their row
 * block from it, and the few CTAs past the end of the last row return.
 */
dim3 bp_grid(int nblocks)
{
	unsigned gx = ((unsigned)nblocks + BP_MAX_GRID_Y - 1) / BP_MAX_GRID_Y;

	return emu_dim3(gx, ((unsigned)nblocks + gx - 1) / gx, 1);
}

cudaError_t bp_gpu(const struct wl *w, const struct bp_dev *dev, struct bp_net *net)
{
	const int in = net->in;
	const dim3 grid = bp_grid(in / BP_HEIGHT), threads = emu_dim3(BP_WIDTH, BP_HEIGHT, 1);
	const size_t weights = bp_weights_count(in) * sizeof(float);
	const size_t input = ((size_t)in + 1) * sizeof(float), partial = (size_t)in * sizeof(float);
	cudaError_t e;

	wl_to_gpu(w, dev->input, input);
	wl_to_gpu(w, dev->weights, weights);
	wl_to_gpu(w, dev->prev_weights, weights);
	/* With --adjust-copy, the host wrote the copy with the weights. */
	if (dev->weights2)
		wl_to_gpu(w, dev->weights2, weights);
	wl_gpu_space(w, dev->partial, partial);
	e = EMU_LAUNCH(bpnn_layerforward_CUDA, grid, threads, 0, wl_dev(w, dev->input),
		       wl_dev(w, dev->output_hidden), wl_dev(w, dev->weights),
		       wl_dev(w, dev->partial), in, BP_HIDDEN);
	if (e != cudaSuccess)
		return e;

	/* The host reads the partial sums, and its hidden errors go to the
	 * second kernel. */
	wl_to_host(w, dev->partial, partial);
	bp_host_layers(net, dev->partial);
	memcpy(dev->hidden_delta, net->hidden_delta, sizeof(net->hidden_delta));
	wl_to_gpu(w, dev->hidden_delta, sizeof(net->hidden_delta));

	e = EMU_LAUNCH(bpnn_adjust_weights_cuda, grid, threads, 0, wl_dev(w, dev->hidden_delta),
		       wl_dev(w, dev->input), wl_dev(w, bp_adjusted(dev)),
		       wl_dev(w, dev->prev_weights), in, BP_HIDDEN);
	if (e != cudaSuccess)
		return e;
	/* The check reads every weight array. */
	wl_to_host(w, dev->weights, weights);
	if (dev->weights2)
		wl_to_host(w, dev->weights2, weights);
	wl_to_host(w, dev->prev_weights, weights);
	return cudaSuccess;
}
