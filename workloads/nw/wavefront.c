// SPDX-License-Identifier: MIT
/*
 * wavefront.c - nw's host loop: the anti-diagonals of tiles, one launch each,
 * upper-left triangle first (launch i has i CTAs), then the lower-right one.
 */
#include "nw.h"

cudaError_t nw_gpu(const struct wl *w, const struct nw_problem *p)
{
	int *reference = wl_dev(w, p->reference), *matrix = wl_dev(w, p->matrix);
	const int block_width = p->n / NW_BLOCK;
	const dim3 block = emu_dim3(NW_BLOCK, 1, 1);
	cudaError_t e;

	/* Launches queue in order on the default stream, as in the original:
	 * no synchronisation between them. */
	for (int i = 1; i <= block_width; i++) {
		e = EMU_LAUNCH(needle_cuda_shared_1, emu_dim3((unsigned)i, 1, 1), block, 0,
			       reference, matrix, p->cols, p->penalty, i, block_width);
		if (e != cudaSuccess)
			return e;
	}
	for (int i = block_width - 1; i >= 1; i--) {
		e = EMU_LAUNCH(needle_cuda_shared_2, emu_dim3((unsigned)i, 1, 1), block, 0,
			       reference, matrix, p->cols, p->penalty, i, block_width);
		if (e != cudaSuccess)
			return e;
	}
	return cudaDeviceSynchronize();
}
