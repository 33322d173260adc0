/* SPDX-License-Identifier: MIT */
/*
 * pathfinder.h - Rodinia pathfinder: dynamic programming down a grid of wall
 * costs. Each step, a column's cost is its wall cost plus the smallest of the
 * three costs above it (left, same, right); the first row is the start.
 */
#ifndef PATHFINDER_H
#define PATHFINDER_H

#include <stdint.h>

#include "wl.h"

/* CTA size: the original's BLOCK_SIZE, 256 threads in one dimension. */
#define PF_BLOCK 256
/* Columns a CTA's valid band shrinks by on each side per step. */
#define PF_HALO 1

static inline int pf_min(int a, int b)
{
	return a <= b ? a : b;
}

/* Costs 0..9, uniform, from the seed: the first row (cols ints), then the
 * wall below it ((rows - 1) x cols ints, row after row). */
void pf_generate(uint64_t seed, int *first, int *wall, int rows, int cols);

/*
 * Runs the rows - 1 steps on the device, `pyramid` per launch. `result[0]`
 * holds the first row; `wall` the remaining rows - 1 rows. Returns the index
 * of the buffer holding the last row's costs.
 */
int pf_run_gpu(const struct wl *w, const int *wall, int *result[2], int rows, int cols,
	       int pyramid);

/* The same on the CPU: `row` holds the first row and is overwritten with the
 * last; `scratch` is a second row. */
void pf_reference(const int *wall, int *row, int *scratch, int rows, int cols);

#endif
