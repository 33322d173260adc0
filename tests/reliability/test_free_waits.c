// SPDX-License-Identifier: MIT
/*
 * Description: cudaFree, cudaFreeHost and uvmemu_free wait for the device to
 * be idle, as CUDA's do. A kernel still updating a buffer when the program
 * frees it finishes first (every CTA has run when the free returns); the
 * same address, allocated again, prefetched and filled by the CPU, then
 * holds exactly what the CPU wrote, with no kernel error. Run natively and
 * emulated (issue 11, defect 1: the free used to return at once; emulated, a
 * new buffer was then corrupted or the driver stopped with "zero-filling
 * device blocks: File exists").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "emugpu.h"

struct inc_args {
	uint32_t *a;
	uint64_t n;
	int reps;
	_Atomic uint64_t *ctas_done; /* plain host memory */
};

/* Long enough per CTA that the free comes while most CTAs are yet to run. */
EMU_KERNEL(inc, struct inc_args)
{
	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i >= args->n)
			EMU_RETURN;
		for (int r = 0; r < args->reps; r++)
			((volatile uint32_t *)args->a)[i] += 1;
	}
	atomic_fetch_add(args->ctas_done, 1);
}

#define N     (8u << 20 >> 2) /* 8 MB of words */
#define BLOCK 256u

static void run_round(int round, int (*free_fn)(void *))
{
	static _Atomic uint64_t done;
	uint64_t ctas = (N + BLOCK - 1) / BLOCK;
	uint32_t *a, *b;
	size_t bad = 0;

	atomic_store(&done, 0);
	assert_int_equal(cudaMallocManaged((void **)&a, N * 4, cudaMemAttachGlobal), cudaSuccess);
	memset(a, 0, N * 4);
	assert_int_equal(
	    EMU_LAUNCH(inc, emu_dim3(ctas, 1, 1), emu_dim3(BLOCK, 1, 1), 0, a, N, 40, &done),
	    cudaSuccess);
	assert_int_equal(free_fn(a), 0);
	/* The kernel finished before the memory went. */
	assert_int_equal(atomic_load(&done), ctas);

	assert_int_equal(cudaMallocManaged((void **)&b, N * 4, cudaMemAttachGlobal), cudaSuccess);
	assert_int_equal(cudaMemPrefetchAsync(b, N * 4, 0, NULL), cudaSuccess);
	memset(b, 0x5a, N * 4);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	for (size_t i = 0; i < N; i++)
		bad += b[i] != 0x5a5a5a5au;
	if (bad)
		fail_msg("round %d: %zu words of the new buffer are not what the CPU wrote", round,
			 bad);
	assert_int_equal(cudaFree(b), cudaSuccess);
	assert_int_equal(cudaGetLastError(), cudaSuccess);
}

static int cuda_free(void *p)
{
	return cudaFree(p);
}

static void test_cuda_free_waits(void **state)
{
	for (int round = 0; round < 4; round++)
		run_round(round, cuda_free);
}

static void test_uvmemu_free_waits(void **state)
{
	for (int round = 0; round < 2; round++)
		run_round(round, uvmemu_free);
}

struct touch_args {
	uint8_t *p;
	uint64_t n;
	_Atomic uint64_t *ctas_done;
};

EMU_KERNEL(touch, struct touch_args)
{
	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		for (int r = 0; r < 200 && i < args->n; r++)
			((volatile uint8_t *)args->p)[i]++;
	}
	atomic_fetch_add(args->ctas_done, 1);
}

/* Zero-copy host memory (read remotely by the GPU) goes the same way. */
static void test_cuda_free_host_waits(void **state)
{
	static _Atomic uint64_t done;
	uint64_t n = 1u << 20, ctas = n / BLOCK;
	uint8_t *p;

	assert_int_equal(cudaHostAlloc((void **)&p, n, cudaHostAllocMapped), cudaSuccess);
	memset(p, 0, n);
	assert_int_equal(
	    EMU_LAUNCH(touch, emu_dim3(ctas, 1, 1), emu_dim3(BLOCK, 1, 1), 0, p, n, &done),
	    cudaSuccess);
	assert_int_equal(cudaFreeHost(p), cudaSuccess);
	assert_int_equal(atomic_load(&done), ctas);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cuda_free_waits),
	    cmocka_unit_test(test_uvmemu_free_waits),
	    cmocka_unit_test(test_cuda_free_host_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
