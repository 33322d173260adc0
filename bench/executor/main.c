// SPDX-License-Identifier: MIT
/*
 * bench-executor - what does running a kernel through emu-gpu cost when
 * nothing faults?
 *
 * The stream workload's triad kernel (z = 3x + y on floats, one thread per
 * element, CTAs of 256 threads) over ordinary memory, timed from launch to the
 * return of cudaDeviceSynchronize() with emu-gpu's configured worker pool
 * (UVMEMU_SMS etc. apply), against the same loop in plain C on one thread and
 * split over one thread per core. The repetitions of the three alternate, so
 * that load from other processes falls on all alike; each variant is reported
 * by its fastest repetition and its median.
 *
 * Runs natively only (under libuvmemu.so the arrays would still be ordinary
 * memory, but the runtime's own threads would share the cores).
 *
 * The last line is executor_overhead=<emu-gpu time / best plain-C time>, from
 * the fastest repetitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plain.h"
#include "triad.h"

#define DEFAULT_MB   96
#define DEFAULT_REPS 30

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct series {
	char name[40];
	double *t;
	double best, median;
};

static void summarise(struct series *s, long reps, size_t bytes)
{
	qsort(s->t, (size_t)reps, sizeof(double), cmp_double);
	s->best = s->t[0];
	s->median = s->t[reps / 2];
	printf("%-22s best %8.3f ms (%6.2f GB/s)  median %8.3f ms\n", s->name, s->best * 1e3,
	       (double)bytes / s->best / 1e9, s->median * 1e3);
}

static cudaError_t triad_emugpu(const struct triad_arrays *t)
{
	unsigned grid = (unsigned)((t->n + STREAM_THREADS - 1) / STREAM_THREADS);
	cudaError_t e =
	    EMU_LAUNCH(stream_triad, emu_dim3(grid, 1, 1), emu_dim3(STREAM_THREADS, 1, 1), 0, t->x,
		       t->y, t->z, (int64_t)t->n);

	return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

static bool correct(const struct triad_arrays *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->z[i] != STREAM_SCALAR * t->x[i] + t->y[i]) {
			fprintf(stderr, "bench-executor: z[%zu] is wrong\n", i);
			return false;
		}
	return true;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench-executor [--mb TOTAL_MB] [--reps N]\n"
		"  --mb    total size of the three arrays in MiB (default %d)\n"
		"  --reps  timed repetitions of each variant (default %d)\n",
		DEFAULT_MB, DEFAULT_REPS);
	exit(2);
}

int main(int argc, char **argv)
{
	long mb = DEFAULT_MB, reps = DEFAULT_REPS, cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct series emu = {.name = "emu-gpu"}, one = {.name = "plain C, 1 thread"};
	struct series all = {.name = ""};
	struct triad_pool *pool = NULL;
	struct triad_arrays t = {0};
	float *x = NULL, *y = NULL, *z = NULL;
	struct emu_info info;
	size_t bytes;
	int rc = 1;

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--mb") == 0)
			mb = strtol(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--reps") == 0)
			reps = strtol(argv[++i], NULL, 10);
		else
			usage();
	}
	if (mb < 1 || mb > (1 << 20) || reps < 1 || reps > 100000)
		usage();
	if (uvmemu_is_emulated()) {
		fprintf(stderr, "bench-executor: run it natively, not under uvmemu run\n");
		return 2;
	}
	if (cores < 1)
		cores = 1;
	snprintf(all.name, sizeof(all.name), "plain C, %ld threads", cores);
	t.n = (size_t)mb * (1u << 20) / (3 * sizeof(float));
	bytes = 3 * t.n * sizeof(float);
	x = malloc(t.n * sizeof(float));
	y = malloc(t.n * sizeof(float));
	z = malloc(t.n * sizeof(float));
	emu.t = calloc((size_t)reps, sizeof(double));
	one.t = calloc((size_t)reps, sizeof(double));
	all.t = calloc((size_t)reps, sizeof(double));
	if (!x || !y || !z || !emu.t || !one.t || !all.t ||
	    triad_pool_create(&pool, (unsigned)cores)) {
		fprintf(stderr, "bench-executor: out of memory\n");
		goto out;
	}
	for (size_t i = 0; i < t.n; i++) {
		x[i] = (float)(i % 1000);
		y[i] = 0.5f;
	}
	memset(z, 0, t.n * sizeof(float));
	t.x = x;
	t.y = y;
	t.z = z;

	/* Warm-up: starts emu-gpu's workers and checks the kernel's result. */
	if (triad_emugpu(&t) != cudaSuccess || !correct(&t)) {
		fprintf(stderr, "bench-executor: the emu-gpu triad failed\n");
		goto out;
	}
	emu_get_info(&info);
	printf("bench-executor: stream triad over 3 x %zu floats (%.1f MB), %ld reps, %ld cores\n",
	       t.n, (double)bytes / 1e6, reps, cores);
	printf("emu-gpu: %u SMs x %u CTAs/SM = %u workers, %d threads per CTA, dispatch %s%s\n",
	       info.sms, info.ctas_per_sm, info.workers, STREAM_THREADS, info.dispatch,
	       info.pinned ? ", pinned" : "");
	for (long r = 0; r < reps; r++) {
		double t0 = now_s();

		if (triad_emugpu(&t) != cudaSuccess)
			goto out;
		emu.t[r] = now_s() - t0;
		t0 = now_s();
		triad_plain(&t);
		one.t[r] = now_s() - t0;
		t0 = now_s();
		triad_pool_run(pool, &t);
		all.t[r] = now_s() - t0;
	}
	if (!correct(&t))
		goto out;
	summarise(&emu, reps, bytes);
	summarise(&one, reps, bytes);
	summarise(&all, reps, bytes);
	/* The medians show how much of the time other load took; the verdict
	 * compares the fastest repetitions. */
	printf("median ratio %.3f\n",
	       emu.median / (one.median < all.median ? one.median : all.median));
	printf("executor_overhead=%.3f\n", emu.best / (one.best < all.best ? one.best : all.best));
	rc = 0;
out:
	if (pool)
		triad_pool_destroy(pool);
	free(x);
	free(y);
	free(z);
	free(emu.t);
	free(one.t);
	free(all.t);
	return rc;
}
