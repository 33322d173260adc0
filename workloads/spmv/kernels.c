// SPDX-License-Identifier: MIT
/*
 * kernels.c - spmv's kernel, spmv_jds, and the host loop that launches it
 * `reps` times (Parboil's 50): one 32-thread CTA per slice of 32 sorted
 * rows. Thread ix walks the slice's diagonals k < sh_zcnt[slice], reading
 * the slot jds_ptr[k] + ix (consecutive threads, consecutive slots), its
 * column and x at that column (the irregular gather), and writes its sum to
 * y[perm[ix]] (a scatter).
 *
 * The loop over diagonals sits outside the loop over the CTA's threads (its
 * bound is the CTA's), so that the threads take each step together as a
 * warp does; the sums live in a per-thread array across the steps. The
 * threads share nothing, so every result is unchanged.
 */
#include "spmv.h"

#include "emugpu.h"

struct spmv_jds_args {
	float *y;
	const float *data;
	const int32_t *index;
	const int32_t *perm;
	const float *x;
	const int32_t *jds_ptr;
	const int32_t *zcnt;
	int64_t rows;
};

EMU_KERNEL(spmv_jds_kernel, struct spmv_jds_args)
{
	const int64_t bound = ld_global(&args->zcnt[blockIdx.x]);
	EMU_PER_THREAD(float, sum);

	EMU_FOR_THREADS {
		sum[emu_tid] = 0.0f;
	}
	for (int64_t k = 0; k < bound; k++) {
		const int64_t start = ld_global(&args->jds_ptr[k]);

		EMU_FOR_THREADS {
			const int64_t ix = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
			const int64_t j = start + ix;

			if (ix >= args->rows)
				EMU_RETURN;
			sum[emu_tid] = spmv_step(sum[emu_tid], ld_global(&args->data[j]),
						 ld_global(&args->x[ld_global(&args->index[j])]));
		}
	}
	EMU_FOR_THREADS {
		const int64_t ix = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (ix >= args->rows)
			EMU_RETURN;
		st_global(&args->y[ld_global(&args->perm[ix])], sum[emu_tid]);
	}
}

void spmv_run_gpu(const struct wl *w, const struct spmv_jds *j, int reps)
{
	const dim3 grid = emu_dim3((unsigned)j->slices, 1, 1);
	const dim3 block = emu_dim3(SPMV_SLICE, 1, 1);

	for (int r = 0; r < reps; r++)
		WL_CHECK(w, EMU_LAUNCH(spmv_jds_kernel, grid, block, 0, j->y, j->data, j->index,
				       j->perm, j->x, j->jds_ptr, j->zcnt, j->rows));
	WL_CHECK(w, cudaDeviceSynchronize());
}
