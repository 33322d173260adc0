// SPDX-License-Identifier: MIT
/*
 * run.c - fft-1d's plan (the passes of N = 2^p) and its host loop: per
 * iteration the forward transform's passes then the inverse's, one launch a
 * pass, ping-ponging between x and y, with the data's crossings for --mem.
 */
#include "fft1d.h"

void fft1d_plan_init(struct fft1d_plan *plan, int log2n)
{
	const uint64_t n = 1ull << log2n;
	uint64_t l = 1;
	int left = log2n;

	plan->log2n = log2n;
	plan->passes = 0;
	while (left > 0) {
		const unsigned bits = left > FFT1D_LOG2_RADIX ? FFT1D_LOG2_RADIX : (unsigned)left;
		const unsigned log2_cols = (unsigned)log2n - bits,
			       log2_l = (unsigned)(log2n - left);
		struct fft1d_pass *ps = &plan->pass[plan->passes++];

		ps->n = n;
		ps->l = l;
		ps->r = 1u << bits;
		ps->cols = n >> bits;
		ps->tw_step = n / (l << bits);
		ps->log2_r2 = bits < FFT1D_LOG2_SPLIT ? bits : FFT1D_LOG2_SPLIT; /* min(R, 16) */
		ps->log2_r1 = bits - ps->log2_r2;
		ps->r2 = 1u << ps->log2_r2;
		ps->r1 = 1u << ps->log2_r1;
		/* C = min(16, N/R), Q = min(C, L) */
		ps->log2_c = log2_cols < FFT1D_LOG2_COLUMNS ? log2_cols : FFT1D_LOG2_COLUMNS;
		ps->c = 1u << ps->log2_c;
		ps->log2_q = log2_l < ps->log2_c ? log2_l : ps->log2_c;
		ps->q = 1u << ps->log2_q;
		l <<= bits;
		left -= (int)bits;
	}
}

void fft1d_run_gpu(const struct wl *w, const struct fft1d_plan *plan, struct fft1d_c *x,
		   struct fft1d_c *y, const struct fft1d_c *tw, int iterations)
{
	const size_t bytes = ((size_t)1 << plan->log2n) * sizeof(struct fft1d_c);
	struct fft1d_c *buf[2] = {wl_dev(w, x), wl_dev(w, y)};
	const dim3 block = emu_dim3(FFT1D_THREADS, 1, 1);
	int cur = 0;

	wl_to_gpu(w, x, bytes);
	wl_gpu_space(w, y, bytes);
	for (int it = 0; it < iterations; it++)
		for (int inverse = 0; inverse < 2; inverse++)
			for (int i = 0; i < plan->passes; i++) {
				const struct fft1d_pass *ps = &plan->pass[i];
				const dim3 grid = emu_dim3((unsigned)(ps->cols / ps->c), 1, 1);
				const float scale = fft1d_pass_scale(plan, i, inverse);

				if (inverse)
					WL_CHECK(w,
						 EMU_LAUNCH(fft1d_inverse, grid, block, 0, buf[cur],
							    buf[cur ^ 1], tw, *ps, scale));
				else
					WL_CHECK(w,
						 EMU_LAUNCH(fft1d_forward, grid, block, 0, buf[cur],
							    buf[cur ^ 1], tw, *ps, scale));
				cur ^= 1;
			}
	/* Each iteration runs an even number of passes: the result is in x. */
	WL_CHECK(w, cudaDeviceSynchronize());
	wl_to_host(w, x, bytes);
}
