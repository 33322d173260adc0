// SPDX-License-Identifier: MIT
/*
 * Description: launches. Bad configurations fail at once with CUDA's codes
 * (and cudaGetLastError reports them once); launches are asynchronous and run
 * in stream order, also past the depth of the launch queue; dynamic shared
 * memory is there when asked for; the default configuration is the gtx1080ti
 * preset's 28 SMs x 4 CTAs. A kernel defined for one block shape
 * (EMU_KERNEL_BLOCK) runs every thread of that shape, once, with blockDim
 * and emu_tid right, and a launch with any other shape fails with
 * cudaErrorInvalidConfiguration. One main worker runs per core of the
 * process's affinity mask, before and after the pool starts; run as
 * `emugpu_launch one-core` the test first limits itself to one core, so the
 * count differs from the machine's.
 */
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "emugpu.h"

struct nop_args {
	int unused;
};

EMU_KERNEL(nop, struct nop_args)
{
}

static void expect_error(cudaError_t got, cudaError_t want)
{
	assert_int_equal(got, want);
	assert_int_equal(cudaGetLastError(), want);
	assert_int_equal(cudaGetLastError(), cudaSuccess);
}

static void test_configuration_errors(void **state)
{
	const dim3 one = {1, 1, 1};
	struct nop_args a = {0};

	expect_error(EMU_LAUNCH(nop, emu_dim3(0, 1, 1), one, 0, 0), cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, emu_dim3(1, 0, 1), one, 0, 0), cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, emu_dim3(1, 1, 0), one, 0, 0), cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, one, emu_dim3(0, 1, 1), 0, 0), cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, one, emu_dim3(1025, 1, 1), 0, 0),
		     cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, one, emu_dim3(32, 33, 1), 0, 0),
		     cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, one, emu_dim3(1, 1, 65), 0, 0), cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, emu_dim3(1, 65536, 1), one, 0, 0),
		     cudaErrorInvalidConfiguration);
	expect_error(EMU_LAUNCH(nop, one, one, (48 << 10) + 1, 0), cudaErrorInvalidValue);
	expect_error(emu_launch(NULL, one, one, 0, &a), cudaErrorInvalidValue);
	expect_error(emu_launch(&nop, one, one, 0, NULL), cudaErrorInvalidValue);
	expect_error(emuLaunchKernel(&nop, one, one, &a, 0, (cudaStream_t)(uintptr_t)1),
		     cudaErrorInvalidResourceHandle);

	/* The limits themselves are fine. */
	assert_int_equal(EMU_LAUNCH(nop, emu_dim3(1, 65535, 1), emu_dim3(32, 32, 1), 48 << 10, 0),
			 cudaSuccess);
	assert_int_equal(emuLaunchKernel(&nop, one, emu_dim3(1, 16, 64), &a, 0, NULL), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(cudaGetLastError(), cudaSuccess);
}

struct shaped_args {
	unsigned *visits; /* per CTA and thread */
	unsigned *bad;	  /* blockDim or emu_tid were wrong */
};

EMU_KERNEL_BLOCK(shaped, struct shaped_args, 8, 4, 2)
{
	unsigned cta = blockIdx.y * gridDim.x + blockIdx.x, n = 0;

	if (blockDim.x != 8 || blockDim.y != 4 || blockDim.z != 2 || emu_cta_->nthreads != 64)
		atomicAdd(args->bad, 1u);
	EMU_FOR_THREADS {
		if (emu_tid != n++ || threadIdx.x >= 8 || threadIdx.y >= 4 || threadIdx.z >= 2)
			atomicAdd(args->bad, 1u);
		atomicAdd(&args->visits[cta * 64 + emu_tid], 1u);
	}
}

static void test_fixed_block_shape(void **state)
{
	const dim3 grid = {3, 2, 1};
	unsigned visits[6 * 64] = {0}, bad = 0;
	struct shaped_args a = {visits, &bad};

	expect_error(emu_launch(&shaped, grid, emu_dim3(4, 8, 2), 0, &a),
		     cudaErrorInvalidConfiguration);
	expect_error(emu_launch(&shaped, grid, emu_dim3(8, 4, 1), 0, &a),
		     cudaErrorInvalidConfiguration);
	expect_error(emu_launch(&shaped, grid, emu_dim3(8, 8, 2), 0, &a),
		     cudaErrorInvalidConfiguration);
	assert_int_equal(emu_launch(&shaped, grid, emu_dim3(8, 4, 2), 0, &a), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(bad, 0);
	for (unsigned i = 0; i < 6 * 64; i++)
		assert_int_equal(visits[i], 1);
}

/* One per core the process may run on, at most one per worker. */
static unsigned expected_main_workers(unsigned workers)
{
	cpu_set_t set;
	unsigned cores;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	cores = (unsigned)CPU_COUNT(&set);
	return cores < workers ? cores : workers;
}

static void test_default_configuration(void **state)
{
	struct emu_info info;

	emu_get_info(&info);
	assert_int_equal(info.main_workers, expected_main_workers(info.workers));
	assert_int_equal(info.sms, 28);
	assert_int_equal(info.ctas_per_sm, 4);
	assert_int_equal(info.workers, 112);
	assert_string_equal(info.dispatch, "asc");
	assert_false(info.pinned);
	/* A program compiled against emugpu gets EMUGPU_GMMU when the library
	 * was built with its accessors. */
#ifdef EMUGPU_GMMU
	assert_true(info.gmmu);
#else
	assert_false(info.gmmu);
#endif
	assert_int_equal(info.max_shared_bytes, 48 << 10);
	/* The same count once the pool runs. */
	assert_int_equal(EMU_LAUNCH(nop, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, 0), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	emu_get_info(&info);
	assert_int_equal(info.main_workers, expected_main_workers(info.workers));
}

/* Keeps only the first core of the affinity mask. */
static void limit_to_one_core(void)
{
	cpu_set_t set, one;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		abort();
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			CPU_SET(c, &one);
			break;
		}
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		abort();
}

/* The kernel waits for the host to raise a flag that it raises only after
 * emu_launch returned; a synchronous launch would never see it. */
struct wait_args {
	_Atomic int *flag;
	int *saw;
};

EMU_KERNEL(wait_flag, struct wait_args)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (atomic_load(args->flag)) {
			*args->saw = 1;
			return;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 20);
}

