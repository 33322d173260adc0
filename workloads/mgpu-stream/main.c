// SPDX-License-Identifier: MIT
/*
 * main.c - mgpu-stream: STREAM's four kernels as BabelStream runs them
 * (c = a, b = 3c, c = a + b, a = b + 3c), --iters passes, on data that
 * another GPU or the host wrote: the 2024 batch study's GPU-GPU and CPU-GPU
 * on-demand migration with Stream (mgpu.h: --mode peer, host, split and
 * --prefetch). Every pass synchronises, as STREAM times each; a, b and c are
 * checked bit for bit against the same float operations on the CPU.
 */
#include <stdlib.h>

#include "kernels.h"
#include "mgpu.h"

#define MGPU_STREAM_DEFAULT (1u << 22)
#define MGPU_STREAM_MAX	    (1ll << 38)
/* A pass multiplies a by 15 (b = 3a, c = 4a, a = 3a + 12a): from below 1,
 * 30 passes stay below FLT_MAX. */
#define MGPU_STREAM_MAX_ITERS 30

enum { ARRAY_A = 1, ARRAY_B, ARRAY_C };

/* One pass over [0, n) of the three arrays, on the current device. */
static void launch_pass(const struct wl *w, float *a, float *b, float *c, int64_t n)
{
	const dim3 grid = emu_dim3((unsigned)((n + STREAM_THREADS - 1) / STREAM_THREADS), 1, 1);
	const dim3 block = emu_dim3(STREAM_THREADS, 1, 1);

	WL_CHECK(w, EMU_LAUNCH(stream_copy, grid, block, 0, a, NULL, c, n));
	WL_CHECK(w, EMU_LAUNCH(stream_scale, grid, block, 0, c, NULL, b, n));
	WL_CHECK(w, EMU_LAUNCH(stream_add, grid, block, 0, a, b, c, n));
	/* stream's triad z = 3x + y: a = 3c + b. */
	WL_CHECK(w, EMU_LAUNCH(stream_triad, grid, block, 0, c, b, a, n));
}

/* The CPU's passes, in the kernels' order and float operations (ISO C mode:
 * no contraction into fused multiply-adds), from the inputs' values. */
static void reference(const struct wl *w, float *a, float *b, float *c, int64_t n, long long iters)
{
	mgpu_values(a, n, mgpu_key(w->seed, ARRAY_A), MGPU_UNIT);
	mgpu_values(b, n, mgpu_key(w->seed, ARRAY_B), MGPU_UNIT);
	mgpu_values(c, n, mgpu_key(w->seed, ARRAY_C), MGPU_ZERO);
	for (int64_t i = 0; i < n; i++)
		for (long long it = 0; it < iters; it++) {
			c[i] = a[i];
			b[i] = STREAM_SCALAR * c[i];
			c[i] = a[i] + b[i];
			a[i] = STREAM_SCALAR * c[i] + b[i];
		}
}

int main(int argc, char **argv)
{
	struct wl w;
	struct mgpu m = {0};
	long long n = 0, iters = 5;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, MGPU_STREAM_MAX, "elements per array (default 4194304)"},
	    {"iters", WL_INT, &iters, 1, MGPU_STREAM_MAX_ITERS,
	     "passes of the four kernels (default 5, at most 30)"},
	    MGPU_OPTS(&m),
	    {0},
	};
	float *a, *b, *c, *ra, *rb, *rc;
	size_t bytes;
	bool pass;

	wl_init(&w, "mgpu-stream", "STREAM copy, scale, add, triad on data another GPU wrote", argc,
		argv, opts);
	n = wl_elements(&w, "--n", n, 3 * sizeof(float), 1, MGPU_STREAM_DEFAULT, MGPU_STREAM_MAX);
	mgpu_setup(&w, &m);

	bytes = (size_t)n * sizeof(float);
	a = wl_managed(&w, bytes, "a");
	b = wl_managed(&w, bytes, "b");
	c = wl_managed(&w, bytes, "c");
	wl_footprint(&w, 3 * (uint64_t)bytes);
	uvmemu_report_value("n", (double)n);
	uvmemu_report_value("iters", (double)iters);

	mgpu_fill(&w, &m, a, n, mgpu_key(w.seed, ARRAY_A), MGPU_UNIT);
	mgpu_fill(&w, &m, b, n, mgpu_key(w.seed, ARRAY_B), MGPU_UNIT);
	mgpu_fill(&w, &m, c, n, mgpu_key(w.seed, ARRAY_C), MGPU_ZERO);

	uvmemu_roi_begin();
	for (int p = 0; p < m.parts; p++) {
		int64_t lo, hi;

		mgpu_part(&m, p, n, 1, &lo, &hi);
		mgpu_set_device(&w, m.dev[p]);
		mgpu_prefetch(&w, &m, a + lo, (size_t)(hi - lo) * sizeof(float), m.dev[p]);
		mgpu_prefetch(&w, &m, b + lo, (size_t)(hi - lo) * sizeof(float), m.dev[p]);
		mgpu_prefetch(&w, &m, c + lo, (size_t)(hi - lo) * sizeof(float), m.dev[p]);
	}
	mgpu_prefetch_done(&w, &m);
	for (long long it = 0; it < iters; it++) {
		for (int p = 0; p < m.parts; p++) {
			int64_t lo, hi;

			mgpu_part(&m, p, n, 1, &lo, &hi);
			mgpu_set_device(&w, m.dev[p]);
			if (hi > lo)
				launch_pass(&w, a + lo, b + lo, c + lo, hi - lo);
		}
		mgpu_sync(&w, &m);
	}
	uvmemu_roi_end();

	ra = malloc(bytes);
	rb = malloc(bytes);
	rc = malloc(bytes);
	if (!ra || !rb || !rc) {
		fprintf(stderr, "mgpu-stream: out of memory for the reference\n");
		return 1;
	}
	reference(&w, ra, rb, rc, n, iters);
	pass = wl_check_f32_exact(&w, "a", a, ra, (size_t)n);
	pass &= wl_check_f32_exact(&w, "b", b, rb, (size_t)n);
	pass &= wl_check_f32_exact(&w, "c", c, rc, (size_t)n);
	wl_output_f32(&w, "a", a, (size_t)n);
	wl_output_f32(&w, "b", b, (size_t)n);
	wl_output_f32(&w, "c", c, (size_t)n);
	free(ra);
	free(rb);
	free(rc);
	wl_free(&w, a);
	wl_free(&w, b);
	wl_free(&w, c);
	return wl_finish(&w, pass);
}
