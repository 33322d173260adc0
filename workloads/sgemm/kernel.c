// SPDX-License-Identifier: MIT
/*
 * kernel.c - Parboil sgemm's kernel (mysgemmNT) and its launch.
 *
 * CTA (bx, by) of 16 x 8 threads computes rows 128 bx .. 128 bx + 127 by
 * columns 16 by .. 16 by + 15 of C. Thread `mid` (its flattened index) owns
 * row 128 bx + mid and keeps its 16 sums in registers. For every 8 values of
 * k the CTA stages an 8 x 16 tile of B in shared memory (thread (x, y) loads
 * B's column n = 16 by + x at k + y), then each thread reads its row's 8
 * values of A (coalesced across the CTA: consecutive rows of a column-major
 * matrix) and adds a * b to each of its 16 sums. Every CTA reads its rows of
 * A over all of k and its columns of B over all of k: A and B are reused by
 * every CTA row and column of the grid, C is written once.
 */
#include "sgemm.h"

#include "emugpu.h"

#define TILE_N	       SGEMM_TILE_N
#define TILE_TB_HEIGHT SGEMM_TILE_TB_HEIGHT
#define TILE_M	       SGEMM_TILE_M

struct mysgemmNT_args {
	const float *a;
	const float *b;
	float *c;
	int64_t lda, ldb, ldc, k;
	float alpha, beta;
};

EMU_KERNEL(mysgemmNT, struct mysgemmNT_args)
{
	/* Each thread's 16 sums (registers in the original), live across the
	 * barriers, and the staged tile of B (shared memory). */
	float c[TILE_M][TILE_N];
	float b_s[TILE_TB_HEIGHT][TILE_N];
	const float *a = args->a, *b = args->b;
	const size_t lda = (size_t)args->lda, ldb = (size_t)args->ldb, ldc = (size_t)args->ldc;
	const size_t k = (size_t)args->k;
	const size_t m0 = (size_t)blockIdx.x * TILE_M, n0 = (size_t)blockIdx.y * TILE_N;

	EMU_FOR_THREADS {
		const size_t mid = threadIdx.y * blockDim.x + threadIdx.x;

		for (int i = 0; i < TILE_N; i++)
			c[mid][i] = 0.0f;
	}
	for (size_t i = 0; i < k; i += TILE_TB_HEIGHT) {
		EMU_FOR_THREADS {
			const size_t tx = threadIdx.x, ty = threadIdx.y;

			b_s[ty][tx] = ld_global(&b[n0 + tx + (i + ty) * ldb]);
		}
		__syncthreads();
		EMU_FOR_THREADS {
			const size_t mid = threadIdx.y * blockDim.x + threadIdx.x;
			float *cr = c[mid];

			for (size_t j = 0; j < TILE_TB_HEIGHT; j++) {
				const float av = ld_global(&a[m0 + mid + (i + j) * lda]);

				for (int kk = 0; kk < TILE_N; kk++)
					cr[kk] = sgemm_term(cr[kk], av, b_s[j][kk]);
			}
		}
		__syncthreads();
	}
	EMU_FOR_THREADS {
		const size_t mid = threadIdx.y * blockDim.x + threadIdx.x;
		const size_t t = ldc * n0 + m0 + mid;

		for (size_t i = 0; i < TILE_N; i++) {
			float *p = &args->c[t + i * ldc];

			st_global(p,
				  sgemm_result(ld_global(p), c[mid][i], args->alpha, args->beta));
		}
	}
}

void sgemm_launch_cols(const struct wl *w, const float *a, const float *b, float *c,
		       const struct sgemm_dims *d, int col0, int cols, float alpha, float beta)
{
	const dim3 grid = emu_dim3((unsigned)(d->m / TILE_M), (unsigned)(cols / TILE_N), 1);
	const dim3 block = emu_dim3(TILE_N, TILE_TB_HEIGHT, 1);

	/* Column col0 of C starts col0 columns in (ldc = m), and its row of B
	 * col0 elements in (ldb = n): the grid's CTA 0 starts there. */
	WL_CHECK(w,
		 EMU_LAUNCH(mysgemmNT, grid, block, 0, a, b + col0, c + (size_t)col0 * (size_t)d->m,
			    d->m, d->n, d->m, d->k, alpha, beta));
}

void sgemm_run_gpu(const struct wl *w, const float *a, const float *b, float *c,
		   const struct sgemm_dims *d, float alpha, float beta)
{
	sgemm_launch_cols(w, a, b, c, d, 0, d->n, alpha, beta);
	WL_CHECK(w, cudaDeviceSynchronize());
}
