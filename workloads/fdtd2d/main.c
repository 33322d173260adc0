// SPDX-License-Identifier: MIT
/*
 * main.c - fdtd2d (PolyBench/GPU): 2-D FDTD with three kernels per time
 * step. The three fields are checked bit for bit against a CPU reference
 * doing the same float operations.
 */
#include "fdtd2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* PolyBench/GPU's size is 2048 x 2048 with 500 time steps; 500 steps take
 * minutes on a CPU (and far longer emulated), so the default is 20. */
#define FDTD_DEFAULT_N	  2048
#define FDTD_DEFAULT_TMAX 20

struct fdtd_opts {
	long long nx, ny, tmax;
};

static uint64_t fdtd_bytes(long long nx, long long ny, long long tmax)
{
	return sizeof(float) * ((uint64_t)tmax + fdtd_ex_len((int)nx, (int)ny) +
				fdtd_ey_len((int)nx, (int)ny) + fdtd_hz_len((int)nx, (int)ny));
}

static void choose_size(const struct wl *w, struct fdtd_opts *o)
{
	if (w->footprint && (o->nx || o->ny))
		wl_usage_error(w, "--footprint sizes the grid: it excludes --nx and --ny");
	if (w->footprint) {
		/* A square grid: the footprint is 4 (tmax + 3 n^2 + 2 n) bytes. */
		double cells = (double)w->footprint / sizeof(float) - (double)o->tmax;
		long long n = cells > 0 ? llround((-2 + sqrt(4 + 12 * cells)) / 6) : 0;

		if (n < 2)
			wl_usage_error(w, "--footprint %llu is below the smallest grid (2 x 2)",
				       (unsigned long long)w->footprint);
		o->nx = o->ny = n;
	}
	if (!o->nx)
		o->nx = o->ny ? o->ny : FDTD_DEFAULT_N;
	if (!o->ny)
		o->ny = o->nx;
	if ((o->nx + 1) * (o->ny + 1) > (1ll << 31) - 1)
		wl_usage_error(w, "grid %lld x %lld has more than 2^31 - 1 cells", o->nx, o->ny);
}

/* A host copy of a managed array, for the reference. */
static float *copy_of(const float *a, size_t n)
{
	float *c = malloc(n * sizeof(float));

	if (!c) {
		fprintf(stderr, "fdtd2d: out of memory for the CPU reference\n");
		exit(1);
	}
	return memcpy(c, a, n * sizeof(float));
}

int main(int argc, char **argv)
{
	struct fdtd_opts o = {.tmax = FDTD_DEFAULT_TMAX};
	const struct wl_opt opts[] = {
	    {"nx", WL_INT, &o.nx, 2, 1 << 20, "rows (i) of the grid (default 2048)"},
	    {"ny", WL_INT, &o.ny, 2, 1 << 20, "columns (j) of the grid (default: --nx)"},
	    {"tmax", WL_INT, &o.tmax, 1, 1 << 20,
	     "time steps, 3 launches each (default 20; the original runs 500)"},
	    {0},
	};
	struct fdtd_fields f, ref;
	struct wl w;
	size_t ex_n, ey_n, hz_n;
	bool pass;

	wl_init(&w, "fdtd2d", "PolyBench/GPU fdtd2d: 2-D finite-difference time domain", argc, argv,
		opts);
	choose_size(&w, &o);
	f.nx = (int)o.nx;
	f.ny = (int)o.ny;
	f.tmax = (int)o.tmax;
	ex_n = fdtd_ex_len(f.nx, f.ny);
	ey_n = fdtd_ey_len(f.nx, f.ny);
	hz_n = fdtd_hz_len(f.nx, f.ny);
	f.fict = wl_managed(&w, (size_t)f.tmax * sizeof(float), "_fict_");
	f.ex = wl_managed(&w, ex_n * sizeof(float), "ex");
	f.ey = wl_managed(&w, ey_n * sizeof(float), "ey");
	f.hz = wl_managed(&w, hz_n * sizeof(float), "hz");
	wl_footprint(&w, fdtd_bytes(f.nx, f.ny, f.tmax));
	uvmemu_report_value("nx", f.nx);
	uvmemu_report_value("ny", f.ny);
	uvmemu_report_value("tmax", f.tmax);
	wl_log(&w, "grid %d x %d, %d time steps: %d launches", f.nx, f.ny, f.tmax, 3 * f.tmax);

	fdtd_generate(w.seed, &f);
	/* The reference runs on copies first, while the inputs are still
	 * where the CPU wrote them, so that it adds no traffic of its own. */
	ref = f;
	ref.fict = copy_of(f.fict, (size_t)f.tmax);
	ref.ex = copy_of(f.ex, ex_n);
	ref.ey = copy_of(f.ey, ey_n);
	ref.hz = copy_of(f.hz, hz_n);
	fdtd_reference(&ref);

	uvmemu_roi_begin();
	fdtd_run_gpu(&w, &f);
	uvmemu_roi_end();

	pass = wl_check_f32_exact(&w, "ex", f.ex, ref.ex, ex_n);
	pass = wl_check_f32_exact(&w, "ey", f.ey, ref.ey, ey_n) && pass;
	pass = wl_check_f32_exact(&w, "hz", f.hz, ref.hz, hz_n) && pass;
	wl_output_f32(&w, "ex", f.ex, ex_n);
	wl_output_f32(&w, "ey", f.ey, ey_n);
	wl_output_f32(&w, "hz", f.hz, hz_n);
	free(ref.fict);
	free(ref.ex);
	free(ref.ey);
	free(ref.hz);
	WL_CHECK(&w, cudaFree(f.fict));
	WL_CHECK(&w, cudaFree(f.ex));
	WL_CHECK(&w, cudaFree(f.ey));
	WL_CHECK(&w, cudaFree(f.hz));
	return wl_finish(&w, pass);
}
