// SPDX-License-Identifier: MIT
/*
 * main.c - 2dconv (PolyBench/GPU 2DCONV): a 3 x 3 stencil from A into B in
 * one launch. B's interior is checked bit for bit against a CPU reference
 * doing the same float operations; its edge is never written (as in the
 * original), so it is not compared.
 */
#include "conv2d.h"

#include <math.h>
#include <stdlib.h>

/* PolyBench/GPU's size. */
#define CONV2D_DEFAULT_N 4096

struct conv2d_opts {
	long long ni, nj;
};

static void choose_size(const struct wl *w, struct conv2d_opts *o)
{
	if (w->footprint && (o->ni || o->nj))
		wl_usage_error(w, "--footprint sizes the matrices: it excludes --ni and --nj");
	if (w->footprint) {
		/* Two square matrices: 8 n^2 bytes. */
		long long n = llround(sqrt((double)w->footprint / (2 * sizeof(float))));

		if (n < 3)
			wl_usage_error(w, "--footprint %llu is below the smallest matrices (3 x 3)",
				       (unsigned long long)w->footprint);
		o->ni = o->nj = n;
	}
	if (!o->ni)
		o->ni = o->nj ? o->nj : CONV2D_DEFAULT_N;
	if (!o->nj)
		o->nj = o->ni;
	if (o->ni * o->nj > (1ll << 31) - 1)
		wl_usage_error(w, "matrix %lld x %lld has more than 2^31 - 1 elements", o->ni,
			       o->nj);
}

/* B's interior packed row after row, to compare with the reference. */
static void pack_interior(const float *b, float *out, int ni, int nj)
{
	for (size_t i = 1; i + 1 < (size_t)ni; i++)
		for (size_t j = 1; j + 1 < (size_t)nj; j++)
			*out++ = b[i * (size_t)nj + j];
}

int main(int argc, char **argv)
{
	struct conv2d_opts o = {0};
	const struct wl_opt opts[] = {
	    {"ni", WL_INT, &o.ni, 3, 1 << 20, "rows (default 4096)"},
	    {"nj", WL_INT, &o.nj, 3, 1 << 20, "columns (default: --ni)"},
	    {0},
	};
	float *a, *b, *ref, *got;
	struct wl w;
	size_t n, inner;
	int ni, nj;
	bool pass;

	wl_init(&w, "2dconv", "PolyBench/GPU 2DCONV: 3 x 3 convolution", argc, argv, opts);
	choose_size(&w, &o);
	ni = (int)o.ni;
	nj = (int)o.nj;
	n = (size_t)ni * (size_t)nj;
	inner = (size_t)(ni - 2) * (size_t)(nj - 2);
	a = wl_managed(&w, n * sizeof(float), "A");
	b = wl_managed(&w, n * sizeof(float), "B");
	wl_footprint(&w, 2 * n * sizeof(float));
	uvmemu_report_value("ni", ni);
	uvmemu_report_value("nj", nj);
	wl_log(&w, "matrices %d x %d: 1 launch", ni, nj);

	conv2d_generate(w.seed, a, n);
	/* The reference runs first, while A is still where the CPU wrote it,
	 * so that it adds no traffic of its own. */
	ref = malloc(inner * sizeof(float));
	got = malloc(inner * sizeof(float));
	if (!ref || !got) {
		fprintf(stderr, "2dconv: out of memory for the CPU reference\n");
		return 1;
	}
	conv2d_reference(a, ref, ni, nj);

	uvmemu_roi_begin();
	conv2d_run_gpu(&w, a, b, ni, nj);
	uvmemu_roi_end();

	pack_interior(b, got, ni, nj);
	pass = wl_check_f32_exact(&w, "B interior", got, ref, inner);
	/* The kernel writes no border cell: the interior, row by row, is the
	 * result (got is packed from the GPU's B). */
	wl_output_f32(&w, "B_interior", got, inner);
	free(ref);
	free(got);
	WL_CHECK(&w, cudaFree(a));
	WL_CHECK(&w, cudaFree(b));
	return wl_finish(&w, pass);
}
