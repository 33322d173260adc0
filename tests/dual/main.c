// SPDX-License-Identifier: MIT
/*
 * Description: every construct of emu-gpu's kernel dialect means the same on
 * the CPU executor and, built by nvcc (build/bin/cuda/emugpu-dialect), on a
 * real GPU: thread loops and their windows, a return that leaves one loop,
 * shared arrays across the barrier at a loop's end, per-thread variables,
 * dynamic shared memory, device functions, the atomics on every type of the
 * CPU executor, and EMU_KERNEL_BLOCK's refusal of another shape. Plain C, no
 * test library, so that the GPU machine needs nothing to run it; exit 0 when
 * every value is exact, 1 (naming the first wrong values) otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialect.h"

static int failures;

#define EXPECT(cond, ...)                                                                          \
	do {                                                                                       \
		if (!(cond) && failures++ < 20) {                                                  \
			fprintf(stderr, "emugpu-dialect: %s:%d: ", __FILE__, __LINE__);            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

static void *managed(size_t bytes)
{
	void *p = NULL;
	cudaError_t e = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal);

	if (e != cudaSuccess) {
		fprintf(stderr, "emugpu-dialect: cudaMallocManaged: %s\n", cudaGetErrorString(e));
		exit(1);
	}
	memset(p, 0, bytes);
	return p;
}

static void sync_or_die(const char *what)
{
	cudaError_t e = cudaDeviceSynchronize();

	if (e != cudaSuccess) {
		fprintf(stderr, "emugpu-dialect: %s: %s\n", what, cudaGetErrorString(e));
		exit(1);
	}
}

static void loops(void)
{
	const size_t cells = LOOPS_W * LOOPS_H;
	struct loops_args a = {managed(cells * sizeof(int)), managed(cells * sizeof(int)),
			       managed(cells * sizeof(int)), managed(cells * sizeof(int)),
			       managed(cells * sizeof(int)), LOOPS_BELOW};

	EXPECT(emu_launch(&dialect_loops, emu_dim3(LOOPS_GX, LOOPS_GY, 1),
			  emu_dim3(LOOPS_BX, LOOPS_BY, 1), 0, &a) == cudaSuccess,
	       "launch of dialect_loops");
	sync_or_die("dialect_loops");
	for (int y = 0; y < LOOPS_H; y++)
		for (int x = 0; x < LOOPS_W; x++) {
			int c = y * LOOPS_W + x, tx = x % LOOPS_BX, ty = y % LOOPS_BY;

			EXPECT(a.all[c] == 1, "all[%d][%d] = %d", y, x, a.all[c]);
			EXPECT(a.below[c] == (x < LOOPS_BELOW), "below[%d][%d] = %d", y, x,
			       a.below[c]);
			EXPECT(a.in[c] == (x >= 5 && x < 19 && y >= 2 && y < 7), "in[%d][%d] = %d",
			       y, x, a.in[c]);
			EXPECT(a.idx[c] == (tx >= 1 && tx < 6 && ty >= 1 && ty < 3),
			       "idx[%d][%d] = %d", y, x, a.idx[c]);
			EXPECT(a.ret[c] == (x % 3 == 0 ? 10 : 11), "ret[%d][%d] = %d", y, x,
			       a.ret[c]);
		}
}

static void shared(void)
{
	const size_t threads = SHARED_GRID * SHARED_BLOCK;
	struct shared_args a = {managed(threads * sizeof(int)), managed(threads * sizeof(int)),
				managed(SHARED_GRID * sizeof(int))};

	EXPECT(emu_launch(&dialect_shared, emu_dim3(SHARED_GRID, 1, 1),
			  emu_dim3(SHARED_BLOCK, 1, 1), SHARED_BLOCK * sizeof(int),
			  &a) == cudaSuccess,
	       "launch of dialect_shared");
	/* Its one shape only, on both. */
	EXPECT(emu_launch(&dialect_shared, emu_dim3(SHARED_GRID, 1, 1),
			  emu_dim3(SHARED_BLOCK / 2, 1, 1), SHARED_BLOCK * sizeof(int),
			  &a) == cudaErrorInvalidConfiguration,
	       "dialect_shared launched in another shape");
	sync_or_die("dialect_shared");
	for (unsigned b = 0; b < SHARED_GRID; b++) {
		EXPECT(a.cta[b] == dialect_cta_value(b), "cta[%u] = %d", b, a.cta[b]);
		for (unsigned t = 0; t < SHARED_BLOCK; t++) {
			unsigned g = b * SHARED_BLOCK + t;
			int want = (int)(b * SHARED_BLOCK + SHARED_BLOCK - 1 - t) + (int)t * 3;

			EXPECT(a.reversed[g] == want, "reversed[%u] = %d, want %d", g,
			       a.reversed[g], want);
			EXPECT(a.rotated[g] == (int)((t + 1) % SHARED_BLOCK) + 1000,
			       "rotated[%u] = %d", g, a.rotated[g]);
		}
	}
}

