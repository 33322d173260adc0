// SPDX-License-Identifier: MIT
/*
 * objuse - a program whose launches use a known set of allocations, for
 * use.sh. Allocation ids follow the order of allocation:
 *   0 a, 1 b, 2 table, 3 c, 4 d, 5 spare (never used), 6 out.
 * Launch 0 (gather) receives a, a pointer into the middle of b, the table
 * and out; through the table, read with EMU_DEV, it reaches c, d and a
 * again. Launch 1 (scale) receives out only. The result is checked on the
 * host; natively translation is the identity and it verifies the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "emugpu.h"
#include "uvmemu_cuda.h"

#define N 4096

struct gather_args {
	const uint32_t *a, *b_mid;
	const uint32_t *const *table;
	uint32_t *out;
	int64_t n;
};

EMU_KERNEL(gather, struct gather_args)
{
	EMU_FOR_THREADS {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		const uint32_t *c, *d, *a;

		if (i >= args->n)
			EMU_RETURN;
		c = EMU_DEV(args->table[0]);
		d = EMU_DEV(args->table[1]);
		a = EMU_DEV(args->table[2]);
		args->out[i] = args->a[i] + args->b_mid[0] + c[i] + d[i] + a[i];
	}
}

struct scale_args {
	uint32_t *out;
	int64_t n;
};

EMU_KERNEL(scale, struct scale_args)
{
	EMU_FOR_THREADS {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->n)
			args->out[i] *= 3;
	}
}

static void *managed(size_t bytes)
{
	void *p;

	if (cudaMallocManaged(&p, bytes, cudaMemAttachGlobal) != cudaSuccess) {
		fprintf(stderr, "objuse: cudaMallocManaged failed\n");
		exit(1);
	}
	return p;
}

int main(void)
{
	uint32_t *a = managed(N * 4), *b = managed(2 * N * 4);
	const uint32_t **table = managed(3 * sizeof(*table));
	uint32_t *c = managed(N * 4), *d = managed(N * 4), *spare = managed(N * 4);
	uint32_t *out = managed(N * 4);
	size_t bad = 0;

	for (uint32_t i = 0; i < N; i++) {
		a[i] = i;
		c[i] = 7 * i;
		d[i] = 11 * i;
		spare[i] = 0;
	}
	for (uint32_t i = 0; i < 2 * N; i++)
		b[i] = 5;
	table[0] = c;
	table[1] = d;
	table[2] = a;
	EMU_LAUNCH(gather, emu_dim3(N / 256, 1, 1), emu_dim3(256, 1, 1), 0, a, b + N, table, out,
		   N);
	EMU_LAUNCH(scale, emu_dim3(N / 256, 1, 1), emu_dim3(256, 1, 1), 0, out, N);
	if (cudaDeviceSynchronize() != cudaSuccess) {
		fprintf(stderr, "objuse: a kernel failed\n");
		return 1;
	}
	for (uint32_t i = 0; i < N; i++)
		bad += out[i] != 3 * (i + 5 + 7 * i + 11 * i + i);
	uvmemu_set_verify(bad ? UVMEMU_VERIFY_FAIL : UVMEMU_VERIFY_PASS);
	printf("objuse: verify %s\n", bad ? "FAIL" : "pass");
	return bad ? 1 : 0;
}
