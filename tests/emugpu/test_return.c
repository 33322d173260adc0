// SPDX-License-Identifier: MIT
/*
 * Description: a thread that ends early in a thread loop (EMU_RETURN, or
 * `continue` inside a switch, or `break`) skips only the rest of that loop's
 * body: the other threads of the loop still run, and after the barrier every
 * thread runs the next loop. Kernels whose threads leave at different points
 * - out of range in a partial last CTA, on a data-dependent condition before
 * a shared-memory write, inside a switch - compute exactly what a CPU
 * reference with the same rules computes, for 1-D and 3-D CTAs. A thread
 * loop cut to a window of global indices (EMU_FOR_THREADS_IN, _BELOW) runs
 * the threads inside it only, between barriers and thread loops that run
 * every thread, with early returns inside the window, for windows that cut
 * CTAs, start before the grid, reach past it or are empty. A loop cut to a
 * window of threadIdx (EMU_FOR_THREADS_IDX_IN) runs exactly the threads of
 * the CTA inside it, for windows inside the block, past it and empty.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "emugpu.h"

#define UNSET (-7) /* what out[] holds where no thread wrote */

struct early_args {
	const int *in;
	long long *out;
	unsigned n;
};

static unsigned global_id(EMU_DEVICE_PARAMS, dim3 t)
{
	unsigned cta = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;

	return cta * emu_cta_->nthreads + (t.z * blockDim.y + t.y) * blockDim.x + t.x;
}

/*
 * Loop 1: out-of-range threads leave; a thread whose value is a multiple of 3
 * leaves before writing its shared slot. Loop 2 (after the barrier): each
 * thread reads its left neighbour's slot, which needs loop 1 finished for
 * every thread of the CTA; out-of-range threads leave, a value that is a
 * multiple of 5 leaves with `break` and one that is a multiple of 4 from
 * inside a switch.
 */
EMU_KERNEL(early, struct early_args)
{
	int *sh = emu_shared(int);
	EMU_PER_THREAD(int, v);

	EMU_FOR_THREADS {
		unsigned i = global_id(EMU_DEVICE_ARGS, threadIdx);

		v[emu_tid] = -1;
		sh[emu_tid] = 0;
		if (i >= args->n)
			EMU_RETURN;
		v[emu_tid] = args->in[i];
		if (v[emu_tid] % 3 == 0)
			EMU_RETURN;
		sh[emu_tid] = v[emu_tid];
	}
	__syncthreads();
	EMU_FOR_THREADS {
		unsigned i = global_id(EMU_DEVICE_ARGS, threadIdx), nt = emu_cta_->nthreads;
		int left = sh[(emu_tid + nt - 1) % nt];

		if (i >= args->n)
			EMU_RETURN;
		if (v[emu_tid] % 5 == 0)
			break;
		switch (v[emu_tid] % 4) {
		case 0:
			EMU_RETURN;
		default:
			break;
		}
		args->out[i] = (long long)v[emu_tid] * 1000 + left;
	}
}

/* The same rules, one CTA at a time. */
static void reference(const int *in, long long *out, unsigned n, unsigned nthreads)
{
	int *sh = malloc(nthreads * sizeof(*sh));

	assert_non_null(sh);
	for (unsigned base = 0; base < n; base += nthreads) {
		for (unsigned t = 0; t < nthreads; t++)
			sh[t] = base + t < n && in[base + t] % 3 != 0 ? in[base + t] : 0;
		for (unsigned t = 0; t < nthreads && base + t < n; t++)
			if (in[base + t] % 5 != 0 && in[base + t] % 4 != 0)
				out[base + t] = (long long)in[base + t] * 1000 +
						sh[(t + nthreads - 1) % nthreads];
	}
	free(sh);
}

