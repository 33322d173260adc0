// SPDX-License-Identifier: MIT
/*
 * Description: several host threads launch onto a full launch queue at once.
 * A kernel that waits for the host holds the stream while the launcher
 * threads fill the queue behind it, until every launcher sleeps in
 * emu_launch; then the stream is released and they go on, each launching
 * several times the queue's depth without synchronizing. Every launch must
 * run exactly once (each writes its own cells, which must all read 1), and
 * each thread's launches in the order it made them. Launchers that woke from
 * the full-queue wait onto the same slot would overwrite one launch (cells
 * 0) and leave a stale slot in the stream, which never completes: the
 * launchers then do not finish within 30 s, and the test says so.
 */
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "emugpu.h"

/* emu-gpu's launch queue holds EG_QUEUE_DEPTH (executor.h) launches. */
#define QUEUE_DEPTH 256
#define LAUNCHERS   3
#define LAUNCHES    (3 * QUEUE_DEPTH) /* per launcher and round */
#define ROUNDS	    3
#define CTAS	    2
#define THREADS	    32
#define CELLS	    (CTAS * THREADS) /* per launch */

struct gate_args {
	_Atomic int *open;
};

/* Holds the stream until the host opens it (or 20 s pass: the host failed). */
EMU_KERNEL(gate, struct gate_args)
{
	struct timespec t0, t, pause = {0, 100000};

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (atomic_load(args->open))
			return;
		nanosleep(&pause, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 20);
}

struct mark_args {
	uint32_t *cells; /* CELLS per launch */
	uint64_t *clock; /* kernels run so far, in stream order */
	uint64_t *stamp; /* per launch: the clock when it ran */
	uint64_t id;	 /* the launch's number */
};

EMU_KERNEL(mark, struct mark_args)
{
	EMU_FOR_THREADS {
		args->cells[args->id * CELLS + blockIdx.x * blockDim.x + threadIdx.x] += 1;
		/* One thread per launch; launches never overlap on the stream. */
		if (blockIdx.x == 0 && threadIdx.x == 0)
			args->stamp[args->id] = (*args->clock)++;
	}
}

struct launcher {
	pthread_t thread;
	unsigned index;
	_Atomic pid_t tid;
	uint32_t *cells;
	uint64_t *clock, *stamp;
	_Atomic unsigned *returned; /* launches returned, all launchers */
	cudaError_t error;
};

static void *launch_all(void *arg)
{
	struct launcher *l = arg;

	atomic_store(&l->tid, (pid_t)syscall(SYS_gettid));
	for (unsigned i = 0; i < LAUNCHES; i++) {
		uint64_t id = (uint64_t)l->index * LAUNCHES + i;
		cudaError_t e = EMU_LAUNCH(mark, emu_dim3(CTAS, 1, 1), emu_dim3(THREADS, 1, 1), 0,
					   l->cells, l->clock, l->stamp, id);

		if (e != cudaSuccess && l->error == cudaSuccess)
			l->error = e;
		atomic_fetch_add(l->returned, 1);
	}
	return NULL;
}

/* Is thread `tid` of this process asleep (waiting in the kernel)? */
static bool sleeping(pid_t tid)
{
	char path[64], buf[256], *state;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "tid (comm) S ...": the state follows the last ')'. */
	state = strrchr(buf, ')');
	return state && state[1] == ' ' && state[2] == 'S';
}

static bool all_sleeping(struct launcher *l)
{
	for (unsigned i = 0; i < LAUNCHERS; i++) {
		pid_t tid = atomic_load(&l[i].tid);

		if (!tid || !sleeping(tid))
			return false;
	}
	return true;
}

/* Until the queue is full behind the gate and every launcher sleeps on it
 * (20 s at most: the launches still verify if it never happens). */
static void wait_queue_full(struct launcher *l, _Atomic unsigned *returned)
{
	struct timespec pause = {0, 1000000};

	for (int i = 0; i < 20000; i++) {
		/* Twice, a pause apart: a launcher may sleep briefly on the lock
		 * before reaching the full-queue wait. */
		if (atomic_load(returned) >= QUEUE_DEPTH - 1 && all_sleeping(l)) {
			nanosleep(&pause, NULL);
			if (all_sleeping(l))
				return;
		}
		nanosleep(&pause, NULL);
	}
}

static void run_round(uint32_t *cells, uint64_t *stamp)
{
	struct launcher l[LAUNCHERS];
	_Atomic unsigned returned = 0;
	_Atomic int open = 0;
	uint64_t clock = 0;
	struct timespec limit;

	memset(cells, 0, sizeof(*cells) * CELLS * LAUNCHERS * LAUNCHES);
	memset(stamp, 0xff, sizeof(*stamp) * LAUNCHERS * LAUNCHES);
	assert_int_equal(EMU_LAUNCH(gate, emu_dim3(1, 1, 1), emu_dim3(1, 1, 1), 0, &open),
			 cudaSuccess);
	for (unsigned i = 0; i < LAUNCHERS; i++) {
		l[i] = (struct launcher){.index = i,
					 .cells = cells,
					 .clock = &clock,
					 .stamp = stamp,
					 .returned = &returned,
					 .error = cudaSuccess};
		assert_int_equal(pthread_create(&l[i].thread, NULL, launch_all, &l[i]), 0);
	}
	wait_queue_full(l, &returned);
	atomic_store(&open, 1);
	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += 30;
	for (unsigned i = 0; i < LAUNCHERS; i++) {
		if (pthread_timedjoin_np(l[i].thread, NULL, &limit) != 0)
			fail_msg("launcher %u did not finish: the stream lost a launch", i);
		assert_int_equal(l[i].error, cudaSuccess);
	}
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);

	for (size_t c = 0; c < (size_t)CELLS * LAUNCHERS * LAUNCHES; c++)
		if (cells[c] != 1)
			fail_msg("launch %zu, cell %zu ran %u times", c / CELLS, c % CELLS,
				 cells[c]);
	assert_int_equal(clock, (uint64_t)LAUNCHERS * LAUNCHES);
	/* Each launcher's launches ran in the order it made them. */
	for (unsigned i = 0; i < LAUNCHERS; i++)
		for (unsigned k = 1; k < LAUNCHES; k++)
			assert_true(stamp[i * LAUNCHES + k - 1] < stamp[i * LAUNCHES + k]);
}

static void test_concurrent_launchers(void **state)
{
	uint32_t *cells = malloc(sizeof(*cells) * CELLS * LAUNCHERS * LAUNCHES);
	uint64_t *stamp = malloc(sizeof(*stamp) * LAUNCHERS * LAUNCHES);

	assert_non_null(cells);
	assert_non_null(stamp);
	for (int r = 0; r < ROUNDS; r++)
		run_round(cells, stamp);
	free(cells);
	free(stamp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_concurrent_launchers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
