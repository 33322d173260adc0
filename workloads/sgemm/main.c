// SPDX-License-Identifier: MIT
/*
 * main.c - sgemm (Parboil): C = A B^T on generated matrices in managed
 * memory, one register-tiled kernel launch, checked bit for bit against a
 * CPU reference that sums every element in the same order.
 */
#include "sgemm.h"

#include <stdlib.h>

/* Parboil computes C = 1 A B^T + 0 C. */
#define SGEMM_ALPHA	  1.0f
#define SGEMM_BETA	  0.0f

int main(int argc, char **argv)
{
	struct sgemm_opts o = {0};
	const struct wl_opt opts[] = {
	    SGEMM_DIM_OPTS(&o),
	    {0},
	};
	struct sgemm_dims d;
	struct wl w;
	float *a, *b, *c, *ref;
	size_t nc;
	double sum = 0;
	bool pass;

	wl_init(&w, "sgemm", "Parboil sgemm: C = A B^T, register-tiled", argc, argv, opts);
	d = sgemm_choose_dims(&w, &o);
	nc = (size_t)d.m * (size_t)d.n;
	a = wl_managed(&w, (size_t)d.m * (size_t)d.k * sizeof(float), "A");
	b = wl_managed(&w, (size_t)d.n * (size_t)d.k * sizeof(float), "B");
	c = wl_managed(&w, nc * sizeof(float), "C");
	wl_footprint(&w, sgemm_footprint_bytes(&d));
	uvmemu_report_value("m", d.m);
	uvmemu_report_value("n", d.n);
	uvmemu_report_value("k", d.k);
	wl_log(&w, "C (%d x %d) = A (%d x %d) B^T (%d x %d): 1 launch of %d x %d CTAs", d.m, d.n,
	       d.m, d.k, d.k, d.n, d.m / SGEMM_TILE_M, d.n / SGEMM_TILE_N);

	sgemm_generate(w.seed, a, b, &d);
	/* The reference runs first, while A and B are still where the CPU
	 * wrote them; C is first touched by the GPU, as Parboil's device C. */
	ref = calloc(nc, sizeof(float));
	if (!ref) {
		fprintf(stderr, "sgemm: out of memory for the CPU reference\n");
		return 1;
	}
	sgemm_reference(a, b, ref, &d, SGEMM_ALPHA, SGEMM_BETA);

	uvmemu_roi_begin();
	sgemm_run_gpu(&w, a, b, c, &d, SGEMM_ALPHA, SGEMM_BETA);
	uvmemu_roi_end();

	for (size_t i = 0; i < nc; i++)
		sum += c[i];
	wl_log(&w, "sum of C = %.9g", sum);
	pass = wl_check_f32_exact(&w, "C", c, ref, nc);
	wl_output_f32(&w, "C", c, nc);
	free(ref);
	WL_CHECK(&w, cudaFree(a));
	WL_CHECK(&w, cudaFree(b));
	WL_CHECK(&w, cudaFree(c));
	return wl_finish(&w, pass);
}