static void atomics(void)
{
	const long long t = ATOMIC_T;
	struct atomic_args a = {managed(sizeof(struct atomic_words)),
				managed((ATOMIC_T + 1) * sizeof(unsigned))};
	struct atomic_words *w = a.w;
	unsigned seen = 0;

	w->ul_and = ~0ul;
	w->ul_xor = 5;
	w->d_min = 1e9;
	w->d_max = -1e9;
	EXPECT(emu_launch(&dialect_atomics, emu_dim3(ATOMIC_GRID, 1, 1),
			  emu_dim3(ATOMIC_BLOCK, 1, 1), 0, &a) == cudaSuccess,
	       "launch of dialect_atomics");
	sync_or_die("dialect_atomics");
	EXPECT(w->i == t, "int add %d", w->i);
	EXPECT(w->i_sub == -2 * t, "int sub %d", w->i_sub);
	EXPECT(w->i_min == -100 && w->i_max == t - 101, "int min %d max %d", w->i_min, w->i_max);
	EXPECT(w->u == 3 * t, "unsigned add %u", w->u);
	EXPECT(w->l == 5 * t, "long add %ld", w->l);
	EXPECT(w->l_min == -(t - 1) * 1000000000l, "long min %ld", w->l_min);
	EXPECT(w->ul_and == 0, "unsigned long and %#lx", w->ul_and);
	EXPECT(w->ul_or == (1ul << 40) - 1, "unsigned long or %#lx", w->ul_or);
	EXPECT(w->ul_xor == 5, "unsigned long xor %#lx", w->ul_xor);
	EXPECT(w->ll == 7 * t, "long long add %lld", w->ll);
	EXPECT(w->ull == (unsigned long long)t << 33, "unsigned long long add %llu", w->ull);
	EXPECT(w->ull_sub == 0 - 9 * (unsigned long long)t, "unsigned long long sub %llu",
	       w->ull_sub);
	EXPECT(w->f == (float)t && w->f_sub == -0.5f * (float)t, "float add %g sub %g", w->f,
	       w->f_sub);
	EXPECT(w->f_min == -0.25f * (float)(t - 1) && w->f_max == 0.25f * (float)(t - 1),
	       "float min %g max %g", w->f_min, w->f_max);
	EXPECT(w->f_cas == (float)t, "float compare-and-swap increments %g", w->f_cas);
	EXPECT(w->d == 0.125 * (double)t && w->d_sub == -0.25 * (double)t, "double add %g sub %g",
	       w->d, w->d_sub);
	EXPECT(w->d_min == -0.5 && w->d_max == (double)t - 0.5, "double min %g max %g", w->d_min,
	       w->d_max);
	for (long long k = 0; k <= t; k++) {
		EXPECT(a.seen[k] == (k != (long long)w->d_exch), "exchange returned %lld %u times",
		       k, a.seen[k]);
		seen += a.seen[k];
	}
	EXPECT(seen == t, "%u exchanges", seen);
}

int main(void)
{
	loops();
	shared();
	atomics();
	if (failures) {
		fprintf(stderr, "emugpu-dialect: %d wrong values\n", failures);
		return 1;
	}
	printf("emugpu-dialect: every construct exact (%s)\n",
	       uvmemu_is_emulated() ? "emulated" : "native or GPU");
	return 0;
}
