// SPDX-License-Identifier: MIT
/*
 * Description: every CTA of a 3-D grid runs exactly once, and every thread of
 * it once, with the right blockIdx, threadIdx, blockDim and gridDim; the
 * barrier between two thread loops holds (a tree reduction through dynamic
 * shared memory, and per-thread values kept across barriers, give exact sums).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "emugpu.h"

struct visit_args {
	unsigned *visits; /* per (CTA, thread) */
	unsigned *errors;
	dim3 grid, block;
};

EMU_KERNEL(visit, struct visit_args)
{
	unsigned cta = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
	unsigned n = 0;

	if (gridDim.x != args->grid.x || gridDim.y != args->grid.y || gridDim.z != args->grid.z ||
	    blockDim.x != args->block.x || blockDim.y != args->block.y ||
	    blockDim.z != args->block.z || blockIdx.x >= gridDim.x || blockIdx.y >= gridDim.y ||
	    blockIdx.z >= gridDim.z)
		atomicAdd(args->errors, 1u);
	EMU_FOR_THREADS {
		unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;

		if (threadIdx.x >= blockDim.x || threadIdx.y >= blockDim.y ||
		    threadIdx.z >= blockDim.z || emu_tid != n++)
			atomicAdd(args->errors, 1u);
		atomicAdd(&args->visits[cta * nthreads + emu_tid], 1u);
	}
}

static void test_grid_3d(void **state)
{
	dim3 grid = {5, 3, 4}, block = {8, 4, 2};
	size_t n = (size_t)5 * 3 * 4 * 8 * 4 * 2;
	unsigned *visits = calloc(n, sizeof(*visits));
	unsigned errors = 0;

	assert_non_null(visits);
	for (int launch = 0; launch < 3; launch++)
		assert_int_equal(EMU_LAUNCH(visit, grid, block, 0, visits, &errors, grid, block),
				 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(errors, 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(visits[i], 3);
	free(visits);
}

/* A CTA of 1-D or 3-D shape sums f(cta, tid) over its threads in shared memory. */
struct reduce_args {
	uint64_t *out; /* per CTA */
};

static uint64_t value(unsigned cta, unsigned tid)
{
	return (uint64_t)cta * 100003u + (uint64_t)tid * tid + 7;
}

EMU_KERNEL(reduce, struct reduce_args)
{
	uint64_t *sh = emu_shared(uint64_t);
	unsigned cta = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
	EMU_PER_THREAD(uint64_t, mine);

	EMU_FOR_THREADS {
		mine[emu_tid] = value(cta, emu_tid);
		sh[emu_tid] = 0;
	}
	__syncthreads();
	/* The value crosses a barrier in a per-thread array, then shared memory. */
	EMU_FOR_THREADS {
		sh[emu_tid] = mine[emu_tid];
	}
	for (unsigned s = emu_cta_->nthreads / 2; s > 0; s /= 2) {
		__syncthreads();
		EMU_FOR_THREADS {
			if (emu_tid < s)
				sh[emu_tid] += sh[emu_tid + s];
		}
	}
	__syncthreads();
	EMU_FOR_THREADS {
		if (emu_tid == 0)
			args->out[cta] = sh[0];
	}
}

static void check_reduce(dim3 grid, dim3 block)
{
	unsigned nctas = grid.x * grid.y * grid.z, nthreads = block.x * block.y * block.z;
	uint64_t *out = calloc(nctas, sizeof(*out));

	assert_non_null(out);
	assert_int_equal(EMU_LAUNCH(reduce, grid, block, nthreads * sizeof(uint64_t), out),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	for (unsigned c = 0; c < nctas; c++) {
		uint64_t want = 0;

		for (unsigned t = 0; t < nthreads; t++)
			want += value(c, t);
		assert_int_equal(out[c], want);
	}
	free(out);
}

static void test_barrier_reduction(void **state)
{
	check_reduce(emu_dim3(97, 1, 1), emu_dim3(1024, 1, 1));
	check_reduce(emu_dim3(6, 2, 3), emu_dim3(16, 4, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_grid_3d),
	    cmocka_unit_test(test_barrier_reduction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
