/* SPDX-License-Identifier: MIT */
/* pool.h - plain C's parallel variant: persistent threads that a barrier
 * starts and joins, each running one equal part of the work (no thread
 * creation in the timed part). */
#ifndef BENCH_EXECUTOR_POOL_H
#define BENCH_EXECUTOR_POOL_H

struct pool;
typedef void (*pool_fn)(void *ctx, unsigned part, unsigned nparts);

/* nthreads >= 1 counts the caller, which runs part 0. 0 or -errno. */
int pool_create(struct pool **pool, unsigned nthreads);
/* Runs fn(ctx, part, nthreads) for every part at once; returns when all are
 * done. */
void pool_run(struct pool *pool, pool_fn fn, void *ctx);
void pool_destroy(struct pool *pool);

#endif
