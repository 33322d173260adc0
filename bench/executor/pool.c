// SPDX-License-Identifier: MIT
/* pool.c - persistent threads for plain C's parallel variant. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "pool.h"

struct pool {
	unsigned nthreads;
	pthread_barrier_t start, done;
	pool_fn fn; /* NULL: exit */
	void *ctx;
	pthread_t *threads;
};

struct member {
	struct pool *pool;
	unsigned id;
};

static void *member_main(void *arg)
{
	struct member m = *(struct member *)arg;

	free(arg);
	for (;;) {
		pthread_barrier_wait(&m.pool->start);
		if (!m.pool->fn)
			return NULL;
		m.pool->fn(m.pool->ctx, m.id, m.pool->nthreads);
		pthread_barrier_wait(&m.pool->done);
	}
}

int pool_create(struct pool **pool, unsigned nthreads)
{
	struct pool *p = calloc(1, sizeof(*p));
	unsigned started = 1;
	int err = -ENOMEM;

	if (!p)
		return err;
	p->nthreads = nthreads;
	p->threads = calloc(nthreads, sizeof(*p->threads));
	if (!p->threads)
		goto err_pool;
	pthread_barrier_init(&p->start, NULL, nthreads);
	pthread_barrier_init(&p->done, NULL, nthreads);
	for (; started < nthreads; started++) {
		struct member *m = malloc(sizeof(*m));

		err = -ENOMEM;
		if (!m)
			goto err_threads;
		*m = (struct member){p, started};
		err = -pthread_create(&p->threads[started], NULL, member_main, m);
		if (err) {
			free(m);
			goto err_threads;
		}
	}
	*pool = p;
	return 0;

err_threads:
	/* The members started so far wait at `start` for a full count that will
	 * never come; the caller is about to exit with the error. */
	pthread_barrier_destroy(&p->done);
	free(p->threads);
err_pool:
	free(p);
	return err;
}

void pool_run(struct pool *p, pool_fn fn, void *ctx)
{
	p->fn = fn;
	p->ctx = ctx;
	pthread_barrier_wait(&p->start);
	fn(ctx, 0, p->nthreads);
	pthread_barrier_wait(&p->done);
}

void pool_destroy(struct pool *p)
{
	p->fn = NULL;
	pthread_barrier_wait(&p->start);
	for (unsigned i = 1; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	pthread_barrier_destroy(&p->start);
	pthread_barrier_destroy(&p->done);
	free(p->threads);
	free(p);
}
