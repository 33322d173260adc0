// SPDX-License-Identifier: MIT
/*
 * main.c - fft (SHOC-style batched 512-point FFT): options and sizes, then
 * generate, compute the CPU reference, run the forward and inverse launches
 * (the region of interest), and check the result bit for bit; the
 * reference's stages are checked against the DFT's definition.
 */
#include "fft.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define FFT_DEFAULT_FFTS       2048			      /* 8 MB: SHOC's size class 2 */
#define FFT_DEFAULT_ITERATIONS 10			      /* SHOC's default passes */
#define FFT_MAX_FFTS	       ((1ll << 31) - 1)	      /* one CTA each: CUDA's grid x */
#define FFT_BYTES	       (FFT_N * sizeof(struct fft_c)) /* 4 KB a transform */

int main(int argc, char **argv)
{
	long long ffts = 0, iterations = FFT_DEFAULT_ITERATIONS;
	const struct wl_opt opts[] = {
	    {"ffts", WL_INT, &ffts, 1, FFT_MAX_FFTS,
	     "512-point transforms in the batch (default 2048: 8 MB)"},
	    {"iterations", WL_INT, &iterations, 1, 100000,
	     "forward + inverse pairs of launches (default 10)"},
	    {0},
	};
	struct fft_twiddles *tw;
	struct fft_problem p;
	struct fft_c *ref;
	struct wl w;
	size_t n;
	bool pass;

	wl_init(&w, "fft", "SHOC-style batched 512-point FFT, forward and inverse", argc, argv,
		opts);
	if (w.footprint && ffts)
		wl_usage_error(&w, "--footprint and --ffts both set the batch; give one");
	if (w.footprint) {
		ffts = (long long)((w.footprint + FFT_BYTES / 2) / FFT_BYTES);
		if (ffts < 1 || ffts > FFT_MAX_FFTS)
			wl_usage_error(&w,
				       "--footprint %" PRIu64 ": outside fft's range (4 KiB to "
				       "8 TiB, 4 KiB a transform)",
				       w.footprint);
	}
	p.ffts = ffts ? ffts : FFT_DEFAULT_FFTS;
	p.iterations = (int)iterations;
	n = (size_t)p.ffts * FFT_N;

	p.work = wl_managed(&w, n * sizeof(struct fft_c), "work");
	wl_footprint(&w, (uint64_t)n * sizeof(struct fft_c));
	uvmemu_report_value("ffts", (double)p.ffts);
	uvmemu_report_value("iterations", p.iterations);
	wl_log(&w, "%lld transforms of 512 points: %d launches of %lld CTAs of %d threads", p.ffts,
	       2 * p.iterations, p.ffts, FFT_THREADS);

	tw = malloc(sizeof(*tw));
	ref = malloc(n * sizeof(struct fft_c));
	if (!tw || !ref) {
		fprintf(stderr, "fft: out of memory for the CPU reference\n");
		return 1;
	}
	fft_twiddles_init(tw);
	fft_generate(&p, w.seed);
	/* The reference runs first, while the input is still where the CPU
	 * wrote it, so that it adds no traffic of its own. */
	memcpy(ref, p.work, n * sizeof(struct fft_c));
	pass = fft_check_definition(&w, ref, p.ffts, tw);
	for (long long f = 0; f < p.ffts; f++)
		for (int it = 0; it < p.iterations; it++) {
			fft_reference_one(ref + f * FFT_N, tw, false);
			fft_reference_one(ref + f * FFT_N, tw, true);
		}

	uvmemu_roi_begin();
	fft_run_gpu(&w, &p, tw);
	uvmemu_roi_end();

	printf("fft: checksum of the result %.9g\n",
	       wl_sum_f32((const float *)(const void *)p.work, 2 * n));
	pass &= wl_check_f32_exact(&w, "result (re, im)", (const float *)(const void *)p.work,
				   (const float *)(const void *)ref, 2 * n);
	wl_output_f32(&w, "result_re_im", (const float *)(const void *)p.work, 2 * n);
	free(ref);
	free(tw);
	WL_CHECK(&w, cudaFree(p.work));
	return wl_finish(&w, pass);
}
