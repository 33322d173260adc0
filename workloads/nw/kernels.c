// SPDX-License-Identifier: MIT
/*
 * kernels.c - nw's two kernels, for emu-gpu and (nvcc) a real GPU.
 *
 * The score matrix is cut into 16x16 tiles and processed as a wavefront of
 * anti-diagonals of tiles: needle_cuda_shared_1 runs the diagonals of the
 * upper-left triangle (launch i has i CTAs), needle_cuda_shared_2 those of
 * the lower-right one (i = n/16 - 1 down to 1). One CTA of 16 threads does a
 * tile: it stages the tile's reference scores and its north and west borders
 * in shared memory, sweeps the tile's own anti-diagonals (one barrier per
 * diagonal), and writes the tile back.
 */
#include "nw.h"

EMU_DEVICE static inline int nw_max3(int a, int b, int c)
{
	int k = a <= b ? b : a;

	return k <= c ? c : k;
}

/* One cell of the recurrence, in the tile's shared arrays. */
EMU_DEVICE static inline void nw_cell(int temp[NW_BLOCK + 1][NW_BLOCK + 1],
				      int ref[NW_BLOCK][NW_BLOCK], int y, int x, int penalty)
{
	temp[y][x] = nw_max3(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty,
			     temp[y - 1][x] - penalty);
}

/* The body both kernels share: tile (b_index_x, b_index_y) of the matrix. */
EMU_DEVICE static void nw_tile(EMU_DEVICE_PARAMS, const struct nw_args *args, int b_index_x,
			       int b_index_y)
{
	EMU_SHARED int temp[NW_BLOCK + 1][NW_BLOCK + 1];
	EMU_SHARED int ref[NW_BLOCK][NW_BLOCK];
	const int cols = args->cols, penalty = args->penalty;
	/* The tile's north-west corner cell; the tile proper starts at +cols+1. */
	const int index_nw = cols * NW_BLOCK * b_index_y + NW_BLOCK * b_index_x;
	int *matrix = args->matrix;
	const int *reference = args->reference;

	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x;

		if (tx == 0)
			temp[0][0] = ld_global(&matrix[index_nw]);
		for (int ty = 0; ty < NW_BLOCK; ty++)
			ref[ty][tx] = ld_global(&reference[index_nw + cols + 1 + tx + cols * ty]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x;

		temp[tx + 1][0] = ld_global(&matrix[index_nw + cols + cols * tx]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x;

		temp[0][tx + 1] = ld_global(&matrix[index_nw + 1 + tx]);
	}
	__syncthreads();

	/* Upper-left half of the tile: diagonal m has m + 1 cells. */
	for (int m = 0; m < NW_BLOCK; m++) {
		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x;

			if (tx <= m)
				nw_cell(temp, ref, m - tx + 1, tx + 1, penalty);
		}
		__syncthreads();
	}
	/* Lower-right half. */
	for (int m = NW_BLOCK - 2; m >= 0; m--) {
		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x;

			if (tx <= m)
				nw_cell(temp, ref, NW_BLOCK - tx, tx + NW_BLOCK - m, penalty);
		}
		__syncthreads();
	}

	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x;

		for (int ty = 0; ty < NW_BLOCK; ty++)
			st_global(&matrix[index_nw + cols + 1 + tx + cols * ty],
				  temp[ty + 1][tx + 1]);
	}
}

/* Diagonal i of the upper-left triangle: CTA bx takes tile (bx, i - 1 - bx). */
EMU_KERNEL(needle_cuda_shared_1, struct nw_args)
{
	const int bx = (int)blockIdx.x;

	nw_tile(EMU_DEVICE_ARGS, args, bx, args->i - 1 - bx);
}

/* Diagonal i (counting down) of the lower-right triangle. */
EMU_KERNEL(needle_cuda_shared_2, struct nw_args)
{
	const int bx = (int)blockIdx.x;

	nw_tile(EMU_DEVICE_ARGS, args, bx + args->block_width - args->i,
		args->block_width - bx - 1);
}
