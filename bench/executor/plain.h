/* SPDX-License-Identifier: MIT */
/* plain.h - the stream triad as plain C: on the calling thread, and split
 * over a pool of threads in equal contiguous parts. */
#ifndef BENCH_PLAIN_H
#define BENCH_PLAIN_H

#include <stddef.h>

struct triad_arrays {
	const float *x, *y;
	float *z;
	size_t n;
};

void triad_plain(const struct triad_arrays *t);

struct triad_pool;
/* nthreads >= 1 counts the caller, which works as member 0. 0 or -errno. */
int triad_pool_create(struct triad_pool **pool, unsigned nthreads);
void triad_pool_run(struct triad_pool *pool, const struct triad_arrays *t);
void triad_pool_destroy(struct triad_pool *pool);

#endif