static void check(dim3 grid, dim3 block, unsigned n)
{
	unsigned nthreads = block.x * block.y * block.z;
	size_t total = (size_t)grid.x * grid.y * grid.z * nthreads;
	int *in = malloc(n * sizeof(*in));
	long long *out = malloc(total * sizeof(*out)), *want = malloc(total * sizeof(*want));

	assert_true(in && out && want && n <= total);
	for (unsigned i = 0; i < n; i++)
		in[i] = (int)((i * 2654435761u) >> 20) + 1;
	for (size_t i = 0; i < total; i++)
		out[i] = want[i] = UNSET;
	reference(in, want, n, nthreads);
	assert_int_equal(EMU_LAUNCH(early, grid, block, nthreads * sizeof(int), in, out, n),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	for (size_t i = 0; i < total; i++)
		assert_int_equal(out[i], want[i]);
	free(in);
	free(out);
	free(want);
}

static void test_return_1d(void **state)
{
	/* 40 CTAs of 256; the last has 100 threads in range. */
	check(emu_dim3(40, 1, 1), emu_dim3(256, 1, 1), 39 * 256 + 100);
}

static void test_return_3d(void **state)
{
	/* CTAs of 8 x 4 x 3 in a 3-D grid; the last CTA is partial. */
	check(emu_dim3(5, 3, 2), emu_dim3(8, 4, 3), 29 * 96 + 37);
}

/*
 * A 2-D grid of 3-D CTAs over a W x H x Z array (x, y global; z the thread's
 * z). sh[] starts at -1 for every thread; threads inside the window whose
 * input is not a multiple of 3 store it; after the barrier every thread
 * writes its value and its right neighbour's in the CTA. Then the threads
 * below `below` (in x) add 1 to their outputs.
 */
#define WIN_W 40
#define WIN_H 12
#define WIN_Z 2

struct window_args {
	const int *in;
	long long *out;
	int64_t x_lo, x_hi, y_lo, y_hi, below;
	int64_t tx_lo, tx_hi, ty_lo, ty_hi; /* a window of threadIdx */
};

static size_t win_index(size_t x, size_t y, size_t z)
{
	return (z * WIN_H + y) * WIN_W + x;
}

EMU_KERNEL(window, struct window_args)
{
	int *sh = emu_shared(int);

	EMU_FOR_THREADS {
		sh[emu_tid] = -1;
	}
	__syncthreads();
	EMU_FOR_THREADS_IN(args->x_lo, args->x_hi, args->y_lo, args->y_hi) {
		size_t x = blockIdx.x * blockDim.x + threadIdx.x;
		size_t y = blockIdx.y * blockDim.y + threadIdx.y;
		int v = args->in[win_index(x, y, threadIdx.z)];

		if (v % 3 == 0)
			EMU_RETURN;
		sh[emu_tid] = v;
	}
	__syncthreads();
	EMU_FOR_THREADS {
		size_t x = blockIdx.x * blockDim.x + threadIdx.x;
		size_t y = blockIdx.y * blockDim.y + threadIdx.y;

		args->out[win_index(x, y, threadIdx.z)] =
		    (long long)sh[emu_tid] * 1000 + sh[(emu_tid + 1) % emu_cta_->nthreads];
	}
	__syncthreads();
	EMU_FOR_THREADS_BELOW(args->below) {
		size_t x = blockIdx.x * blockDim.x + threadIdx.x;
		size_t y = blockIdx.y * blockDim.y + threadIdx.y;

		args->out[win_index(x, y, threadIdx.z)] += 1;
	}
	__syncthreads();
	EMU_FOR_THREADS_IDX_IN(args->tx_lo, args->tx_hi, args->ty_lo, args->ty_hi) {
		size_t x = blockIdx.x * blockDim.x + threadIdx.x;
		size_t y = blockIdx.y * blockDim.y + threadIdx.y;

		args->out[win_index(x, y, threadIdx.z)] += 10;
	}
}

static bool in_window(const struct window_args *a, int64_t x, int64_t y)
{
	return x >= a->x_lo && x < a->x_hi && y >= a->y_lo && y < a->y_hi;
}

static void check_window_idx(int64_t x_lo, int64_t x_hi, int64_t y_lo, int64_t y_hi, int64_t below,
			     const int64_t idx[4])
{
	const dim3 block = {8, 4, WIN_Z}, grid = {WIN_W / 8, WIN_H / 4, 1};
	const unsigned nt = block.x * block.y * block.z;
	static int in[WIN_W * WIN_H * WIN_Z];
	static long long out[WIN_W * WIN_H * WIN_Z];
	struct window_args a = {in,    out,    x_lo,   x_hi,   y_lo,  y_hi,
				below, idx[0], idx[1], idx[2], idx[3]};
	int sh[8 * 4 * WIN_Z];

	for (size_t i = 0; i < WIN_W * WIN_H * WIN_Z; i++) {
		in[i] = (int)((i * 2654435761u) >> 22) + 1;
		out[i] = UNSET;
	}
	assert_int_equal(emu_launch(&window, grid, block, sizeof(sh), &a), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	/* The reference, CTA by CTA, threads in emu_tid order. */
	for (unsigned by = 0; by < grid.y; by++)
		for (unsigned bx = 0; bx < grid.x; bx++) {
			for (unsigned t = 0; t < nt; t++) {
				unsigned x = bx * 8 + t % 8, y = by * 4 + t / 8 % 4, z = t / 32;
				int v = in[win_index(x, y, z)];

				sh[t] = in_window(&a, x, y) && v % 3 != 0 ? v : -1;
			}
			for (unsigned t = 0; t < nt; t++) {
				unsigned x = bx * 8 + t % 8, y = by * 4 + t / 8 % 4, z = t / 32;
				long long want = (long long)sh[t] * 1000 + sh[(t + 1) % nt];

				if ((int64_t)x < below)
					want += 1;
				if ((int64_t)(t % 8) >= idx[0] && (int64_t)(t % 8) < idx[1] &&
				    (int64_t)(t / 8 % 4) >= idx[2] && (int64_t)(t / 8 % 4) < idx[3])
					want += 10;
				assert_int_equal(out[win_index(x, y, z)], want);
			}
		}
}

static void check_window(int64_t x_lo, int64_t x_hi, int64_t y_lo, int64_t y_hi, int64_t below)
{
	const int64_t idx[4] = {2, 7, 1, 3};

	check_window_idx(x_lo, x_hi, y_lo, y_hi, below, idx);
}

static void test_return_window(void **state)
{
	const int64_t past[4] = {-3, 100, -1, 50}, empty_x[4] = {5, 5, 0, 4},
		      empty_y[4] = {0, 8, 3, 1}, one[4] = {7, 8, 3, 4};

	check_window_idx(3, 37, 1, 9, 13, past);    /* threadIdx window past the block */
	check_window_idx(3, 37, 1, 9, 13, empty_x); /* empty in x */
	check_window_idx(3, 37, 1, 9, 13, empty_y); /* empty in y */
	check_window_idx(3, 37, 1, 9, 13, one);	    /* the last thread of each row of z */
	check_window(3, 37, 1, 9, 13);		    /* cuts CTAs on every side */
	check_window(-5, 100, -2, 6, 1000);	    /* starts before the grid, reaches past it */
	check_window(9, 9, 0, WIN_H, 0);	    /* empty in x */
	check_window(0, WIN_W, 7, 3, -4);	    /* empty in y */
	check_window(16, 24, 4, 8, WIN_W);	    /* exactly one CTA */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_return_1d),
	    cmocka_unit_test(test_return_3d),
	    cmocka_unit_test(test_return_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
