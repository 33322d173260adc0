// SPDX-License-Identifier: MIT
/*
 * kernels.c - backprop's two kernels and the GPU part of the training step.
 *
 * A CTA of 16x16 threads takes 16 input units (threadIdx.y) by the 16 hidden
 * units (threadIdx.x). bpnn_layerforward_CUDA multiplies its 16x16 block of
 * weights by the inputs, reduces each column by a tree in shared memory and
 * writes one partial sum per hidden unit; the host adds the partial sums of
 * all CTAs. bpnn_adjust_weights_cuda then updates every weight with the
 * hidden errors and momentum. Both kernels stream once through the weights.
 */
#include "backprop.h"

#include <string.h>

#include "emugpu.h"

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

static inline int bp_block_row(EMU_DEVICE_PARAMS)
{
	return (int)(blockIdx.y * gridDim.x + blockIdx.x);
}

/* Weight of input unit 16*by + ty + 1 to hidden unit tx + 1. */
static inline int bp_index(int hid, int by, int ty, int tx)
{
	return (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
}

EMU_KERNEL(bpnn_layerforward_CUDA, struct bp_forward_args)
{
	/* __shared__ in the original */
	float input_node[BP_HEIGHT];
	float weight_matrix[BP_HEIGHT][BP_WIDTH];
	const int hid = args->hid;
	const int by = bp_block_row(EMU_DEVICE_ARGS);

	if (by >= args->in / BP_HEIGHT)
		return;

	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;

		if (tx == 0)
			input_node[ty] = ld_global(&args->input_cuda[BP_HEIGHT * by + ty + 1]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;

		weight_matrix[ty][tx] =
		    ld_global(&args->input_hidden_cuda[bp_index(hid, by, ty, tx)]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;

		weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
	}
	__syncthreads();

	/* Column sums by a tree: at step i, row ty (a multiple of 2^i) adds row
	 * ty + 2^(i-1); after log2(16) steps row 0 holds the sums. */
	for (int i = 1; (1 << i) <= BP_HEIGHT; i++) {
		const int power_two = 1 << i;

		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;

			if (ty % power_two == 0)
				weight_matrix[ty][tx] =
				    weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
		}
		__syncthreads();
	}

	/* The original leaves the reduction tree in the weights; the managed-
	 * memory ports then update those values in the second kernel. */
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;

		st_global(&args->input_hidden_cuda[bp_index(hid, by, ty, tx)],
			  weight_matrix[ty][tx]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;

		if (tx == 0)
			st_global(&args->hidden_partial_sum[by * hid + ty], weight_matrix[tx][ty]);
	}
}

EMU_KERNEL(bpnn_adjust_weights_cuda, struct bp_adjust_args)
{
	const int hid = args->hid;
	const int by = bp_block_row(EMU_DEVICE_ARGS);
	float *w = args->w, *oldw = args->oldw;
	const float *delta = args->delta, *ly = args->ly;

	if (by >= args->in / BP_HEIGHT)
		return;

	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
		const int index = bp_index(hid, by, ty, tx);
		const int index_y = BP_HEIGHT * by + ty + 1;
		const int index_x = tx + 1;

		/* Both statements read oldw[index] before the second one writes
		 * it; the change is computed in double and rounded on store. */
		st_global(&w[index],
			  ld_global(&w[index]) +
			      (BP_ETA * ld_global(&delta[index_x]) * ld_global(&ly[index_y]) +
			       BP_MOMENTUM * ld_global(&oldw[index])));
		st_global(&oldw[index],
			  BP_ETA * ld_global(&delta[index_x]) * ld_global(&ly[index_y]) +
			      BP_MOMENTUM * ld_global(&oldw[index]));
	}
	__syncthreads();
	/* The bias unit's row (row 0) is updated by the first CTA alone. */
	EMU_FOR_THREADS {
		const int ty = (int)threadIdx.y;
		const int index_x = (int)threadIdx.x + 1;

		if (ty == 0 && by == 0) {
			st_global(&w[index_x], ld_global(&w[index_x]) +
						   (BP_ETA * ld_global(&delta[index_x]) +
						    BP_MOMENTUM * ld_global(&oldw[index_x])));
			st_global(&oldw[index_x], BP_ETA * ld_global(&delta[index_x]) +
						      BP_MOMENTUM * ld_global(&oldw[index_x]));
		}
	}
}

cudaError_t bp_gpu(const struct bp_dev *dev, struct bp_net *net)
{
	const int in = net->in;
	const dim3 grid = bp_grid(in / BP_HEIGHT), threads = emu_dim3(BP_WIDTH, BP_HEIGHT, 1);
	cudaError_t e;

	e = EMU_LAUNCH(bpnn_layerforward_CUDA, grid, threads, 0, dev->input, dev->output_hidden,
		       dev->weights, dev->partial, in, BP_HIDDEN);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return e;

	/* The host reads the partial sums straight from managed memory. */
	bp_host_layers(net, dev->partial);
	memcpy(dev->hidden_delta, net->hidden_delta, sizeof(net->hidden_delta));

	e = EMU_LAUNCH(bpnn_adjust_weights_cuda, grid, threads, 0, dev->hidden_delta, dev->input,
		       dev->weights, dev->prev_weights, in, BP_HIDDEN);
	if (e != cudaSuccess)
		return e;
	return cudaDeviceSynchronize();
}
