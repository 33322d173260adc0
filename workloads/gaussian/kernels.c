// SPDX-License-Identifier: MIT
/*
 * kernels.c - gaussian's two kernels and the host loop around them.
 *
 * Step t: Fan1 (one thread per row below the pivot, CTAs of 512) computes
 * the multipliers m[row][t] = a[row][t] / a[t][t]; Fan2 (4 x 4 CTAs, x over
 * rows, y over columns) subtracts m[row][t] times the pivot row from every
 * row below it, from column t on, and from b. The active region shrinks by
 * one row and one column per step; the original launches the full grid every
 * step and lets the CTAs outside the region return at once. Here those CTAs
 * are not launched: they touch no memory, so the CTAs that do run in the same
 * relative order (x fastest) and the paging is the same; only the dispatch of
 * empty CTAs, negligible on a GPU but not on CPU workers, is saved.
 */
#include "gaussian.h"

#include "emugpu.h"

struct Fan1_args {
	float *m;
	const float *a;
	int64_t size, t;
};

struct Fan2_args {
	float *m; /* read only: Fan1 wrote column t */
	float *a;
	float *b;
	int64_t size, t;
};

EMU_KERNEL(Fan1, struct Fan1_args)
{
	const size_t n = (size_t)args->size, t = (size_t)args->t;

	EMU_FOR_THREADS {
		const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		size_t row;

		if (idx >= args->size - 1 - args->t)
			EMU_RETURN;
		row = (size_t)idx + t + 1;
		st_global(&args->m[n * row + t], gauss_multiplier(ld_global(&args->a[n * row + t]),
								  ld_global(&args->a[n * t + t])));
	}
}

EMU_KERNEL(Fan2, struct Fan2_args)
{
	const size_t n = (size_t)args->size, t = (size_t)args->t;
	float *a = args->a, *b = args->b;
	const float *m = args->m;

	EMU_FOR_THREADS {
		const int64_t xidx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		const int64_t yidx = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
		size_t row, col;

		if (xidx >= args->size - 1 - args->t || yidx >= args->size - args->t)
			EMU_RETURN;
		row = (size_t)xidx + 1 + t;
		col = (size_t)yidx + t;
		st_global(&a[n * row + col],
			  gauss_eliminate(ld_global(&a[n * row + col]), ld_global(&m[n * row + t]),
					  ld_global(&a[n * t + col])));
		/* The first column's threads also eliminate b. */
		if (yidx == 0)
			st_global(&b[row],
				  gauss_eliminate(ld_global(&b[row]), ld_global(&m[n * row + col]),
						  ld_global(&b[t])));
	}
}

static unsigned ceil_div(int64_t x, unsigned d)
{
	return (unsigned)((x + d - 1) / d);
}

void gauss_run_gpu(const struct wl *w, const struct gauss_data *d, int n, int steps)
{
	const dim3 block1 = emu_dim3(GAUSS_FAN1_THREADS, 1, 1);
	const dim3 block2 = emu_dim3(GAUSS_FAN2_EDGE, GAUSS_FAN2_EDGE, 1);

	for (int64_t t = 0; t < steps; t++) {
		/* Rows below the pivot, and columns from the pivot on. */
		const int64_t rows = n - 1 - t, cols = n - t;
		const dim3 grid1 = emu_dim3(ceil_div(rows, GAUSS_FAN1_THREADS), 1, 1);
		const dim3 grid2 =
		    emu_dim3(ceil_div(rows, GAUSS_FAN2_EDGE), ceil_div(cols, GAUSS_FAN2_EDGE), 1);

		WL_CHECK(w, EMU_LAUNCH(Fan1, grid1, block1, 0, d->m, d->a, n, t));
		WL_CHECK(w, cudaDeviceSynchronize());
		WL_CHECK(w, EMU_LAUNCH(Fan2, grid2, block2, 0, d->m, d->a, d->b, n, t));
		WL_CHECK(w, cudaDeviceSynchronize());
	}
}
