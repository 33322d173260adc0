// SPDX-License-Identifier: MIT
/*
 * threek - three kernels over four allocations with known access sets, for
 * profile.sh. Each CTA is one thread that loads one word at the start of one
 * 64 KB block (through ld_global, so GMMU accessors count it once, as a far
 * fault does without them). Allocations (ids in allocation order):
 *   0 x, 1 MiB (16 blocks)       1 y, 512 KiB (8 blocks)
 *   2 z, 256 KiB + 100 bytes (5 blocks, the last cut short)
 *   3 w, 64 KiB, never used
 * Launches:
 *   0 one:   all of x, the first 4 blocks of y
 *   1 two:   all of z, the first block of x
 *   2 three: all of y; receives x but touches none of it
 *   3 one:   as launch 0
 * The loaded words are checked on the host after the last launch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "emugpu.h"
#include "uvmemu_cuda.h"

#define BLOCK	65536u
#define PER_BLK (BLOCK / sizeof(uint64_t))

struct touch_args {
	const uint64_t *p, *q; /* touch np blocks of p, then nq blocks of q */
	int64_t np, nq;
	uint64_t *sum; /* plain host memory: one slot per CTA */
};

static void touch(EMU_DEVICE_PARAMS, const struct touch_args *args)
{
	EMU_FOR_THREADS {
		int64_t c = blockIdx.x;
		const uint64_t *w =
		    c < args->np ? args->p + c * PER_BLK : args->q + (c - args->np) * PER_BLK;

		args->sum[c] = ld_global(w);
	}
}

EMU_KERNEL(one, struct touch_args)
{
	touch(EMU_DEVICE_ARGS, args);
}
EMU_KERNEL(two, struct touch_args)
{
	touch(EMU_DEVICE_ARGS, args);
}
EMU_KERNEL(three, struct touch_args)
{
	touch(EMU_DEVICE_ARGS, args);
}

static uint64_t *managed(size_t bytes, uint64_t tag)
{
	uint64_t *p;

	if (cudaMallocManaged((void **)&p, bytes, cudaMemAttachGlobal) != cudaSuccess) {
		fprintf(stderr, "threek: cudaMallocManaged failed\n");
		exit(1);
	}
	for (size_t i = 0; i < bytes / sizeof(*p); i++)
		p[i] = tag * 1000000 + i;
	return p;
}

static uint64_t sum[4][32];

/* Launches k over np blocks of p and nq of q, the words loaded into s. */
static void run(const struct emu_kernel *k, const uint64_t *p, int64_t np, const uint64_t *q,
		int64_t nq, uint64_t *s)
{
	struct touch_args a = {p, q, np, nq, s};

	if (emu_launch(k, emu_dim3((unsigned)(np + nq), 1, 1), emu_dim3(1, 1, 1), 0, &a) !=
	    cudaSuccess) {
		fprintf(stderr, "threek: launch of %s failed\n", k->name);
		exit(1);
	}
}

/* The words launch s loaded; checked after the last launch, so that no CPU
 * read in between moves data (remote.sh counts the GPU faults). */
static size_t check(const uint64_t *s, const uint64_t *p, int64_t np, const uint64_t *q, int64_t nq)
{
	size_t bad = 0;

	for (int64_t c = 0; c < np + nq; c++)
		bad += s[c] != (c < np ? p[c * PER_BLK] : q[(c - np) * PER_BLK]);
	return bad;
}

int main(void)
{
	uint64_t *x = managed(1 << 20, 1), *y = managed(512 << 10, 2);
	uint64_t *z = managed((256 << 10) + 100, 3), *w = managed(64 << 10, 4);
	size_t bad = 0;

	(void)w;
	run(&one, x, 16, y, 4, sum[0]);
	run(&two, z, 5, x, 1, sum[1]);
	run(&three, y, 8, x, 0, sum[2]);
	run(&one, x, 16, y, 4, sum[3]);
	if (cudaDeviceSynchronize() != cudaSuccess) {
		fprintf(stderr, "threek: a kernel failed\n");
		return 1;
	}
	bad += check(sum[0], x, 16, y, 4);
	bad += check(sum[1], z, 5, x, 1);
	bad += check(sum[2], y, 8, x, 0);
	bad += check(sum[3], x, 16, y, 4);
	uvmemu_set_verify(bad ? UVMEMU_VERIFY_FAIL : UVMEMU_VERIFY_PASS);
	printf("threek: verify %s\n", bad ? "FAIL" : "pass");
	return bad ? 1 : 0;
}
