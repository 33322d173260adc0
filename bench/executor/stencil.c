// SPDX-License-Identifier: MIT
/*
 * stencil.c - shared memory and barriers, as hotspot: explicit heat diffusion
 * (a 5-point stencil with a source term) on a 512 x 512 grid whose
 * boundary is held at 0. Each CTA of 16 x 16 threads loads a tile into its
 * shared arrays and advances it ST_STEPS time steps there - a pyramid: after
 * each step the band of cells whose neighbours were exact shrinks by one on
 * every side - then writes the tile's inner (16 - 2 ST_STEPS)^2 cells. Every
 * step is a thread loop, a barrier, a copy loop and a barrier. A run is
 * ST_LAUNCHES launches, each reading the previous one's output.
 *
 * The plain-C variant runs the same per-thread code over the same tiles in the
 * same order, with ordinary loops over the same windows of the 16 x 16
 * threads; a global step-by-step sweep checks both at setup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define ST_N	     512 /* the grid is ST_N x ST_N */
#define ST_B	     16	 /* a CTA is ST_B x ST_B threads, one cell each */
#define ST_STEPS     2	 /* time steps per launch */
#define ST_INNER     (ST_B - 2 * ST_STEPS)
#define ST_LAUNCHES  4
#define ST_DIFFUSION 0.125f
#define ST_SOURCE    0.01f

struct stencil_args {
	const float *src, *power;
	float *dst;
	int rows, cols;
};

/* A CTA's shared arrays. */
struct st_tile {
	float t[ST_B][ST_B], next[ST_B][ST_B], p[ST_B][ST_B];
};

static inline float st_cell(float c, float n, float s, float e, float w, float p)
{
	return c + ST_DIFFUSION * (n + s + e + w - 4.0f * c) + ST_SOURCE * p;
}

/*
 * Which threads do what is the same for the whole CTA: a window of the tile,
 * [x0, x1) x [y0, y1) in tile coordinates. Each part of the kernel runs its
 * per-thread code, without checks, over its window - the emu-gpu side with
 * EMU_FOR_THREADS_IDX_IN, plain C with two loops - so that the loop over x
 * vectorizes on both sides (a check inside it would keep it scalar).
 */
struct st_window {
	int x0, x1, y0, y1;
};

static inline int st_max(int a, int b)
{
	return a > b ? a : b;
}

static inline int st_min(int a, int b)
{
	return a < b ? a : b;
}

/* The tile's cells inside the grid; (y0, x0) is the tile's first cell in the
 * grid. */
static inline struct st_window st_in_grid(const struct stencil_args *a, int y0, int x0)
{
	return (struct st_window){st_max(0, -x0), st_min(ST_B, a->cols - x0), st_max(0, -y0),
				  st_min(ST_B, a->rows - y0)};
}

/* ...and of those, the ones at least `margin` cells from the tile's edge. */
static inline struct st_window st_inner(const struct stencil_args *a, int y0, int x0, int margin)
{
	struct st_window g = st_in_grid(a, y0, x0);

	return (struct st_window){st_max(g.x0, margin), st_min(g.x1, ST_B - margin),
				  st_max(g.y0, margin), st_min(g.y1, ST_B - margin)};
}

/* Does the tile reach past the grid (cells held at 0)? */
static inline bool st_crosses_edge(const struct stencil_args *a, int y0, int x0)
{
	struct st_window g = st_in_grid(a, y0, x0);

	return g.x0 != 0 || g.x1 != ST_B || g.y0 != 0 || g.y1 != ST_B;
}

/* The per-thread parts of the kernel; (ty, tx) is the thread's cell in the
 * tile. Cells outside the grid are 0 (st_zero), those inside are loaded. */
static inline void st_zero(struct st_tile *s, int ty, int tx)
{
	s->t[ty][tx] = 0.0f;
}

static inline void st_load(struct st_tile *s, const struct stencil_args *a, int y0, int x0, int ty,
			   int tx)
{
	size_t i = (size_t)(y0 + ty) * (size_t)a->cols + (size_t)(x0 + tx);

	s->t[ty][tx] = a->src[i];
	s->p[ty][tx] = a->power[i];
}

/* Step `step` updates the cells of st_inner(step + 1): those whose
 * neighbours are still exact. */
static inline void st_step(struct st_tile *s, int ty, int tx)
{
	s->next[ty][tx] = st_cell(s->t[ty][tx], s->t[ty - 1][tx], s->t[ty + 1][tx],
				  s->t[ty][tx + 1], s->t[ty][tx - 1], s->p[ty][tx]);
}

