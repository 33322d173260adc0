/* SPDX-License-Identifier: MIT */
/*
 * bench.h - one kernel of bench-executor: the same computation run through
 * emu-gpu and as plain C, and a check that both computed it exactly.
 *
 * The plain-C side is what a programmer would write without emu-gpu: the
 * kernel's per-thread code in ordinary loops with the tile shape known at
 * compile time, over the CTAs in order. `plain(state, phase, part, nparts)`
 * does part `part` of `nparts` equal contiguous parts of one phase of that
 * work, so that one call per phase is the one-thread variant and a pool of
 * threads runs the other. A phase is one launch: a kernel of several launches
 * has one phase each, and every part of a phase ends before the next starts.
 */
#ifndef BENCH_EXECUTOR_BENCH_H
#define BENCH_EXECUTOR_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "emugpu.h"

struct bench_kernel {
	const char *name; /* for --kernel */
	const char *kind; /* memory-bound, compute-bound, ... */
	unsigned phases;  /* launches per run; 0 means 1 */
	/* Allocates and fills the inputs and the reference result; 0 or -errno. */
	int (*setup)(void **state);
	/* One line: the problem and its shape. */
	void (*describe)(const void *state, char *buf, size_t len);
	/* Launches the kernel(s) and waits for them. */
	cudaError_t (*emu)(void *state);
	void (*plain)(void *state, unsigned phase, unsigned part, unsigned nparts);
	/* Zeroes the output, so that a check after a run tells it ran. */
	void (*clear)(void *state);
	/* Is the output exactly the reference? Names the first wrong element. */
	bool (*check)(const void *state);
	void (*teardown)(void *state);
};

extern const struct bench_kernel bench_triad, bench_sgemm, bench_stencil;

/* [lo, hi) of part `part` of `nparts` equal parts of n items. */
static inline void bench_part(size_t n, unsigned part, unsigned nparts, size_t *lo, size_t *hi)
{
	*lo = n * part / nparts;
	*hi = n * (part + 1) / nparts;
}

/* Is the n x n matrix `got` bit for bit `want`? Names the first element that
 * differs, as row and column, after `what` ("sgemm: C"). */
bool bench_same_matrix(const float *got, const float *want, size_t n, const char *what);

#endif
