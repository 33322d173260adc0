// SPDX-License-Identifier: MIT
/*
 * main.c - us-addvectors: UVMSmart's AddVectors
 * (benchmarks/Managed/AddVectors/add_vectors.cu, after NVIDIA's "Unified
 * Memory for CUDA beginners"): y = x + y in place on two managed vectors of
 * 2^20 floats, one launch of 256-thread CTAs with a grid-stride loop. The
 * host writes both vectors; --prefetch prefetches them to the device before
 * the launch, as the original's PREF build does. y is checked bit for bit.
 */
#include <stdlib.h>

#include "emugpu.h"
#include "wl.h"

#define US_ADD_THREADS 256
#define US_ADD_DEFAULT (1ll << 20) /* the original's N */
/* The grid stays within CUDA's 2^31 - 1 CTAs. */
#define US_ADD_MAX (1ll << 36)

struct us_add_args {
	int64_t n;
	const float *x;
	float *y;
};

EMU_KERNEL(us_add, struct us_add_args)
{
	EMU_FOR_THREADS {
		const int64_t stride = (int64_t)blockDim.x * gridDim.x;

		for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < args->n;
		     i += stride)
			st_global(&args->y[i], ld_global(&args->x[i]) + ld_global(&args->y[i]));
	}
}

int main(int argc, char **argv)
{
	long long n = 0;
	bool prefetch = false;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, US_ADD_MAX, "elements per vector (default 1048576)"},
	    {"prefetch", WL_FLAG, &prefetch, 0, 0,
	     "prefetch x and y to the device before the launch (the original's PREF build)"},
	    {0},
	};
	struct wl w;
	struct wl_rng rng;
	float *x, *y, *want;
	bool pass;

	wl_init(&w, "us-addvectors", "UVMSmart's AddVectors: y = x + y on float vectors", argc,
		argv, opts);
	n = wl_elements(&w, "--n", n, 2 * sizeof(float), 1, US_ADD_DEFAULT, US_ADD_MAX);

	x = wl_managed(&w, (size_t)n * sizeof(float), "x");
	y = wl_managed(&w, (size_t)n * sizeof(float), "y");
	wl_footprint(&w, 2 * (uint64_t)n * sizeof(float));
	uvmemu_report_value("n", (double)n);
	wl_log(&w, "%lld elements, %lld CTAs of %d threads%s", n,
	       (n + US_ADD_THREADS - 1) / US_ADD_THREADS, US_ADD_THREADS,
	       prefetch ? ", prefetched" : "");

	/* Seeded values where the original writes 1 and 2, so that a misplaced
	 * element shows; the sums are the CPU's float additions. */
	want = malloc((size_t)n * sizeof(float));
	if (!want) {
		fprintf(stderr, "us-addvectors: out of memory for the reference\n");
		return 1;
	}
	wl_rng_seed(&rng, w.seed);
	for (long long i = 0; i < n; i++) {
		x[i] = (float)wl_rng_unit(&rng);
		y[i] = (float)wl_rng_unit(&rng);
		want[i] = x[i] + y[i];
	}

	uvmemu_roi_begin();
	if (prefetch) {
		WL_CHECK(&w, cudaMemPrefetchAsync(x, (size_t)n * sizeof(float), 0, 0));
		WL_CHECK(&w, cudaMemPrefetchAsync(y, (size_t)n * sizeof(float), 0, 0));
	}
	WL_CHECK(&w,
		 EMU_LAUNCH(us_add,
			    emu_dim3((unsigned)((n + US_ADD_THREADS - 1) / US_ADD_THREADS), 1, 1),
			    emu_dim3(US_ADD_THREADS, 1, 1), 0, .n = n, .x = x, .y = y));
	WL_CHECK(&w, cudaDeviceSynchronize());
	uvmemu_roi_end();

	pass = wl_check_f32_exact(&w, "y", y, want, (size_t)n);
	wl_output_f32(&w, "y", y, (size_t)n);
	free(want);
	WL_CHECK(&w, cudaFree(x));
	WL_CHECK(&w, cudaFree(y));
	return wl_finish(&w, pass);
}
