// SPDX-License-Identifier: MIT
/*
 * kernels.c - gauss-seidel's two kernels (one per colour) and the host loop.
 *
 * Per iteration: relax_red updates every red interior cell (i + j even) from
 * its four black neighbours, then relax_black every black cell from the new
 * red ones; one launch per colour. Thread (x, y) of CTA (bx, by) takes row
 * i = 1 + 16 by + y and the (16 bx + x)-th cell of the launch's colour in
 * that row, so consecutive threads touch every other float of a row and a
 * CTA covers 32 columns by 16 rows. Every launch reads the whole grid and
 * writes half of it: regular, with all of u and h^2 f reused every launch.
 */
#include "gs.h"

#include "emugpu.h"

struct relax_args {
	float *u;
	const float *h2f;
	int64_t n;
};

static inline void relax_cell(EMU_DEVICE_PARAMS, const struct relax_args *a, int colour, dim3 tid)
{
	const size_t n = (size_t)a->n;
	const size_t i = 1 + (size_t)blockIdx.y * GS_BLOCK + tid.y;
	size_t j;
	float *c;

	if (i > n - 2)
		return;
	j = gs_first_col(i, colour) + 2 * ((size_t)blockIdx.x * GS_BLOCK + tid.x);
	if (j > n - 2)
		return;
	c = &a->u[i * n + j];
	st_global(c, gs_relax(ld_global(c - n), ld_global(c + n), ld_global(c - 1),
			      ld_global(c + 1), ld_global(&a->h2f[i * n + j])));
}

EMU_KERNEL(relax_red, struct relax_args)
{
	EMU_FOR_THREADS {
		relax_cell(EMU_DEVICE_ARGS, args, GS_RED, threadIdx);
	}
}

EMU_KERNEL(relax_black, struct relax_args)
{
	EMU_FOR_THREADS {
		relax_cell(EMU_DEVICE_ARGS, args, GS_BLACK, threadIdx);
	}
}

void gs_run_gpu(const struct wl *w, float *u, const float *h2f, int n, int iterations)
{
	/* Cells of one colour in an interior row: at most ceil((n - 2) / 2). */
	const unsigned per_row = (unsigned)(n - 1) / 2;
	const dim3 grid = emu_dim3((per_row + GS_BLOCK - 1) / GS_BLOCK,
				   (unsigned)(n - 2 + GS_BLOCK - 1) / GS_BLOCK, 1);
	const dim3 block = emu_dim3(GS_BLOCK, GS_BLOCK, 1);

	for (int it = 0; it < iterations; it++) {
		WL_CHECK(w, EMU_LAUNCH(relax_red, grid, block, 0, u, h2f, n));
		WL_CHECK(w, EMU_LAUNCH(relax_black, grid, block, 0, u, h2f, n));
	}
	WL_CHECK(w, cudaDeviceSynchronize());
}
