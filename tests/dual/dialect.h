/* SPDX-License-Identifier: MIT */
/*
 * dialect.h - kernels that use every construct of emu-gpu's kernel dialect,
 * compiled both ways (kernels.c): the CPU executor's semantics, which
 * tests/emugpu check one by one, must hold on a real GPU too (main.c).
 */
#ifndef DIALECT_H
#define DIALECT_H

#include <stdint.h>

#include "emugpu.h"

/* Thread loops: a 3 x 2 grid of 8 x 4 CTAs covers a 24 x 8 grid of cells,
 * one per thread. */
#define LOOPS_GX    3
#define LOOPS_GY    2
#define LOOPS_BX    8
#define LOOPS_BY    4
#define LOOPS_W	    (LOOPS_GX * LOOPS_BX)
#define LOOPS_H	    (LOOPS_GY * LOOPS_BY)
#define LOOPS_BELOW 13 /* EMU_FOR_THREADS_BELOW's bound on x */

struct loops_args {
	int *all;   /* EMU_FOR_THREADS: 1 everywhere */
	int *below; /* EMU_FOR_THREADS_BELOW(13): x < 13 */
	int *in;    /* EMU_FOR_THREADS_IN(5, 19, 2, 7) */
	int *idx;   /* EMU_FOR_THREADS_IDX_IN(1, 6, 1, 3) */
	int *ret;   /* +1 unless EMU_RETURN (x % 3 == 0), then +10 for all */
	int64_t below_n;
};
EMU_KERNEL_DECLARE(dialect_loops, struct loops_args);

/* Shared arrays, per-thread variables across barriers, dynamic shared
 * memory and device functions: CTAs of 64 threads. */
#define SHARED_BLOCK 64
#define SHARED_GRID  5
struct shared_args {
	int *reversed; /* s[63 - t] + the thread's own value, per thread */
	int *rotated;  /* dynamic shared d[(t + 1) % 64], per thread */
	int *cta;      /* a device function's result, per CTA */
};
EMU_KERNEL_DECLARE(dialect_shared, struct shared_args);

/* The CTA's value that kernels and the host's check compute alike. */
EMU_HOST_DEVICE static inline int dialect_cta_value(unsigned cta)
{
	return (int)(cta * cta + 7);
}

/* Atomics: every thread of a 4 x 128 grid on the same words. */
#define ATOMIC_GRID  4
#define ATOMIC_BLOCK 128
#define ATOMIC_T     (ATOMIC_GRID * ATOMIC_BLOCK)

struct atomic_words {
	int i, i_sub, i_min, i_max;
	unsigned u;
	long l, l_min;
	unsigned long ul_and, ul_or, ul_xor;
	long long ll;
	unsigned long long ull, ull_sub;
	float f, f_sub, f_min, f_max, f_cas;
	double d, d_sub, d_min, d_max, d_exch;
};
struct atomic_args {
	struct atomic_words *w;
	unsigned *seen; /* ATOMIC_T + 1 counters: what atomicExch returned */
};
EMU_KERNEL_DECLARE(dialect_atomics, struct atomic_args);

#endif
