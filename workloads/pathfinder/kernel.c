// SPDX-License-Identifier: MIT
/*
 * kernel.c - pathfinder's kernel, dynproc_kernel, and the host loop.
 *
 * A CTA of 256 threads loads 256 columns of the previous row into shared
 * memory and advances them `iteration` rows there (a pyramid: each step the
 * band whose neighbours are exact shrinks by one column on each side), then
 * writes its inner 256 - 2 * iteration columns. One launch does `pyramid`
 * rows, so launches = (rows - 1) / pyramid, rounded up; the two result rows
 * swap on the host between launches.
 */
#include "pathfinder.h"

#include "emugpu.h"

struct dynproc_args {
	int iteration; /* rows in this launch (<= the pyramid height) */
	const int *gpu_wall;
	const int *gpu_src;
	int *gpu_results;
	int cols, rows;
	int start_step; /* first wall row of this launch */
	int border;
};

static inline bool in_range(int x, int lo, int hi)
{
	return x >= lo && x <= hi;
}

EMU_KERNEL(dynproc_kernel, struct dynproc_args)
{
	int prev[PF_BLOCK], result[PF_BLOCK];
	/* Per thread, across barriers: computed a column in this step. */
	bool computed[PF_BLOCK];
	const int cols = args->cols, iteration = args->iteration;
	const int small_block_cols = PF_BLOCK - iteration * PF_HALO * 2;
	/* This CTA's columns; the first CTA starts left of the grid. */
	const int blk_x = small_block_cols * (int)blockIdx.x - args->border;
	const int blk_xmax = blk_x + PF_BLOCK - 1;
	const int valid_xmin = blk_x < 0 ? -blk_x : 0;
	const int valid_xmax =
	    blk_xmax > cols - 1 ? PF_BLOCK - 1 - (blk_xmax - cols + 1) : PF_BLOCK - 1;

	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x, xidx = blk_x + tx;

		if (in_range(xidx, 0, cols - 1))
			prev[tx] = ld_global(&args->gpu_src[xidx]);
		computed[tx] = false;
	}
	__syncthreads();

	for (int i = 0; i < iteration; i++) {
		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x, xidx = blk_x + tx;
			/* Across the grid's edge a column is its own neighbour. */
			int w = tx - 1 < valid_xmin ? valid_xmin : tx - 1;
			int e = tx + 1 > valid_xmax ? valid_xmax : tx + 1;

			computed[tx] = false;
			if (in_range(tx, i + 1, PF_BLOCK - i - 2) &&
			    in_range(tx, valid_xmin, valid_xmax)) {
				size_t index =
				    (size_t)cols * (size_t)(args->start_step + i) + (size_t)xidx;
				int shortest = pf_min(pf_min(prev[w], prev[tx]), prev[e]);

				computed[tx] = true;
				result[tx] = shortest + ld_global(&args->gpu_wall[index]);
			}
		}
		__syncthreads();
		if (i == iteration - 1)
			break;
		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x;

			if (computed[tx])
				prev[tx] = result[tx];
		}
		__syncthreads();
	}

	/* The columns computed in the last step are the CTA's exact inner band. */
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x;

		if (computed[tx])
			st_global(&args->gpu_results[blk_x + tx], result[tx]);
	}
}

int pf_run_gpu(const struct wl *w, const int *wall, int *result[2], int rows, int cols, int pyramid)
{
	int border = pyramid * PF_HALO;
	int small_block_col = PF_BLOCK - pyramid * PF_HALO * 2;
	int block_cols = cols / small_block_col + (cols % small_block_col ? 1 : 0);
	dim3 grid = emu_dim3((unsigned)block_cols, 1, 1);
	dim3 block = emu_dim3(PF_BLOCK, 1, 1);
	int src = 1, dst = 0;

	for (int t = 0; t < rows - 1; t += pyramid) {
		int tmp = src;

		src = dst;
		dst = tmp;
		WL_CHECK(w,
			 EMU_LAUNCH(dynproc_kernel, grid, block, 0,
				    .iteration = pf_min(pyramid, rows - t - 1), .gpu_wall = wall,
				    .gpu_src = result[src], .gpu_results = result[dst],
				    .cols = cols, .rows = rows, .start_step = t, .border = border));
	}
	WL_CHECK(w, cudaDeviceSynchronize());
	return dst;
}
