// SPDX-License-Identifier: MIT
/*
 * kernel.c - Parboil's block2D_hybrid_coarsen_x on emu-gpu. Thread (tx, ty)
 * of CTA (bx, by) owns cells i = 64 bx + tx and i2 = i + 32 of row
 * j = 4 by + ty. Shared memory holds the CTA's 64 x 4 cells of the current
 * plane; a neighbour outside that tile is read from global memory. Per plane
 * k = 1 .. nz - 2: read the plane above into a register, write the interior
 * cells, then (after a barrier) shift the planes down one. The registers live
 * across barriers, so they are per-thread arrays here.
 */
#include "stencil.h"

#include "emugpu.h"

struct us_stencil_args {
	float c0, c1;
	const float *a0;
	float *anext;
	int64_t nx, ny, nz;
};

/* Where one of a thread's cells sits: its indices, its place in the tile
 * (shared index s, a row of the tile being `row` floats), and on which side
 * of it the tile ends in x (dx: -1 for the thread's first cell, whose left
 * neighbour may be another CTA's, +1 for its second). */
struct us_stencil_cell_at {
	int i, j, k, s, row, dx;
	bool x_edge, y_low, y_high;
};

/* The cell's next value into anext: neighbours across the tile's edges from
 * global memory, the others from the tile; the x-neighbours in the
 * original's order for this cell (the far side first). */
static inline void us_stencil_update(EMU_DEVICE_PARAMS, const struct us_stencil_args *args,
				     const float *sh, const struct us_stencil_cell_at *c, float top,
				     float bottom)
{
	const int nx = (int)args->nx, ny = (int)args->ny;
	const float *a0 = args->a0;
	float far = c->x_edge ? ld_global(&a0[us_stencil_at(nx, ny, c->i + c->dx, c->j, c->k)])
			      : sh[c->s + c->dx];
	float down = c->y_low ? ld_global(&a0[us_stencil_at(nx, ny, c->i, c->j - 1, c->k)])
			      : sh[c->s - c->row];
	float up = c->y_high ? ld_global(&a0[us_stencil_at(nx, ny, c->i, c->j + 1, c->k)])
			     : sh[c->s + c->row];

	st_global(&args->anext[us_stencil_at(nx, ny, c->i, c->j, c->k)],
		  us_stencil_cell(far, sh[c->s - c->dx], up, down, top, bottom, sh[c->s], args->c0,
				  args->c1));
}

EMU_KERNEL_BLOCK(block2D_hybrid_coarsen_x, struct us_stencil_args, US_STENCIL_TX, US_STENCIL_TY, 1)
{
	const int nx = (int)args->nx, ny = (int)args->ny, nz = (int)args->nz;
	const int bdx = (int)blockDim.x;
	const float *a0 = args->a0;
	float *sh = emu_shared(float);
	EMU_PER_THREAD(float, bottom);
	EMU_PER_THREAD(float, bottom2);
	EMU_PER_THREAD(float, top);
	EMU_PER_THREAD(float, top2);

	EMU_FOR_THREADS {
		const int i = (int)blockIdx.x * bdx * 2 + (int)threadIdx.x, i2 = i + bdx;
		const int j = (int)(blockIdx.y * blockDim.y + threadIdx.y);
		const int sh_id = (int)threadIdx.x + (int)threadIdx.y * bdx * 2,
			  sh_id2 = sh_id + bdx;

		sh[sh_id] = 0.0f;
		sh[sh_id2] = 0.0f;
		bottom[emu_tid] = bottom2[emu_tid] = top[emu_tid] = top2[emu_tid] = 0.0f;
		if (i < nx && j < ny) {
			bottom[emu_tid] = ld_global(&a0[us_stencil_at(nx, ny, i, j, 0)]);
			sh[sh_id] = ld_global(&a0[us_stencil_at(nx, ny, i, j, 1)]);
		}
		if (i2 < nx && j < ny) {
			bottom2[emu_tid] = ld_global(&a0[us_stencil_at(nx, ny, i2, j, 0)]);
			sh[sh_id2] = ld_global(&a0[us_stencil_at(nx, ny, i2, j, 1)]);
		}
	}
	__syncthreads();

	for (int k = 1; k < nz - 1; k++) {
		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
			const int i = (int)blockIdx.x * bdx * 2 + tx, i2 = i + bdx;
			const int j = (int)(blockIdx.y * blockDim.y) + ty;
			const int sh_id = tx + ty * bdx * 2;
			const bool y_l = ty == 0, y_h = ty == (int)blockDim.y - 1;
			/* The first cell's left neighbour and the second's right
			 * one are another CTA's at the tile's edge. */
			const struct us_stencil_cell_at first = {.i = i,
								 .j = j,
								 .k = k,
								 .s = sh_id,
								 .row = 2 * bdx,
								 .dx = -1,
								 .x_edge = tx == 0,
								 .y_low = y_l,
								 .y_high = y_h};
			struct us_stencil_cell_at second = first;

			second.i = i2;
			second.s = sh_id + bdx;
			second.dx = +1;
			second.x_edge = tx == bdx - 1;

			if (i < nx && j < ny)
				top[emu_tid] = ld_global(&a0[us_stencil_at(nx, ny, i, j, k + 1)]);
			if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1)
				us_stencil_update(EMU_DEVICE_ARGS, args, sh, &first, top[emu_tid],
						  bottom[emu_tid]);
			if (i2 < nx && j < ny)
				top2[emu_tid] = ld_global(&a0[us_stencil_at(nx, ny, i2, j, k + 1)]);
			if (j > 0 && i2 < nx - 1 && j < ny - 1)
				us_stencil_update(EMU_DEVICE_ARGS, args, sh, &second, top2[emu_tid],
						  bottom2[emu_tid]);
		}
		__syncthreads();
		EMU_FOR_THREADS {
			const int sh_id = (int)threadIdx.x + (int)threadIdx.y * bdx * 2;
			const int sh_id2 = sh_id + bdx;

			bottom[emu_tid] = sh[sh_id];
			sh[sh_id] = top[emu_tid];
			bottom2[emu_tid] = sh[sh_id2];
			sh[sh_id2] = top2[emu_tid];
		}
		__syncthreads();
	}
}

int us_stencil_run_gpu(const struct wl *w, float *a[2], int nx, int ny, int nz, int iterations)
{
	const dim3 block = emu_dim3(US_STENCIL_TX, US_STENCIL_TY, 1);
	const dim3 grid = emu_dim3((unsigned)((nx + US_STENCIL_TX * 2 - 1) / (US_STENCIL_TX * 2)),
				   (unsigned)((ny + US_STENCIL_TY - 1) / US_STENCIL_TY), 1);
	const size_t shared = (size_t)US_STENCIL_TX * 2 * US_STENCIL_TY * sizeof(float);
	int cur = 0;

	for (int t = 0; t < iterations; t++) {
		WL_CHECK(w,
			 EMU_LAUNCH(block2D_hybrid_coarsen_x, grid, block, shared, us_stencil_c0(),
				    us_stencil_c1(), a[cur], a[1 - cur], nx, ny, nz));
		cur = 1 - cur;
	}
	WL_CHECK(w, cudaDeviceSynchronize());
	return cur;
}
