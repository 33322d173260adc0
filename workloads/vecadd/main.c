// SPDX-License-Identifier: MIT
/*
 * main.c - vecadd: c = a + b on n floats, one thread per element (the CUDA
 * samples' vectorAdd). One kernel, one launch, pure streaming.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "emugpu.h"
#include "wl.h"

#define VECADD_THREADS 256
#define VECADD_DEFAULT (1u << 22)
/* grid.x stays within CUDA's 2^31-1 CTAs, and indices within int64. */
#define VECADD_MAX (1ll << 40)

struct vecadd_args {
	const float *a, *b;
	float *c;
	int64_t n;
};

EMU_KERNEL(vecadd_kernel, struct vecadd_args)
{
	/* Threads past n do nothing (CUDA's `if (i >= n) return;`), and the
	 * loop over the others vectorizes. */
	EMU_FOR_THREADS_BELOW(args->n) {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		st_global(&args->c[i], ld_global(&args->a[i]) + ld_global(&args->b[i]));
	}
}

int main(int argc, char **argv)
{
	long long n = 0;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, VECADD_MAX, "elements per vector (default 4194304)"},
	    {NULL},
	};
	struct wl w;
	struct wl_rng rng;
	float *a, *b, *c, *ref;
	bool pass;

	wl_init(&w, "vecadd", "c = a + b on float vectors (CUDA samples' vectorAdd)", argc, argv,
		opts);
	if (w.footprint && n)
		wl_usage_error(&w, "give --footprint or --n, not both");
	if (w.footprint)
		n = (long long)(w.footprint / (3 * sizeof(float)));
	if (!n)
		n = VECADD_DEFAULT;
	if (n < 1 || n > VECADD_MAX)
		wl_usage_error(&w, "--footprint gives %lld elements; accepted 1 to %lld", n,
			       VECADD_MAX);

	a = wl_managed(&w, (size_t)n * sizeof(float), "a");
	b = wl_managed(&w, (size_t)n * sizeof(float), "b");
	c = wl_managed(&w, (size_t)n * sizeof(float), "c");
	wl_footprint(&w, 3 * (uint64_t)n * sizeof(float));
	uvmemu_report_value("n", (double)n);

	wl_rng_seed(&rng, w.seed);
	for (long long i = 0; i < n; i++) {
		a[i] = (float)wl_rng_unit(&rng);
		b[i] = (float)wl_rng_unit(&rng);
	}

	uvmemu_roi_begin();
	WL_CHECK(&w,
		 EMU_LAUNCH(vecadd_kernel,
			    emu_dim3((unsigned)((n + VECADD_THREADS - 1) / VECADD_THREADS), 1, 1),
			    emu_dim3(VECADD_THREADS, 1, 1), 0, a, b, c, n));
	WL_CHECK(&w, cudaDeviceSynchronize());
	uvmemu_roi_end();

	/* The same float additions on the CPU give bit-identical sums. */
	ref = malloc((size_t)n * sizeof(float));
	if (!ref) {
		fprintf(stderr, "vecadd: out of memory for the reference\n");
		return 1;
	}
	for (long long i = 0; i < n; i++)
		ref[i] = a[i] + b[i];
	pass = wl_check_f32_exact(&w, "c", c, ref, (size_t)n);
	wl_output_f32(&w, "c", c, (size_t)n);
	free(ref);
	WL_CHECK(&w, cudaFree(a));
	WL_CHECK(&w, cudaFree(b));
	WL_CHECK(&w, cudaFree(c));
	return wl_finish(&w, pass);
}
