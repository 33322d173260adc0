// SPDX-License-Identifier: MIT
/*
 * kernels.c - backprop's two kernels, for emu-gpu and (nvcc) a real GPU.
 *
 * A CTA of 16x16 threads takes 16 input units (threadIdx.y) by the 16 hidden
 * units (threadIdx.x). bpnn_layerforward_CUDA multiplies its 16x16 block of
 * weights by the inputs, reduces each column by a tree in shared memory and
 * writes one partial sum per hidden unit; the host adds the partial sums of
 * all CTAs. bpnn_adjust_weights_cuda then updates every weight with the
 * hidden errors and momentum. Both kernels stream once through the weights.
 */
#include "backprop.h"

EMU_DEVICE static inline int bp_block_row(EMU_DEVICE_PARAMS)
{
	return (int)(blockIdx.y * gridDim.x + blockIdx.x);
}

/* Weight of input unit 16*by + ty + 1 to hidden unit tx + 1. */
EMU_DEVICE static inline int bp_index(int hid, int by, int ty, int tx)
{
	return (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
}

EMU_KERNEL(bpnn_layerforward_CUDA, struct bp_forward_args)
{
	EMU_SHARED float input_node[BP_HEIGHT];
	EMU_SHARED float weight_matrix[BP_HEIGHT][BP_WIDTH];
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