static inline void st_copy(struct st_tile *s, int ty, int tx)
{
	s->t[ty][tx] = s->next[ty][tx];
}

/* The tile writes its inner cells, st_inner(ST_STEPS). */
static inline void st_store(const struct st_tile *s, const struct stencil_args *a, int y0, int x0,
			    int ty, int tx)
{
	a->dst[(size_t)(y0 + ty) * (size_t)a->cols + (size_t)(x0 + tx)] = s->t[ty][tx];
}

EMU_KERNEL_BLOCK(bench_stencil_kernel, struct stencil_args, ST_B, ST_B, 1)
{
	struct st_tile s;
	const int y0 = (int)blockIdx.y * ST_INNER - ST_STEPS;
	const int x0 = (int)blockIdx.x * ST_INNER - ST_STEPS;
	const struct st_window grid = st_in_grid(args, y0, x0);

	if (st_crosses_edge(args, y0, x0)) {
		EMU_FOR_THREADS {
			st_zero(&s, (int)threadIdx.y, (int)threadIdx.x);
		}
	}
	EMU_FOR_THREADS_IDX_IN(grid.x0, grid.x1, grid.y0, grid.y1) {
		st_load(&s, args, y0, x0, (int)threadIdx.y, (int)threadIdx.x);
	}
	__syncthreads();
	for (int step = 0; step < ST_STEPS; step++) {
		const struct st_window band = st_inner(args, y0, x0, step + 1);

		EMU_FOR_THREADS_IDX_IN(band.x0, band.x1, band.y0, band.y1) {
			st_step(&s, (int)threadIdx.y, (int)threadIdx.x);
		}
		__syncthreads();
		EMU_FOR_THREADS_IDX_IN(band.x0, band.x1, band.y0, band.y1) {
			st_copy(&s, (int)threadIdx.y, (int)threadIdx.x);
		}
		__syncthreads();
	}
	const struct st_window out = st_inner(args, y0, x0, ST_STEPS);

	EMU_FOR_THREADS_IDX_IN(out.x0, out.x1, out.y0, out.y1) {
		st_store(&s, args, y0, x0, (int)threadIdx.y, (int)threadIdx.x);
	}
}

/* The same CTA as plain C, the windows as loop bounds. */
static void st_tile_plain(const struct stencil_args *a, int by, int bx)
{
	struct st_tile s;
	const int y0 = by * ST_INNER - ST_STEPS, x0 = bx * ST_INNER - ST_STEPS;
	const struct st_window grid = st_in_grid(a, y0, x0);

	if (st_crosses_edge(a, y0, x0))
		for (int ty = 0; ty < ST_B; ty++)
			for (int tx = 0; tx < ST_B; tx++)
				st_zero(&s, ty, tx);
	for (int ty = grid.y0; ty < grid.y1; ty++)
		for (int tx = grid.x0; tx < grid.x1; tx++)
			st_load(&s, a, y0, x0, ty, tx);
	for (int step = 0; step < ST_STEPS; step++) {
		const struct st_window band = st_inner(a, y0, x0, step + 1);

		for (int ty = band.y0; ty < band.y1; ty++)
			for (int tx = band.x0; tx < band.x1; tx++)
				st_step(&s, ty, tx);
		for (int ty = band.y0; ty < band.y1; ty++)
			for (int tx = band.x0; tx < band.x1; tx++)
				st_copy(&s, ty, tx);
	}
	const struct st_window out = st_inner(a, y0, x0, ST_STEPS);

	for (int ty = out.y0; ty < out.y1; ty++)
		for (int tx = out.x0; tx < out.x1; tx++)
			st_store(&s, a, y0, x0, ty, tx);
}

struct stencil {
	float *in, *power, *buf[2], *ref;
	int n;
};

/* Launch l reads the input or the previous launch's output. */
static struct stencil_args st_launch_args(const struct stencil *st, unsigned l)
{
	return (struct stencil_args){.src = l == 0 ? st->in : st->buf[(l - 1) & 1],
				     .power = st->power,
				     .dst = st->buf[l & 1],
				     .rows = st->n,
				     .cols = st->n};
}

static const float *st_output(const struct stencil *st)
{
	return st->buf[(ST_LAUNCHES - 1) & 1];
}

static unsigned st_tiles(const struct stencil *st)
{
	return (unsigned)((st->n + ST_INNER - 1) / ST_INNER);
}

static void stencil_teardown(void *state)
{
	struct stencil *st = state;

	free(st->in);
	free(st->power);
	free(st->buf[0]);
	free(st->buf[1]);
	free(st->ref);
	free(st);
}

