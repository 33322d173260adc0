// SPDX-License-Identifier: MIT
/*
 * plain.c - the stream triad as a programmer would write it without emu-gpu:
 * the loop on one thread, and the loop split over persistent threads that a
 * barrier starts and joins (no thread creation in the timed part).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "plain.h"
#include "triad.h"

static void triad_range(const struct triad_arrays *t, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++)
		t->z[i] = STREAM_SCALAR * t->x[i] + t->y[i];
}

void triad_plain(const struct triad_arrays *t)
{
	triad_range(t, 0, t->n);
}

struct triad_pool {
	unsigned nthreads;
	pthread_barrier_t start, done;
	const struct triad_arrays *work; /* NULL: exit */
	pthread_t *threads;
};

struct member {
	struct triad_pool *pool;
	unsigned id;
};

static void run_part(struct triad_pool *p, unsigned id)
{
	const struct triad_arrays *t = p->work;

	triad_range(t, t->n * id / p->nthreads, t->n * (id + 1) / p->nthreads);
}

static void *member_main(void *arg)
{
	struct member m = *(struct member *)arg;

	free(arg);
	for (;;) {
		pthread_barrier_wait(&m.pool->start);
		if (!m.pool->work)
			return NULL;
		run_part(m.pool, m.id);
		pthread_barrier_wait(&m.pool->done);
	}
}

int triad_pool_create(struct triad_pool **pool, unsigned nthreads)
{
	struct triad_pool *p = calloc(1, sizeof(*p));
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

void triad_pool_run(struct triad_pool *p, const struct triad_arrays *t)
{
	p->work = t;
	pthread_barrier_wait(&p->start);
	run_part(p, 0);
	pthread_barrier_wait(&p->done);
}

void triad_pool_destroy(struct triad_pool *p)
{
	p->work = NULL;
	pthread_barrier_wait(&p->start);
	for (unsigned i = 1; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	pthread_barrier_destroy(&p->start);
	pthread_barrier_destroy(&p->done);
	free(p->threads);
	free(p);
}
