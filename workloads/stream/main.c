// SPDX-License-Identifier: MIT
/*
 * main.c - stream: McCalpin's STREAM triad, z = 3x + y on float arrays, one
 * thread per element, launched --iters times (STREAM's NTIMES) with a
 * synchronize after each launch, as STREAM times each pass. Pure streaming.
 */
#include <stdlib.h>

#include "triad.h"
#include "wl.h"

#define STREAM_DEFAULT (1u << 22)
#define STREAM_MAX     (1ll << 40)

int main(int argc, char **argv)
{
	struct wl w;
	long long n = 0, iters = 10;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, STREAM_MAX, "elements per array (default 4194304)"},
	    {"iters", WL_INT, &iters, 1, 1000000, "triad passes (default 10, STREAM's NTIMES)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	struct wl_rng rng;
	float *x, *y, *z, *ref;
	size_t bytes;
	bool pass;

	wl_init(&w, "stream", "STREAM triad z = 3x + y on float arrays", argc, argv, opts);
	n = wl_elements(&w, "--n", n, 3 * sizeof(float), 1, STREAM_DEFAULT, STREAM_MAX);

	bytes = (size_t)n * sizeof(float);
	x = wl_managed(&w, bytes, "x");
	y = wl_managed(&w, bytes, "y");
	z = wl_managed(&w, bytes, "z");
	/* x and y are written once and only read (--mem advise). */
	wl_advise(&w, x, bytes, WL_READ_MOSTLY);
	wl_advise(&w, y, bytes, WL_READ_MOSTLY);
	wl_footprint(&w, 3 * (uint64_t)n * sizeof(float));
	uvmemu_report_value("n", (double)n);
	uvmemu_report_value("iters", (double)iters);

	wl_rng_seed(&rng, w.seed);
	for (long long i = 0; i < n; i++) {
		x[i] = (float)wl_rng_unit(&rng);
		y[i] = (float)wl_rng_unit(&rng);
		z[i] = -1.0f;
	}

	uvmemu_roi_begin();
	wl_to_gpu(&w, x, bytes);
	wl_to_gpu(&w, y, bytes);
	wl_gpu_space(&w, z, bytes);
	for (long long it = 0; it < iters; it++) {
		WL_CHECK(&w,
			 EMU_LAUNCH(
			     stream_triad,
			     emu_dim3((unsigned)((n + STREAM_THREADS - 1) / STREAM_THREADS), 1, 1),
			     emu_dim3(STREAM_THREADS, 1, 1), 0, wl_dev(&w, x), wl_dev(&w, y),
			     wl_dev(&w, z), n));
		WL_CHECK(&w, cudaDeviceSynchronize());
	}
	wl_to_host(&w, z, bytes);
	uvmemu_roi_end();

	/* Every pass writes the same z; the CPU's float arithmetic, in the same
	 * order and without contraction (ISO C mode), gives the same bits. */
	ref = malloc((size_t)n * sizeof(float));
	if (!ref) {
		fprintf(stderr, "stream: out of memory for the reference\n");
		return 1;
	}
	for (long long i = 0; i < n; i++)
		ref[i] = STREAM_SCALAR * x[i] + y[i];
	pass = wl_check_f32_exact(&w, "z", z, ref, (size_t)n);
	wl_output_f32(&w, "z", z, (size_t)n);
	free(ref);
	wl_free(&w, x);
	wl_free(&w, y);
	wl_free(&w, z);
	return wl_finish(&w, pass);
}
