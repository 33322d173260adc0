// SPDX-License-Identifier: MIT
/*
 * bench-executor - what does running a kernel through emu-gpu cost when
 * nothing faults?
 *
 * Three kernels, each through emu-gpu's configured worker pool (UVMEMU_SMS
 * etc. apply) and as plain C on one thread and on one thread per core:
 *
 *   triad    memory-bound: the stream workload's kernel;
 *   sgemm    compute-bound: register-tiled matrix product;
 *   stencil  shared memory and barriers: a hotspot-like pyramid stencil.
 *
 * A repetition runs the three variants one after the other, and repetitions
 * alternate, so that load from other processes falls on all alike. emu-gpu
 * is timed from the first launch to the return of cudaDeviceSynchronize().
 * Each variant is reported by its fastest and its median repetition; a
 * kernel's figure is emu-gpu's median over the better of the two plain-C
 * medians (medians, because a best time can be one lucky repetition). Both
 * sides' results are checked exactly before and after the timed part.
 *
 * Each repetition also takes the CPU time the whole process used (every
 * thread, getrusage): on a machine shared with other work, wall time mostly
 * measures the others, while CPU time still says how much work each variant
 * did; its median ratio is printed beside the wall-time one.
 *
 * "One thread per core" counts the cores this process may run on (its
 * affinity mask, as emu-gpu counts its main workers), so that a run under
 * `taskset -c 0,1` compares two threads with two workers.
 *
 * Runs natively only (under libuvmemu.so the arrays would still be ordinary
 * memory, but the runtime's own threads would share the cores).
 *
 * The last line is executor_overhead=<the largest of the kernels' figures>.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench.h"
#include "pool.h"

#define DEFAULT_REPS 20

static const struct bench_kernel *const kernels[] = {&bench_triad, &bench_sgemm, &bench_stencil};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of every thread of the process so far, user and system. */
static double cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* The cores this process may run on. */
static long usable_cores(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct series {
	char name[40];
	double *t, *cpu; /* wall and CPU time of each repetition */
	double best, median, cpu_median;
};

static double median_of(double *v, long n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void summarise(struct series *s, long reps)
{
	s->median = median_of(s->t, reps);
	s->best = s->t[0];
	s->cpu_median = median_of(s->cpu, reps);
	printf("  %-20s best %9.3f ms  median %9.3f ms  cpu median %9.3f ms\n", s->name,
	       s->best * 1e3, s->median * 1e3, s->cpu_median * 1e3);
}

bool bench_same_matrix(const float *got, const float *want, size_t n, const char *what)
{
	for (size_t i = 0; i < n * n; i++)
		if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
			fprintf(stderr, "bench-executor: %s[%zu][%zu] is wrong\n", what, i / n,
				i % n);
			return false;
		}
	return true;
}

/* The plain-C variants: every phase, on this thread or on the pool. */
struct plain_run {
	const struct bench_kernel *k;
	void *state;
	unsigned phase;
};

static void plain_part(void *ctx, unsigned part, unsigned nparts)
{
	struct plain_run *r = ctx;

	r->k->plain(r->state, r->phase, part, nparts);
}

static unsigned phases(const struct bench_kernel *k)
{
	return k->phases ? k->phases : 1;
}

static void plain_one(const struct bench_kernel *k, void *state)
{
	for (unsigned p = 0; p < phases(k); p++)
		k->plain(state, p, 0, 1);
}

static void plain_all(const struct bench_kernel *k, void *state, struct pool *pool)
{
	struct plain_run r = {k, state, 0};

	for (r.phase = 0; r.phase < phases(k); r.phase++)
		pool_run(pool, plain_part, &r);
}

/* emu-gpu's result, checked: the output is cleared first. */
static bool emu_checked(const struct bench_kernel *k, void *state)
{
	cudaError_t e;

	k->clear(state);
	e = k->emu(state);
	if (e != cudaSuccess) {
		fprintf(stderr, "bench-executor: %s: the emu-gpu run failed: %s\n", k->name,
			cudaGetErrorString(e));
		return false;
	}
	return k->check(state);
}

/* Times one kernel; its figure goes to *ratio and the better plain-C
 * variant's name to *versus. 0, or -1 after a failure (reported). */
static int bench_kernel(const struct bench_kernel *k, long reps, long cores, struct pool *pool,
			double *ratio, const char **versus)
{
	struct series s[3] = {{.name = "emu-gpu"}, {.name = "plain C, 1 thread"}, {.name = ""}};
	void *state = NULL;
	char what[200];
	int rc = -1, err;

	snprintf(s[2].name, sizeof(s[2].name), "plain C, %ld threads", cores);
	err = k->setup(&state);
	if (err) {
		fprintf(stderr, "bench-executor: %s: setup failed: %s\n", k->name, strerror(-err));
		return -1;
	}
	for (int v = 0; v < 3; v++) {
		s[v].t = calloc((size_t)reps, sizeof(double));
		s[v].cpu = calloc((size_t)reps, sizeof(double));
		if (!s[v].t || !s[v].cpu) {
			fprintf(stderr, "bench-executor: out of memory\n");
			goto out;
		}
	}
	k->describe(state, what, sizeof(what));
	printf("%s (%s): %s\n", k->name, k->kind, what);
	fflush(stdout);
	/* Warm-up, untimed: caches, first touches, and a checked result. */
	if (!emu_checked(k, state))
		goto out;
	k->clear(state);
	plain_one(k, state);
	if (!k->check(state))
		goto out;
	k->clear(state);
	plain_all(k, state, pool);
	if (!k->check(state))
		goto out;
	for (long r = 0; r < reps; r++) {
		double t0 = now_s(), c0 = cpu_s();

		if (k->emu(state) != cudaSuccess)
			goto out;
		s[0].t[r] = now_s() - t0;
		s[0].cpu[r] = cpu_s() - c0;
		t0 = now_s();
		c0 = cpu_s();
		plain_one(k, state);
		s[1].t[r] = now_s() - t0;
		s[1].cpu[r] = cpu_s() - c0;
		t0 = now_s();
		c0 = cpu_s();
		plain_all(k, state, pool);
		s[2].t[r] = now_s() - t0;
		s[2].cpu[r] = cpu_s() - c0;
	}
	if (!emu_checked(k, state))
		goto out;
	for (int v = 0; v < 3; v++)
		summarise(&s[v], reps);
	{
		int better = s[1].median < s[2].median ? 1 : 2;

		*ratio = s[0].median / s[better].median;
		*versus = better == 1 ? "plain C, 1 thread" : "plain C, one thread per core";
		printf("  median ratio %.3f (emu-gpu / %s), cpu median ratio %.3f\n", *ratio,
		       *versus, s[0].cpu_median / s[better].cpu_median);
	}
	rc = 0;
out:
	for (int v = 0; v < 3; v++) {
		free(s[v].t);
		free(s[v].cpu);
	}
	k->teardown(state);
	return rc;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench-executor [--reps N] [--kernel NAME]\n"
		"  --reps    timed repetitions of each variant (default %d, 3 to 100000)\n"
		"  --kernel  run one kernel: triad, sgemm, stencil (default: all three)\n",
		DEFAULT_REPS);
	exit(2);
}

