// SPDX-License-Identifier: MIT
/*
 * Description: a thread that ends early in a thread loop (EMU_RETURN, or
 * `continue` inside a switch, or `break`) skips only the rest of that loop's
 * body: the other threads of the loop still run, and after the barrier every
 * thread runs the next loop. Kernels whose threads leave at different points
 * - out of range in a partial last CTA, on a data-dependent condition before
 * a shared-memory write, inside a switch - compute exactly what a CPU
 * reference with the same rules computes, for 1-D and 3-D CTAs.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_return_1d),
	    cmocka_unit_test(test_return_3d),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
