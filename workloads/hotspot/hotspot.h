/* SPDX-License-Identifier: MIT */
/*
 * hotspot.h - Rodinia hotspot: a 5-point thermal stencil over a chip's
 * temperature grid, heated by a power grid. Declarations shared by the
 * generator, the file reader, the kernel and the CPU reference.
 */
#ifndef HOTSPOT_H
#define HOTSPOT_H

#include <stdbool.h>
#include <stddef.h>

#include "emugpu.h"
#include "wl.h"

/* CTA edge: the original's BLOCK_SIZE, 16 x 16 threads per CTA. */
#define HS_BLOCK 16
/* The ambient temperature the kernel pulls every cell towards (kelvin). */
#define HS_AMB_TEMP 80.0f

/* Thermal constants of one grid cell, derived on the host from the grid size. */
struct hs_params {
	float cap, rx, ry, rz, step;
};

void hs_params_init(struct hs_params *p, int rows, int cols);

/*
 * One time step of one cell: `c` the cell, n/s/e/w its neighbours (the cell
 * itself across the chip edge), `p` its power. The original writes 2.0 as a
 * double constant, so the neighbour terms are summed in double; kernel and
 * reference both call this, so they do the same operations in the same order.
 */
EMU_HOST_DEVICE static inline float hs_cell(float c, float n, float s, float e, float w, float p,
					    float step_div_cap, float rx_1, float ry_1, float rz_1)
{
	return (float)(c + step_div_cap * (p + (s + n - 2.0 * c) * ry_1 + (e + w - 2.0 * c) * rx_1 +
					   (HS_AMB_TEMP - c) * rz_1));
}

/* Reciprocals the kernel computes per thread from the parameters. */
struct hs_coef {
	float step_div_cap, rx_1, ry_1, rz_1;
};

EMU_HOST_DEVICE static inline struct hs_coef hs_coef_of(const struct hs_params *p)
{
	struct hs_coef k = {p->step / p->cap, 1 / p->rx, 1 / p->ry, 1 / p->rz};

	return k;
}

struct calculate_temp_args {
	const float *power;
	const float *temp_src;
	float *temp_dst;
	int iteration; /* time steps in this launch (<= the pyramid height) */
	int grid_cols, grid_rows;
	int border_cols, border_rows;
	struct hs_params p;
};

/* `iteration` time steps of the grid, a 16 x 16 tile per CTA (kernel.c). */
EMU_KERNEL_DECLARE(calculate_temp, struct calculate_temp_args);

/* Synthetic floorplan: power units on a quiet background, and the start
 * temperature raised over them (input.c). */
void hs_generate(uint64_t seed, int rows, int cols, float *temp, float *power);

/*
 * Reads an ASCII grid (one number per line, Rodinia's format) into a new
 * malloc'd array of *count values; `expect` is the number the grid needs, or
 * 0 to take what the file has. On a malformed file, or one with another
 * number of values, prints "hotspot: FILE:LINE: reason" and exits 2.
 */
float *hs_read_grid(const struct wl *w, const char *path, size_t expect, size_t *count);

/*
 * run.c: runs `iterations` time steps on the device, `pyramid` steps per
 * launch; temp[0] holds the start temperature. Returns the index (0 or 1) of
 * the buffer holding the result, which is then on the host (--mem).
 */
int hs_run_gpu(const struct wl *w, float *temp[2], const float *power, int rows, int cols,
	       int iterations, int pyramid, const struct hs_params *p);

/* The same time steps, one at a time on the CPU: `temp` (the start
 * temperature) is overwritten with the result; `scratch` is a second grid. */
void hs_reference(float *temp, float *scratch, const float *power, int rows, int cols,
		  int iterations, const struct hs_params *p);

#endif
