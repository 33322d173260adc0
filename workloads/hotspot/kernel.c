// SPDX-License-Identifier: MIT
/*
 * kernel.c - hotspot's one kernel, calculate_temp, for emu-gpu and (nvcc) a
 * real GPU.
 *
 * Each 16 x 16 CTA loads a tile of temperature and power into shared memory
 * and advances it `iteration` time steps there (a pyramid: every step the
 * band of cells whose neighbours are still exact shrinks by one on each
 * side), then writes the inner (16 - 2 * iteration)^2 cells. Tiles overlap by
 * the pyramid's border so that together they cover the grid, and one launch
 * does `pyramid` time steps: launches = iterations / pyramid.
 */
#include "hotspot.h"

EMU_DEVICE static inline int max_int(int a, int b)
{
	return a > b ? a : b;
}

EMU_DEVICE static inline int min_int(int a, int b)
{
	return a < b ? a : b;
}

/*
 * Written for 16 x 16 CTAs, as the original's BLOCK_SIZE: the compiler knows
 * the thread loops' counts. Which threads load, compute and store is the same
 * for the whole CTA, a window of the tile (the cells inside the grid, and of
 * those the band still exact at a step), so each thread loop runs over its
 * window (EMU_FOR_THREADS_IDX_IN) instead of testing every thread, and needs
 * no per-thread flag across barriers: the threads that computed a cell in the
 * last step are the window of that step. Without tests inside them the loops
 * over x vectorize.
 */
EMU_KERNEL_BLOCK(calculate_temp, struct calculate_temp_args, HS_BLOCK, HS_BLOCK, 1)
{
	EMU_SHARED float temp_on_cuda[HS_BLOCK][HS_BLOCK];
	EMU_SHARED float power_on_cuda[HS_BLOCK][HS_BLOCK];
	EMU_SHARED float temp_t[HS_BLOCK][HS_BLOCK];
	const struct hs_coef k = hs_coef_of(&args->p);
	const int rows = args->grid_rows, cols = args->grid_cols;
	const int iteration = args->iteration;
	/* The tile of this CTA in grid coordinates; it starts outside the grid
	 * (negative) for the first row and column of CTAs. */
	const int small_block = HS_BLOCK - iteration * 2;
	const int blk_y = small_block * (int)blockIdx.y - args->border_rows;
	const int blk_x = small_block * (int)blockIdx.x - args->border_cols;
	const int blk_ymax = blk_y + HS_BLOCK - 1;
	const int blk_xmax = blk_x + HS_BLOCK - 1;
	/* Tile cells that lie inside the grid (inclusive bounds). */
	const int valid_ymin = blk_y < 0 ? -blk_y : 0;
	const int valid_ymax =
	    blk_ymax > rows - 1 ? HS_BLOCK - 1 - (blk_ymax - rows + 1) : HS_BLOCK - 1;
	const int valid_xmin = blk_x < 0 ? -blk_x : 0;
	const int valid_xmax =
	    blk_xmax > cols - 1 ? HS_BLOCK - 1 - (blk_xmax - cols + 1) : HS_BLOCK - 1;
	/* The cells computed at step i: the band i + 1 .. HS_BLOCK - i - 2 on
	 * both axes, inside the grid; x_lo..x_hi and y_lo..y_hi inclusive. */
	int x_lo = 0, x_hi = -1, y_lo = 0, y_hi = -1;

	EMU_FOR_THREADS_IDX_IN(valid_xmin, valid_xmax + 1, valid_ymin, valid_ymax + 1) {
		const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;
		size_t index = (size_t)cols * (size_t)(blk_y + ty) + (size_t)(blk_x + tx);

		temp_on_cuda[ty][tx] = ld_global(&args->temp_src[index]);
		power_on_cuda[ty][tx] = ld_global(&args->power[index]);
	}
	__syncthreads();

	for (int i = 0; i < iteration; i++) {
		x_lo = max_int(i + 1, valid_xmin);
		x_hi = min_int(HS_BLOCK - i - 2, valid_xmax);
		y_lo = max_int(i + 1, valid_ymin);
		y_hi = min_int(HS_BLOCK - i - 2, valid_ymax);
		EMU_FOR_THREADS_IDX_IN(x_lo, x_hi + 1, y_lo, y_hi + 1) {
			const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;
			/* Neighbours; across the chip edge a cell is its own. In
			 * the window a cell's west neighbour is tx - 1 unless the
			 * cell is the first inside the grid (tx == valid_xmin),
			 * and both cells are in the tile (tx >= 1), so both are
			 * read and one chosen: a select, not a branch. */
			const int n = ty - 1 < valid_ymin ? valid_ymin : ty - 1;
			const int s = ty + 1 > valid_ymax ? valid_ymax : ty + 1;
			const float c = temp_on_cuda[ty][tx];
			const float left = temp_on_cuda[ty][tx - 1],
				    right = temp_on_cuda[ty][tx + 1];
			const float w = tx > valid_xmin ? left : c;
			const float e = tx < valid_xmax ? right : c;

			temp_t[ty][tx] =
			    hs_cell(c, temp_on_cuda[n][tx], temp_on_cuda[s][tx], e, w,
				    power_on_cuda[ty][tx], k.step_div_cap, k.rx_1, k.ry_1, k.rz_1);
		}
		__syncthreads();
		if (i == iteration - 1)
			break;
		EMU_FOR_THREADS_IDX_IN(x_lo, x_hi + 1, y_lo, y_hi + 1) {
			const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;

			temp_on_cuda[ty][tx] = temp_t[ty][tx];
		}
		__syncthreads();
	}

	/* The cells computed in the last step are the tile's exact inner part. */
	EMU_FOR_THREADS_IDX_IN(x_lo, x_hi + 1, y_lo, y_hi + 1) {
		const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;

		st_global(
		    &args->temp_dst[(size_t)cols * (size_t)(blk_y + ty) + (size_t)(blk_x + tx)],
		    temp_t[ty][tx]);
	}
}
