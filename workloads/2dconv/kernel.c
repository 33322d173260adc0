// SPDX-License-Identifier: MIT
/*
 * kernel.c - 2dconv's kernel, Convolution2D_kernel: one thread per element
 * of B in 32 x 8 CTAs (x along a row, j; y down the rows, i); the edge rows
 * and columns of B are not written. One launch.
 *
 * The original sizes the grid's x from NI and y from NJ, the same thing for
 * its square matrices; here x covers the columns (NJ) and y the rows (NI),
 * which is what the indexing needs when they differ.
 */
#include "conv2d.h"

#include "emugpu.h"

struct convolution2d_args {
	const float *a;
	float *b;
	int ni, nj;
};

EMU_KERNEL(convolution2d_kernel, struct convolution2d_args)
{
	/* Only the inner elements, 0 < j < nj - 1 and 0 < i < ni - 1, have
	 * threads that do something (the original returns at once in the
	 * others); the loop over them vectorizes. */
	EMU_FOR_THREADS_IN(1, (int64_t)args->nj - 1, 1, (int64_t)args->ni - 1) {
		const size_t nj = (size_t)args->nj;
		size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
		size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;

		const float *up, *mid, *down;

		up = args->a + (i - 1) * nj;
		mid = args->a + i * nj;
		down = args->a + (i + 1) * nj;
		st_global(&args->b[i * nj + j],
			  conv2d_filter(ld_global(&up[j - 1]), ld_global(&up[j]),
					ld_global(&up[j + 1]), ld_global(&mid[j - 1]),
					ld_global(&mid[j]), ld_global(&mid[j + 1]),
					ld_global(&down[j - 1]), ld_global(&down[j]),
					ld_global(&down[j + 1])));
	}
}

void conv2d_run_gpu(const struct wl *w, const float *a, float *b, int ni, int nj)
{
	dim3 block = emu_dim3(CONV2D_BLOCK_X, CONV2D_BLOCK_Y, 1);
	dim3 grid = emu_dim3((unsigned)((nj + CONV2D_BLOCK_X - 1) / CONV2D_BLOCK_X),
			     (unsigned)((ni + CONV2D_BLOCK_Y - 1) / CONV2D_BLOCK_Y), 1);

	WL_CHECK(w, EMU_LAUNCH(convolution2d_kernel, grid, block, 0, a, b, ni, nj));
	WL_CHECK(w, cudaDeviceSynchronize());
}
