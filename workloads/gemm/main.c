// SPDX-License-Identifier: MIT
/*
 * main.c - gemm (PolyBench/GPU): options and matrix sizes, then generate,
 * compute the CPU reference, run the kernel (the region of interest) and
 * check C bit for bit.
 */
#include "gemm.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define GEMM_DEFAULT_N 512 /* PolyBench/GPU's NI = NJ = NK */
#define GEMM_MAX_DIM   (1 << 20)
/* The original indexes with int: every matrix stays within 2^31 - 1 elements. */
#define GEMM_MAX_ELEMS ((long long)INT32_MAX)

struct gemm_opts {
	long long ni, nj, nk;
};

static void choose_size(const struct wl *w, struct gemm_opts *o)
{
	if (w->footprint && (o->ni || o->nj || o->nk))
		wl_usage_error(w,
			       "--footprint sizes the matrices: it excludes --ni, --nj and --nk");
	if (w->footprint) {
		/* Three square matrices, as the original's: 12 n^2 bytes. */
		/* Rounded down, so that a request below one element is an error. */
		long long n = (long long)floor(sqrt((double)w->footprint / (3 * sizeof(float))));

		if (n < 1 || n > 46340)
			wl_usage_error(w,
				       "--footprint %" PRIu64 ": outside gemm's range (12 bytes to "
				       "%" PRIu64 " bytes)",
				       w->footprint, gemm_footprint_bytes(46340, 46340, 46340));
		o->ni = o->nj = o->nk = n;
	}
	if (!o->ni)
		o->ni = GEMM_DEFAULT_N;
	if (!o->nj)
		o->nj = GEMM_DEFAULT_N;
	if (!o->nk)
		o->nk = GEMM_DEFAULT_N;
	if (o->ni * o->nk > GEMM_MAX_ELEMS || o->nk * o->nj > GEMM_MAX_ELEMS ||
	    o->ni * o->nj > GEMM_MAX_ELEMS)
		wl_usage_error(w,
			       "--ni %lld --nj %lld --nk %lld: a matrix would have more than %lld "
			       "elements",
			       o->ni, o->nj, o->nk, GEMM_MAX_ELEMS);
}

int main(int argc, char **argv)
{
	struct gemm_opts o = {0};
	const struct wl_opt opts[] = {
	    {"ni", WL_INT, &o.ni, 1, GEMM_MAX_DIM, "rows of A and C (default 512)"},
	    {"nj", WL_INT, &o.nj, 1, GEMM_MAX_DIM, "columns of B and C (default 512)"},
	    {"nk", WL_INT, &o.nk, 1, GEMM_MAX_DIM, "columns of A, rows of B (default 512)"},
	    {0},
	};
	struct gemm_problem p;
	struct wl w;
	size_t nc;
	float *ref;
	bool pass;

	wl_init(&w, "gemm", "PolyBench/GPU gemm: C = alpha A B + beta C", argc, argv, opts);
	choose_size(&w, &o);
	p.ni = (int)o.ni;
	p.nj = (int)o.nj;
	p.nk = (int)o.nk;
	nc = (size_t)p.ni * (size_t)p.nj;
	p.A = wl_managed(&w, (size_t)p.ni * (size_t)p.nk * sizeof(float), "A");
	p.B = wl_managed(&w, (size_t)p.nk * (size_t)p.nj * sizeof(float), "B");
	p.C = wl_managed(&w, nc * sizeof(float), "C");
	wl_footprint(&w, gemm_footprint_bytes(p.ni, p.nj, p.nk));
	uvmemu_report_value("ni", p.ni);
	uvmemu_report_value("nj", p.nj);
	uvmemu_report_value("nk", p.nk);
	wl_log(&w, "ni %d, nj %d, nk %d: 1 launch of %d x %d CTAs of %d x %d threads", p.ni, p.nj,
	       p.nk, (p.nj + GEMM_BLOCK_X - 1) / GEMM_BLOCK_X,
	       (p.ni + GEMM_BLOCK_Y - 1) / GEMM_BLOCK_Y, GEMM_BLOCK_X, GEMM_BLOCK_Y);

	gemm_generate(&p, w.seed);
	/* The reference runs first, while the inputs are still where the CPU
	 * wrote them, so that it adds no traffic of its own. */
	ref = malloc(nc * sizeof(float));
	if (!ref) {
		fprintf(stderr, "gemm: out of memory for the CPU reference\n");
		return 1;
	}
	gemm_reference(&p, ref);

	uvmemu_roi_begin();
	WL_CHECK(&w, gemm_gpu(&p));
	uvmemu_roi_end();

	printf("gemm: checksum of C %.9g\n", wl_sum_f32(p.C, nc));
	pass = wl_check_f32_exact(&w, "C", p.C, ref, nc);
	wl_output_f32(&w, "C", p.C, nc);
	free(ref);
	WL_CHECK(&w, cudaFree(p.A));
	WL_CHECK(&w, cudaFree(p.B));
	WL_CHECK(&w, cudaFree(p.C));
	return wl_finish(&w, pass);
}
