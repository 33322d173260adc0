// SPDX-License-Identifier: MIT
/*
 * main.c - 3dconv (PolyBench/GPU 3DCONV): a stencil from A into B, one
 * launch per interior i-plane. B's interior is checked bit for bit against a
 * CPU reference doing the same float operations; its edge is never written
 * (as in the original), so it is not compared.
 */
#include "conv3d.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

/* PolyBench/GPU's size. */
#define CONV3D_DEFAULT_N 256
#define CONV3D_MAX_DIM	 (1 << 16)

struct conv3d_opts {
	long long ni, nj, nk;
};

static void choose_size(const struct wl *w, struct conv3d_opts *o)
{
	if (w->footprint && (o->ni || o->nj || o->nk))
		wl_usage_error(w, "--footprint sizes the volume: it excludes --ni, --nj and --nk");
	if (w->footprint) {
		/* Two cubes: 8 n^3 bytes. */
		long long n = llround(cbrt((double)w->footprint / (2 * sizeof(float))));

		if (n < 3 || n > 1290)
			wl_usage_error(w,
				       "--footprint %" PRIu64 ": outside 3dconv's range (3 x 3 x 3 "
				       "to 1290 x 1290 x 1290, 216 bytes to 16 GiB)",
				       w->footprint);
		o->ni = o->nj = o->nk = n;
	}
	if (!o->ni)
		o->ni = CONV3D_DEFAULT_N;
	if (!o->nj)
		o->nj = CONV3D_DEFAULT_N;
	if (!o->nk)
		o->nk = CONV3D_DEFAULT_N;
	/* The original indexes with int. */
	if (o->ni * o->nj * o->nk > (1ll << 31) - 1)
		wl_usage_error(w,
			       "--ni %lld --nj %lld --nk %lld: the volume has more than 2^31 - 1 "
			       "elements",
			       o->ni, o->nj, o->nk);
}

int main(int argc, char **argv)
{
	struct conv3d_opts o = {0};
	const struct wl_opt opts[] = {
	    {"ni", WL_INT, &o.ni, 3, CONV3D_MAX_DIM, "planes (default 256; one launch per plane)"},
	    {"nj", WL_INT, &o.nj, 3, CONV3D_MAX_DIM, "rows of a plane (default 256)"},
	    {"nk", WL_INT, &o.nk, 3, CONV3D_MAX_DIM, "columns of a plane (default 256)"},
	    {0},
	};
	float *a, *b, *ref, *got;
	struct wl w;
	size_t n, inner;
	int ni, nj, nk;
	bool pass;

	wl_init(&w, "3dconv", "PolyBench/GPU 3DCONV: 3-D convolution, one launch per plane", argc,
		argv, opts);
	choose_size(&w, &o);
	ni = (int)o.ni;
	nj = (int)o.nj;
	nk = (int)o.nk;
	n = (size_t)ni * (size_t)nj * (size_t)nk;
	inner = (size_t)(ni - 2) * (size_t)(nj - 2) * (size_t)(nk - 2);
	a = wl_managed(&w, n * sizeof(float), "A");
	b = wl_managed(&w, n * sizeof(float), "B");
	wl_footprint(&w, 2 * n * sizeof(float));
	uvmemu_report_value("ni", ni);
	uvmemu_report_value("nj", nj);
	uvmemu_report_value("nk", nk);
	wl_log(&w, "volume %d x %d x %d: %d launches", ni, nj, nk, ni - 2);

	conv3d_generate(w.seed, a, n);
	/* The reference runs first, while A is still where the CPU wrote it,
	 * so that it adds no traffic of its own. */
	ref = malloc(inner * sizeof(float));
	got = malloc(inner * sizeof(float));
	if (!ref || !got) {
		fprintf(stderr, "3dconv: out of memory for the CPU reference\n");
		return 1;
	}
	conv3d_reference(a, ref, ni, nj, nk);

	uvmemu_roi_begin();
	conv3d_run_gpu(&w, a, b, ni, nj, nk);
	uvmemu_roi_end();

	conv3d_pack_interior(b, got, ni, nj, nk);
	printf("3dconv: checksum of B's interior %.9g\n", wl_sum_f32(got, inner));
	pass = wl_check_f32_exact(&w, "B interior", got, ref, inner);
	wl_output_f32(&w, "B_interior", got, inner);
	free(ref);
	free(got);
	WL_CHECK(&w, cudaFree(a));
	WL_CHECK(&w, cudaFree(b));
	return wl_finish(&w, pass);
}
