// SPDX-License-Identifier: MIT
/*
 * main.c - mgpu-sgemm: Parboil's sgemm, C = alpha A B^T + beta C on
 * column-major matrices (sgemm.h), on data that another GPU or the host
 * wrote: the 2024 batch study's GPU-GPU and CPU-GPU on-demand migration with
 * sgemm (mgpu.h: --mode peer, host, split and --prefetch). Split gives each
 * GPU half of C's columns (C is column-major: each half is contiguous).
 * Checked bit for bit against sgemm's CPU reference.
 */
#include <stdlib.h>

#include "mgpu.h"
#include "sgemm.h"

/* beta is not 0, so C's initial values, which cross with A and B, count. */
#define MGPU_SGEMM_ALPHA 1.0f
#define MGPU_SGEMM_BETA	 0.5f

enum { ARRAY_A = 1, ARRAY_B, ARRAY_C };

/* Part p's prefetches: its columns of C and rows of B (one range of B per k
 * when the part is not all of it); A, which every part reads whole, only
 * when one part computes everything. */
static void prefetch_part(const struct wl *w, const struct mgpu *m, int p, const float *a,
			  const float *b, const float *c, const struct sgemm_dims *d)
{
	const size_t mm = (size_t)d->m, nn = (size_t)d->n, kk = (size_t)d->k;
	int64_t lo, hi;

	mgpu_part(m, p, d->n, SGEMM_TILE_N, &lo, &hi);
	if (m->parts == 1)
		mgpu_prefetch(w, m, a, mm * kk * sizeof(float), m->dev[p]);
	if ((size_t)(hi - lo) == nn)
		mgpu_prefetch(w, m, b, nn * kk * sizeof(float), m->dev[p]);
	else
		for (size_t j = 0; j < kk; j++)
			mgpu_prefetch(w, m, b + (size_t)lo + j * nn,
				      (size_t)(hi - lo) * sizeof(float), m->dev[p]);
	mgpu_prefetch(w, m, c + (size_t)lo * mm, (size_t)(hi - lo) * mm * sizeof(float), m->dev[p]);
}

int main(int argc, char **argv)
{
	struct sgemm_opts o = {0};
	struct mgpu m = {0};
	const struct wl_opt opts[] = {
	    SGEMM_DIM_OPTS(&o),
	    MGPU_OPTS(&m),
	    {0},
	};
	struct sgemm_dims d;
	struct wl w;
	float *a, *b, *c, *ra, *rb, *rc;
	size_t na, nb, nc;
	bool pass;

	wl_init(&w, "mgpu-sgemm", "Parboil sgemm C = A B^T + C/2 on data another GPU wrote", argc,
		argv, opts);
	d = sgemm_choose_dims(&w, &o);
	mgpu_setup(&w, &m);
	na = (size_t)d.m * (size_t)d.k;
	nb = (size_t)d.n * (size_t)d.k;
	nc = (size_t)d.m * (size_t)d.n;
	a = wl_managed(&w, na * sizeof(float), "A");
	b = wl_managed(&w, nb * sizeof(float), "B");
	c = wl_managed(&w, nc * sizeof(float), "C");
	wl_footprint(&w, sgemm_footprint_bytes(&d));
	uvmemu_report_value("m", d.m);
	uvmemu_report_value("n", d.n);
	uvmemu_report_value("k", d.k);
	wl_log(&w, "C (%d x %d) = A (%d x %d) B^T (%d x %d) + C/2: %d x %d CTAs", d.m, d.n, d.m,
	       d.k, d.k, d.n, d.m / SGEMM_TILE_M, d.n / SGEMM_TILE_N);

	mgpu_fill(&w, &m, a, (int64_t)na, mgpu_key(w.seed, ARRAY_A), MGPU_SIGNED);
	mgpu_fill(&w, &m, b, (int64_t)nb, mgpu_key(w.seed, ARRAY_B), MGPU_SIGNED);
	mgpu_fill(&w, &m, c, (int64_t)nc, mgpu_key(w.seed, ARRAY_C), MGPU_SIGNED);

	uvmemu_roi_begin();
	for (int p = 0; p < m.parts; p++) {
		mgpu_set_device(&w, m.dev[p]);
		prefetch_part(&w, &m, p, a, b, c, &d);
	}
	mgpu_prefetch_done(&w, &m);
	for (int p = 0; p < m.parts; p++) {
		int64_t lo, hi;

		mgpu_part(&m, p, d.n, SGEMM_TILE_N, &lo, &hi);
		mgpu_set_device(&w, m.dev[p]);
		if (hi > lo)
			sgemm_launch_cols(&w, a, b, c, &d, (int)lo, (int)(hi - lo),
					  MGPU_SGEMM_ALPHA, MGPU_SGEMM_BETA);
	}
	mgpu_sync(&w, &m);
	uvmemu_roi_end();

	/* The reference's inputs are the same values, computed again on the
	 * host: reading A, B and C here would move them. */
	ra = malloc(na * sizeof(float));
	rb = malloc(nb * sizeof(float));
	rc = malloc(nc * sizeof(float));
	if (!ra || !rb || !rc) {
		fprintf(stderr, "mgpu-sgemm: out of memory for the CPU reference\n");
		return 1;
	}
	mgpu_values(ra, (int64_t)na, mgpu_key(w.seed, ARRAY_A), MGPU_SIGNED);
	mgpu_values(rb, (int64_t)nb, mgpu_key(w.seed, ARRAY_B), MGPU_SIGNED);
	mgpu_values(rc, (int64_t)nc, mgpu_key(w.seed, ARRAY_C), MGPU_SIGNED);
	sgemm_reference(ra, rb, rc, &d, MGPU_SGEMM_ALPHA, MGPU_SGEMM_BETA);

	wl_log(&w, "sum of C = %.9g", wl_sum_f32(c, nc));
	pass = wl_check_f32_exact(&w, "C", c, rc, nc);
	wl_output_f32(&w, "C", c, nc);
	free(ra);
	free(rb);
	free(rc);
	wl_free(&w, a);
	wl_free(&w, b);
	wl_free(&w, c);
	return wl_finish(&w, pass);
}
