// SPDX-License-Identifier: MIT
/*
 * kernels.c - lud's three kernels and the host loop around them.
 *
 * Step at offset o (a multiple of 16): lud_diagonal (one CTA of 16 threads)
 * factors the 16 x 16 diagonal block in shared memory; lud_perimeter (one
 * CTA of 32 threads per block right of and below the diagonal one) solves
 * the block row for U (threads 0-15) and the block column for L (threads
 * 16-31); lud_internal (16 x 16 threads per trailing block) subtracts the
 * product of the block's L and U perimeter blocks. The trailing matrix
 * shrinks by 16 rows and columns per step; a last lud_diagonal factors the
 * bottom-right block. Launches run back to back on the stream, as in the
 * original (no synchronisation between steps).
 */
#include "lud.h"

#include "emugpu.h"

#define BS LUD_BLOCK

struct lud_args {
	float *m;
	int64_t dim, offset;
};

EMU_KERNEL(lud_diagonal, struct lud_args)
{
	float shadow[BS][BS];
	float *m = args->m;
	const size_t dim = (size_t)args->dim, off = (size_t)args->offset;

	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x;

		for (size_t i = 0; i < BS; i++)
			shadow[i][tx] = ld_global(&m[(off + i) * dim + off + tx]);
	}
	__syncthreads();
	for (int i = 0; i < BS - 1; i++) {
		/* Column i of L below the diagonal... */
		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x;

			if (tx > i) {
				for (int j = 0; j < i; j++)
					shadow[tx][i] =
					    lud_sub(shadow[tx][i], shadow[tx][j], shadow[j][i]);
				shadow[tx][i] = lud_div(shadow[tx][i], shadow[i][i]);
			}
		}
		__syncthreads();
		/* ... then row i + 1 of U right of it. */
		EMU_FOR_THREADS {
			const int tx = (int)threadIdx.x;

			if (tx > i)
				for (int j = 0; j < i + 1; j++)
					shadow[i + 1][tx] = lud_sub(
					    shadow[i + 1][tx], shadow[i + 1][j], shadow[j][tx]);
		}
		__syncthreads();
	}
	/* Row 0 of the block is U's and unchanged. */
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x;

		for (size_t i = 1; i < BS; i++)
			st_global(&m[(off + i) * dim + off + tx], shadow[i][tx]);
	}
}

EMU_KERNEL(lud_perimeter, struct lud_args)
{
	float dia[BS][BS], peri_row[BS][BS], peri_col[BS][BS];
	float *m = args->m;
	const size_t dim = (size_t)args->dim, off = (size_t)args->offset;
	/* First column (for the row block) or row (for the column block) of
	 * this CTA's perimeter blocks. */
	const size_t peri = off + ((size_t)blockIdx.x + 1) * BS;

	/* Threads 0-15 load the top half of the diagonal block and the block
	 * row; threads 16-31 the bottom half and the block column. */
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x;

		if (tx < BS) {
			for (size_t i = 0; i < BS / 2; i++)
				dia[i][tx] = ld_global(&m[(off + i) * dim + off + tx]);
			for (size_t i = 0; i < BS; i++)
				peri_row[i][tx] = ld_global(&m[(off + i) * dim + peri + tx]);
		} else {
			const size_t idx = tx - BS;

			for (size_t i = BS / 2; i < BS; i++)
				dia[i][idx] = ld_global(&m[(off + i) * dim + off + idx]);
			for (size_t i = 0; i < BS; i++)
				peri_col[i][idx] = ld_global(&m[(peri + i) * dim + off + idx]);
		}
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const int tx = (int)threadIdx.x;

		if (tx < BS) {
			/* U: column tx of the block row, forward substitution
			 * with the unit lower triangle of the diagonal block. */
			const int idx = tx;

			for (int i = 1; i < BS; i++)
				for (int j = 0; j < i; j++)
					peri_row[i][idx] =
					    lud_sub(peri_row[i][idx], dia[i][j], peri_row[j][idx]);
		} else {
			/* L: row idx of the block column, against the upper
			 * triangle of the diagonal block. */
			const int idx = tx - BS;

			for (int i = 0; i < BS; i++) {
				for (int j = 0; j < i; j++)
					peri_col[idx][i] =
					    lud_sub(peri_col[idx][i], peri_col[idx][j], dia[j][i]);
				peri_col[idx][i] = lud_div(peri_col[idx][i], dia[i][i]);
			}
		}
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x;

		if (tx < BS) {
			for (size_t i = 1; i < BS; i++)
				st_global(&m[(off + i) * dim + peri + tx], peri_row[i][tx]);
		} else {
			const size_t idx = tx - BS;

			for (size_t i = 0; i < BS; i++)
				st_global(&m[(peri + i) * dim + off + idx], peri_col[i][idx]);
		}
	}
}

EMU_KERNEL(lud_internal, struct lud_args)
{
	float peri_row[BS][BS], peri_col[BS][BS];
	float *m = args->m;
	const size_t dim = (size_t)args->dim, off = (size_t)args->offset;
	const size_t global_row = off + ((size_t)blockIdx.y + 1) * BS;
	const size_t global_col = off + ((size_t)blockIdx.x + 1) * BS;

	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;

		peri_row[ty][tx] = ld_global(&m[(off + ty) * dim + global_col + tx]);
		peri_col[ty][tx] = ld_global(&m[(global_row + ty) * dim + off + tx]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;
		float *p = &m[(global_row + ty) * dim + global_col + tx];

		st_global(p,
			  lud_internal_element(ld_global(p), peri_col[ty], &peri_row[0][tx], BS));
	}
}

void lud_run_gpu(const struct wl *w, float *m, int n, int steps)
{
	const int64_t dim = n;
	int64_t off = 0;

	for (int s = 0; s < steps; s++, off += BS) {
		/* Blocks right of (and below) the diagonal one. */
		const unsigned rest = (unsigned)((dim - off) / BS - 1);

		WL_CHECK(w, EMU_LAUNCH(lud_diagonal, emu_dim3(1, 1, 1), emu_dim3(BS, 1, 1), 0, m,
				       dim, off));
		WL_CHECK(w, EMU_LAUNCH(lud_perimeter, emu_dim3(rest, 1, 1), emu_dim3(2 * BS, 1, 1),
				       0, m, dim, off));
		WL_CHECK(w, EMU_LAUNCH(lud_internal, emu_dim3(rest, rest, 1), emu_dim3(BS, BS, 1),
				       0, m, dim, off));
	}
	if (steps == lud_block_steps(n))
		WL_CHECK(w, EMU_LAUNCH(lud_diagonal, emu_dim3(1, 1, 1), emu_dim3(BS, 1, 1), 0, m,
				       dim, off));
	/* The original copies the matrix back here; with managed memory the
	 * host waits for the kernels before reading it. */
	WL_CHECK(w, cudaDeviceSynchronize());
}
