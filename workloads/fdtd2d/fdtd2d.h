/* SPDX-License-Identifier: MIT */
/*
 * fdtd2d.h - PolyBench/GPU fdtd2d: 2-D finite-difference time-domain
 * simulation of an electromagnetic field. Per time step the ey, ex and hz
 * fields are updated by three kernels in turn. The field updates are shared
 * by kernels and CPU reference, so that both do the same float operations in
 * the same order.
 */
#ifndef FDTD2D_H
#define FDTD2D_H

#include <stddef.h>
#include <stdint.h>

#include "wl.h"

/* CTA shape of PolyBench/GPU: 32 x 8 threads. */
#define FDTD_BLOCK_X 32
#define FDTD_BLOCK_Y 8

/*
 * The fields, managed: ex is nx x (ny + 1), ey is (nx + 1) x ny, hz is
 * nx x ny (row-major, the original's layout); fict holds the source value of
 * each time step, which drives row 0 of ey.
 */
struct fdtd_fields {
	float *fict, *ex, *ey, *hz;
	int nx, ny, tmax;
};

static inline size_t fdtd_ex_len(int nx, int ny)
{
	return (size_t)nx * (size_t)(ny + 1);
}

static inline size_t fdtd_ey_len(int nx, int ny)
{
	return (size_t)(nx + 1) * (size_t)ny;
}

static inline size_t fdtd_hz_len(int nx, int ny)
{
	return (size_t)nx * (size_t)ny;
}

/* ey from the vertical difference of hz. */
static inline float fdtd_ey(float ey, float hz, float hz_up)
{
	return ey - 0.5f * (hz - hz_up);
}

/* ex from the horizontal difference of hz. */
static inline float fdtd_ex(float ex, float hz, float hz_left)
{
	return ex - 0.5f * (hz - hz_left);
}

/* hz from the curl of (ex, ey). */
static inline float fdtd_hz(float hz, float ex, float ex_right, float ey, float ey_down)
{
	return hz - 0.7f * (ex_right - ex + ey_down - ey);
}

/* fict[t] = t as in the original; ex, ey, hz uniform in [0, 1) from the seed. */
void fdtd_generate(uint64_t seed, const struct fdtd_fields *f);

/* The time steps on the device: per step the ey, ex and hz kernels. */
void fdtd_run_gpu(const struct wl *w, const struct fdtd_fields *f);

/* The same on the CPU, on the fields `f` (host copies). */
void fdtd_reference(const struct fdtd_fields *f);

#endif
