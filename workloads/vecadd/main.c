// SPDX-License-Identifier: MIT
/*
 * main.c - vecadd: c = a + b on n floats, one thread per element (the CUDA
 * samples' vectorAdd). One kernel, one launch, pure streaming.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "vecadd.h"
#include "wl.h"

#define VECADD_DEFAULT (1u << 22)
/* grid.x stays within CUDA's 2^31-1 CTAs, and indices within int64. */
#define VECADD_MAX (1ll << 40)

int main(int argc, char **argv)
{
	struct wl w;
	long long n = 0;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, VECADD_MAX, "elements per vector (default 4194304)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	struct wl_rng rng;
	float *a, *b, *c, *ref;
	size_t bytes;
	bool pass;

	wl_init(&w, "vecadd", "c = a + b on float vectors (CUDA samples' vectorAdd)", argc, argv,
		opts);
	n = wl_elements(&w, "--n", n, 3 * sizeof(float), 1, VECADD_DEFAULT, VECADD_MAX);

	bytes = (size_t)n * sizeof(float);
	a = wl_managed(&w, bytes, "a");
	b = wl_managed(&w, bytes, "b");
	c = wl_managed(&w, bytes, "c");
	/* The inputs are written once and only read: copies may stay on both
	 * sides (--mem advise). */
	wl_advise(&w, a, bytes, WL_READ_MOSTLY);
	wl_advise(&w, b, bytes, WL_READ_MOSTLY);
	wl_footprint(&w, 3 * (uint64_t)n * sizeof(float));
	uvmemu_report_value("n", (double)n);

	wl_rng_seed(&rng, w.seed);
	for (long long i = 0; i < n; i++) {
		a[i] = (float)wl_rng_unit(&rng);
		b[i] = (float)wl_rng_unit(&rng);
	}

	uvmemu_roi_begin();
	wl_to_gpu(&w, a, bytes);
	wl_to_gpu(&w, b, bytes);
	wl_gpu_space(&w, c, bytes);
	WL_CHECK(&w,
		 EMU_LAUNCH(vecadd_kernel,
			    emu_dim3((unsigned)((n + VECADD_THREADS - 1) / VECADD_THREADS), 1, 1),
			    emu_dim3(VECADD_THREADS, 1, 1), 0, wl_dev(&w, a), wl_dev(&w, b),
			    wl_dev(&w, c), n));
	wl_to_host(&w, c, bytes);
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
	wl_free(&w, a);
	wl_free(&w, b);
	wl_free(&w, c);
	return wl_finish(&w, pass);
}