static void test_launch_is_asynchronous(void **state)
{
	_Atomic int flag = 0;
	int saw = 0;

	assert_int_equal(
	    EMU_LAUNCH(wait_flag, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, &flag, &saw),
	    cudaSuccess);
	atomic_store(&flag, 1);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(saw, 1);
}

/* Launch k folds k into one value; any reordering or overlap changes it. */
struct fold_args {
	uint64_t *v;
	uint64_t k;
};

EMU_KERNEL(fold, struct fold_args)
{
	EMU_FOR_THREADS {
		if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
			*args->v = *args->v * 1000003u + args->k;
	}
}

static void test_stream_order(void **state)
{
	uint64_t v = 1, want = 1;

	/* Four times the launch queue's depth, with no synchronize between. */
	for (uint64_t k = 0; k < 1024; k++) {
		assert_int_equal(
		    EMU_LAUNCH(fold, emu_dim3(1 + k % 5, 1, 1), emu_dim3(2, 1, 1), 0, &v, k),
		    cudaSuccess);
		want = want * 1000003u + k;
	}
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_true(v == want);
}

/* Kernel 2 reads what kernel 1 wrote, across every CTA of both. */
struct pass_args {
	unsigned *in, *out;
	unsigned n, add;
};

EMU_KERNEL(pass, struct pass_args)
{
	EMU_FOR_THREADS {
		unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->n)
			args->out[args->n - 1 - i] = args->in[i] + args->add;
	}
}

static void test_kernels_see_previous_results(void **state)
{
	unsigned n = 100000, *a = calloc(n, sizeof(unsigned)), *b = calloc(n, sizeof(unsigned));
	dim3 grid = {(n + 127) / 128, 1, 1}, block = {128, 1, 1};

	assert_non_null(a);
	assert_non_null(b);
	for (unsigned i = 0; i < n; i++)
		a[i] = i;
	for (int round = 0; round < 4; round++) {
		assert_int_equal(EMU_LAUNCH(pass, grid, block, 0, a, b, n, 1), cudaSuccess);
		assert_int_equal(EMU_LAUNCH(pass, grid, block, 0, b, a, n, 1), cudaSuccess);
	}
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	/* Two reversals per round: a[i] = i + 8. */
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(a[i], i + 8);
	free(a);
	free(b);
}

struct shared_args {
	uintptr_t *seen;
};

EMU_KERNEL(shared_ptr, struct shared_args)
{
	EMU_FOR_THREADS {
		if (threadIdx.x == 0)
			args->seen[blockIdx.x] =
			    (uintptr_t)emu_cta_->shared | (emu_cta_->shared_bytes == 100 ? 0 : 1);
	}
}

static void test_dynamic_shared_memory(void **state)
{
	uintptr_t seen[8] = {0};

	assert_int_equal(EMU_LAUNCH(shared_ptr, emu_dim3(8, 1, 1), emu_dim3(4, 1, 1), 100, seen),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	for (int i = 0; i < 8; i++) {
		assert_true(seen[i] != 0);
		assert_int_equal(seen[i] % 64, 0);
	}
	assert_int_equal(EMU_LAUNCH(shared_ptr, emu_dim3(8, 1, 1), emu_dim3(4, 1, 1), 0, seen),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	/* None asked for: NULL, so that a kernel that forgot to ask fails. */
	for (int i = 0; i < 8; i++)
		assert_int_equal(seen[i], 1);
}

static void test_synchronize_when_idle(void **state)
{
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_synchronize_when_idle),
	    cmocka_unit_test(test_default_configuration),
	    cmocka_unit_test(test_configuration_errors),
	    cmocka_unit_test(test_fixed_block_shape),
	    cmocka_unit_test(test_launch_is_asynchronous),
	    cmocka_unit_test(test_stream_order),
	    cmocka_unit_test(test_kernels_see_previous_results),
	    cmocka_unit_test(test_dynamic_shared_memory),
	};

	if (argc > 1 && strcmp(argv[1], "one-core") == 0)
		limit_to_one_core();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