static long parse_reps(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 3 || v > 100000) {
		fprintf(stderr, "bench-executor: --reps: '%s' is not a count from 3 to 100000\n",
			s);
		exit(2);
	}
	return v;
}

static const struct bench_kernel *parse_kernel(const char *s)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (strcmp(s, kernels[i]->name) == 0)
			return kernels[i];
	fprintf(stderr,
		"bench-executor: --kernel: unknown '%s' (accepted: triad, sgemm, stencil)\n", s);
	exit(2);
}

int main(int argc, char **argv)
{
	long reps = DEFAULT_REPS, cores = usable_cores();
	const struct bench_kernel *only = NULL;
	double worst = 0;
	const char *worst_name = NULL, *worst_versus = NULL;
	struct pool *pool = NULL;
	struct emu_info info;
	int rc = 1;

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--reps") == 0)
			reps = parse_reps(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--kernel") == 0)
			only = parse_kernel(argv[++i]);
		else
			usage();
	}
	if (uvmemu_is_emulated()) {
		fprintf(stderr, "bench-executor: run it natively, not under uvmemu run\n");
		return 2;
	}
	if (pool_create(&pool, (unsigned)cores)) {
		fprintf(stderr, "bench-executor: cannot start %ld threads\n", cores);
		return 1;
	}
	emu_get_info(&info);
	printf("bench-executor: %ld cores, %ld alternating repetitions; emu-gpu: %u SMs x %u "
	       "CTAs/SM = %u workers (%u run every kernel), dispatch %s%s\n",
	       cores, reps, info.sms, info.ctas_per_sm, info.workers, info.main_workers,
	       info.dispatch, info.pinned ? ", pinned" : "");
	for (size_t i = 0; i < NKERNELS; i++) {
		double ratio;
		const char *versus;

		if (only && only != kernels[i])
			continue;
		if (bench_kernel(kernels[i], reps, cores, pool, &ratio, &versus))
			goto out;
		if (ratio > worst) {
			worst = ratio;
			worst_name = kernels[i]->name;
			worst_versus = versus;
		}
	}
	printf("worst kernel: %s (emu-gpu median / %s median)\n", worst_name, worst_versus);
	printf("executor_overhead=%.3f\n", worst);
	rc = 0;
out:
	pool_destroy(pool);
	return rc;
}
