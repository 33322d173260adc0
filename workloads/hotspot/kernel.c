// SPDX-License-Identifier: MIT
/*
 * kernel.c - hotspot's one kernel, calculate_temp, and the host loop that
 * launches it.
 *
 * Each 16 x 16 CTA loads a tile of temperature and power into shared memory
 * and advances it `iteration` time steps there (a pyramid: every step the
 * band of cells whose neighbours are still exact shrinks by one on each
 * side), then writes the inner (16 - 2 * iteration)^2 cells. Tiles overlap by
 * the pyramid's border so that together they cover the grid, and one launch
 * does `pyramid` time steps: launches = iterations / pyramid.
 */
#include "hotspot.h"

#include "emugpu.h"

struct calculate_temp_args {
	const float *power;
	const float *temp_src;
	float *temp_dst;
	int iteration; /* time steps in this launch (<= the pyramid height) */
	int grid_cols, grid_rows;
	int border_cols, border_rows;
	struct hs_params p;
};

static inline bool in_range(int x, int lo, int hi)
{
	return x >= lo && x <= hi;
}

/* Written for 16 x 16 CTAs, as the original's BLOCK_SIZE: the compiler knows
 * the thread loops' counts. */
EMU_KERNEL_BLOCK(calculate_temp, struct calculate_temp_args, HS_BLOCK, HS_BLOCK, 1)
{
	float temp_on_cuda[HS_BLOCK][HS_BLOCK];
	float power_on_cuda[HS_BLOCK][HS_BLOCK];
	float temp_t[HS_BLOCK][HS_BLOCK];
	/* Per thread, across barriers: did this thread compute a cell in the
	 * current step. */
	bool computed[HS_BLOCK][HS_BLOCK];
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
	/* Tile cells that lie inside the grid. */
	const int valid_ymin = blk_y < 0 ? -blk_y : 0;
	const int valid_ymax =
	    blk_ymax > rows - 1 ? HS_BLOCK - 1 - (blk_ymax - rows + 1) : HS_BLOCK - 1;
	const int valid_xmin = blk_x < 0 ? -blk_x : 0;
	const int valid_xmax =
	    blk_xmax > cols - 1 ? HS_BLOCK - 1 - (blk_xmax - cols + 1) : HS_BLOCK - 1;

	EMU_FOR_THREADS {
		const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;
		const int yidx = blk_y + ty, xidx = blk_x + tx;

		if (in_range(yidx, 0, rows - 1) && in_range(xidx, 0, cols - 1)) {
			size_t index = (size_t)cols * (size_t)yidx + (size_t)xidx;

			temp_on_cuda[ty][tx] = ld_global(&args->temp_src[index]);
			power_on_cuda[ty][tx] = ld_global(&args->power[index]);
		}
	}
	__syncthreads();

	for (int i = 0; i < iteration; i++) {
		EMU_FOR_THREADS {
			const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;
			/* Neighbours; across the chip edge a cell is its own. */
			int n = ty - 1 < valid_ymin ? valid_ymin : ty - 1;
			int s = ty + 1 > valid_ymax ? valid_ymax : ty + 1;
			int w = tx - 1 < valid_xmin ? valid_xmin : tx - 1;
			int e = tx + 1 > valid_xmax ? valid_xmax : tx + 1;

			computed[ty][tx] = false;
			if (in_range(tx, i + 1, HS_BLOCK - i - 2) &&
			    in_range(ty, i + 1, HS_BLOCK - i - 2) &&
			    in_range(tx, valid_xmin, valid_xmax) &&
			    in_range(ty, valid_ymin, valid_ymax)) {
				computed[ty][tx] = true;
				temp_t[ty][tx] = hs_cell(temp_on_cuda[ty][tx], temp_on_cuda[n][tx],
							 temp_on_cuda[s][tx], temp_on_cuda[ty][e],
							 temp_on_cuda[ty][w], power_on_cuda[ty][tx],
							 k.step_div_cap, k.rx_1, k.ry_1, k.rz_1);
			}
		}
		__syncthreads();
		if (i == iteration - 1)
			break;
		EMU_FOR_THREADS {
			const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;

			if (computed[ty][tx])
				temp_on_cuda[ty][tx] = temp_t[ty][tx];
		}
		__syncthreads();
	}

	/* The cells computed in the last step are the tile's exact inner part. */
	EMU_FOR_THREADS {
		const int ty = (int)threadIdx.y, tx = (int)threadIdx.x;

		if (computed[ty][tx])
			st_global(&args->temp_dst[(size_t)cols * (size_t)(blk_y + ty) +
						  (size_t)(blk_x + tx)],
				  temp_t[ty][tx]);
	}
}

int hs_run_gpu(const struct wl *w, float *temp[2], const float *power, int rows, int cols,
	       int iterations, int pyramid, const struct hs_params *p)
{
	/* The tiles advance by their inner part and overlap by a border of
	 * `pyramid` cells on each side (the original's EXPAND_RATE of 2). */
	int border = pyramid;
	int small_block = HS_BLOCK - 2 * pyramid;
	int block_cols = cols / small_block + (cols % small_block ? 1 : 0);
	int block_rows = rows / small_block + (rows % small_block ? 1 : 0);
	dim3 grid = emu_dim3((unsigned)block_cols, (unsigned)block_rows, 1);
	dim3 block = emu_dim3(HS_BLOCK, HS_BLOCK, 1);
	int src = 1, dst = 0;

	for (int t = 0; t < iterations; t += pyramid) {
		int steps = iterations - t < pyramid ? iterations - t : pyramid;
		int tmp = src;

		src = dst;
		dst = tmp;
		WL_CHECK(w, EMU_LAUNCH(calculate_temp, grid, block, 0, .power = power,
				       .temp_src = temp[src], .temp_dst = temp[dst],
				       .iteration = steps, .grid_cols = cols, .grid_rows = rows,
				       .border_cols = border, .border_rows = border, .p = *p));
	}
	WL_CHECK(w, cudaDeviceSynchronize());
	return dst;
}