static void stencil_describe(const void *state, char *buf, size_t len)
{
	const struct stencil *st = state;

	snprintf(buf, len,
		 "5-point heat stencil on %d x %d floats, %d launches of %d steps, CTAs of %d x %d "
		 "threads with %zu bytes of shared arrays",
		 st->n, st->n, ST_LAUNCHES, ST_STEPS, ST_B, ST_B, sizeof(struct st_tile));
}

static cudaError_t stencil_emu(void *state)
{
	struct stencil *st = state;
	dim3 grid = emu_dim3(st_tiles(st), st_tiles(st), 1);

	for (unsigned l = 0; l < ST_LAUNCHES; l++) {
		struct stencil_args a = st_launch_args(st, l);
		cudaError_t e =
		    emu_launch(&bench_stencil_kernel, grid, emu_dim3(ST_B, ST_B, 1), 0, &a);

		if (e != cudaSuccess)
			return e;
	}
	return cudaDeviceSynchronize();
}

/* Phase l is launch l. */
static void stencil_plain(void *state, unsigned phase, unsigned part, unsigned nparts)
{
	struct stencil *st = state;
	struct stencil_args a = st_launch_args(st, phase);
	size_t g = st_tiles(st), lo, hi;

	bench_part(g * g, part, nparts, &lo, &hi);
	for (size_t cta = lo; cta < hi; cta++)
		st_tile_plain(&a, (int)(cta / g), (int)(cta % g));
}

static void stencil_clear(void *state)
{
	struct stencil *st = state;

	memset(st->buf[0], 0, (size_t)st->n * (size_t)st->n * sizeof(float));
	memset(st->buf[1], 0, (size_t)st->n * (size_t)st->n * sizeof(float));
}

static bool stencil_check(const void *state)
{
	const struct stencil *st = state;

	return bench_same_matrix(st_output(st), st->ref, (size_t)st->n, "stencil: cell");
}

/* The whole grid one step at a time, each cell as st_cell computes it. */
static void st_sweep(const struct stencil *st, float *cur, float *next)
{
	size_t n = (size_t)st->n;

	for (int t = 0; t < ST_LAUNCHES * ST_STEPS; t++) {
		for (size_t y = 0; y < n; y++)
			for (size_t x = 0; x < n; x++) {
				size_t i = y * n + x;

				next[i] = st_cell(cur[i], y > 0 ? cur[i - n] : 0.0f,
						  y + 1 < n ? cur[i + n] : 0.0f,
						  x + 1 < n ? cur[i + 1] : 0.0f,
						  x > 0 ? cur[i - 1] : 0.0f, st->power[i]);
			}
		memcpy(cur, next, n * n * sizeof(float));
	}
}

static int stencil_setup(void **state)
{
	struct stencil *st = calloc(1, sizeof(*st));
	size_t cells = (size_t)ST_N * ST_N, bytes = cells * sizeof(float);
	float *cur = NULL, *next = NULL;
	int err = -ENOMEM;

	if (!st)
		return err;
	st->n = ST_N;
	st->in = malloc(bytes);
	st->power = malloc(bytes);
	st->buf[0] = calloc(1, bytes);
	st->buf[1] = calloc(1, bytes);
	st->ref = malloc(bytes);
	cur = malloc(bytes);
	next = malloc(bytes);
	if (!st->in || !st->power || !st->buf[0] || !st->buf[1] || !st->ref || !cur || !next)
		goto err;
	for (size_t i = 0; i < cells; i++) {
		st->in[i] = 300.0f + (float)(i % 61) * 0.5f;
		st->power[i] = (float)(i % 13) * 0.1f;
	}
	for (unsigned l = 0; l < ST_LAUNCHES; l++)
		stencil_plain(st, l, 0, 1);
	memcpy(st->ref, st_output(st), bytes);
	memcpy(cur, st->in, bytes);
	st_sweep(st, cur, next);
	err = -EINVAL;
	if (memcmp(cur, st->ref, bytes) != 0) {
		fprintf(stderr,
			"bench-executor: stencil: the tiled sweep differs from the global one\n");
		goto err;
	}
	free(cur);
	free(next);
	*state = st;
	return 0;

err:
	free(cur);
	free(next);
	stencil_teardown(st);
	return err;
}

const struct bench_kernel bench_stencil = {
    .name = "stencil",
    .kind = "shared memory and barriers",
    .phases = ST_LAUNCHES,
    .setup = stencil_setup,
    .describe = stencil_describe,
    .emu = stencil_emu,
    .plain = stencil_plain,
    .clear = stencil_clear,
    .check = stencil_check,
    .teardown = stencil_teardown,
};
