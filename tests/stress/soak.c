// SPDX-License-Identifier: MIT
/*
 * soak - a uffd-stress-style data check of the memory system (the idea of
 * Linux's tools/testing/selftests/mm/uffd-stress.c; our own program).
 *
 *   soak [--seconds S] [--seed N] [--mb M] [--buffers B] [--threads T]
 *        [--stride W]
 *
 * B managed buffers of 64-bit words (M MB in all). In every round each word
 * is checked against the value its round predicts and given the next one, by
 * one of T host threads or by a GPU kernel (emu-gpu): word i belongs to owner
 * (i / W) % (T + 1), owner T being the GPU, so host threads and kernels work
 * on the same pages at the same time. Between rounds a seeded random choice
 * of cudaMemPrefetchAsync to the device or to the host, cudaMemAdvise
 * (read-mostly, preferred location, accessed-by, set and unset), freeing a
 * buffer and allocating it again (refilled by the CPU or by a kernel), and
 * whole-buffer checks by the CPU or the GPU. A value that is not the one
 * predicted is a lost word. The policies, the backend and the device memory
 * come from the emulator's options (bench/soak picks them at random).
 *
 * Last line: "soak: ... words checked C, words lost L"; exit 1 when L > 0.
 * The counts also go to the report (workload.words_checked, words_lost).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emugpu.h"

#define MAX_BUFFERS 16
#define MAX_THREADS 16

static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The value word i holds after `round` rounds of a buffer keyed `key`. */
static inline uint64_t expect(uint64_t key, uint64_t i, uint64_t round)
{
	return mix(key ^ (i * 0x9e3779b97f4a7c15ull)) + round * 0x2545f4914f6cdd1dull;
}

struct round_args {
	uint64_t *w;
	uint64_t n, key, round; /* round > 0: check round - 1, write round */
	uint64_t stride, owners;
	uint64_t only_check;		  /* 1: check `round`, write nothing */
	_Atomic uint64_t *checked, *lost; /* plain host memory */
};

EMU_KERNEL(soak_round, struct round_args)
{
	uint64_t checked = 0, lost = 0;

	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i >= args->n)
			EMU_RETURN;
		if (args->only_check) {
			lost += args->w[i] != expect(args->key, i, args->round);
			checked++;
			EMU_RETURN;
		}
		if ((i / args->stride) % args->owners != args->owners - 1)
			EMU_RETURN;
		if (args->round > 0) {
			lost += args->w[i] != expect(args->key, i, args->round - 1);
			checked++;
		}
		args->w[i] = expect(args->key, i, args->round);
	}
	if (checked)
		atomic_fetch_add(args->checked, checked);
	if (lost)
		atomic_fetch_add(args->lost, lost);
}

struct buffer {
	uint64_t *w;
	uint64_t n, key, round;
};

static struct soak {
	struct buffer buf[MAX_BUFFERS];
	unsigned nbuf, threads;
	uint64_t stride, max_words, seed, rng;
	_Atomic uint64_t checked, lost;
	uint64_t rounds, kernels, actions[8];
	pthread_barrier_t start, end;
	_Atomic bool stop;
} s;

static uint64_t rnd(uint64_t below)
{
	s.rng = mix(s.rng + 0x9e3779b97f4a7c15ull);
	return below ? s.rng % below : 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, cudaError_t e)
{
	fprintf(stderr, "soak: %s: %s\n", what, cudaGetErrorName(e));
	exit(2);
}

static void note_lost(const char *who, unsigned b, uint64_t i, uint64_t got, uint64_t want)
{
	static _Atomic int shown;

	if (atomic_fetch_add(&shown, 1) < 10)
		fprintf(stderr, "soak: lost word: %s, buffer %u word %llu: %#llx, not %#llx\n", who,
			b, (unsigned long long)i, (unsigned long long)got,
			(unsigned long long)want);
}

static void launch(struct buffer *b, bool only_check)
{
	struct round_args a = {b->w,	      b->n,	  b->key,     b->round, s.stride,
			       s.threads + 1, only_check, &s.checked, &s.lost};
	cudaError_t e = emu_launch(&soak_round, emu_dim3((unsigned)((b->n + 255) / 256), 1, 1),
				   emu_dim3(256, 1, 1), 0, &a);

	if (e != cudaSuccess)
		die("launch", e);
	s.kernels++;
}

/* Host thread t: its words of every buffer, each round. */
static void *host_main(void *arg)
{
	uint64_t t = (uint64_t)(uintptr_t)arg;

	for (;;) {
		uint64_t checked = 0, lost = 0;

		pthread_barrier_wait(&s.start);
		if (atomic_load(&s.stop))
			return NULL;
		for (unsigned k = 0; k < s.nbuf; k++) {
			struct buffer *b = &s.buf[k];
			volatile uint64_t *w = b->w;

			for (uint64_t c = t * s.stride; c < b->n; c += (s.threads + 1) * s.stride) {
				uint64_t end = c + s.stride < b->n ? c + s.stride : b->n;

				for (uint64_t i = c; i < end; i++) {
					uint64_t want = expect(b->key, i, b->round - 1), got = w[i];

					if (got != want) {
						lost++;
						note_lost("host thread", k, i, got, want);
					}
					w[i] = expect(b->key, i, b->round);
					checked++;
				}
			}
		}
		atomic_fetch_add(&s.checked, checked);
		atomic_fetch_add(&s.lost, lost);
		pthread_barrier_wait(&s.end);
	}
}

static void check_all_on_cpu(unsigned k)
{
	struct buffer *b = &s.buf[k];
	uint64_t lost = 0;

	for (uint64_t i = 0; i < b->n; i++) {
		uint64_t want = expect(b->key, i, b->round);

		if (b->w[i] != want) {
			lost++;
			note_lost("CPU check", k, i, b->w[i], want);
			b->w[i] = want;
		}
	}
	atomic_fetch_add(&s.checked, b->n);
	atomic_fetch_add(&s.lost, lost);
}

/* A new buffer (or a freed one again): filled with round 0. */
static void allocate(unsigned k)
{
	struct buffer *b = &s.buf[k];
	cudaError_t e;

	b->n = s.max_words / 2 + rnd(s.max_words / 2) + 1;
	b->key = mix(s.seed ^ (k + 1) ^ (rnd(UINT32_MAX) << 32));
	b->round = 0;
	e = cudaMallocManaged((void **)&b->w, b->n * 8, cudaMemAttachGlobal);
	if (e != cudaSuccess)
		die("cudaMallocManaged", e);
	if (rnd(2)) {
		for (uint64_t i = 0; i < b->n; i++)
			b->w[i] = expect(b->key, i, 0);
	} else {
		/* Every word from the GPU: all of them one "owner". */
		uint64_t stride = s.stride, owners = s.threads;

		s.stride = 1;
		s.threads = 0;
		launch(b, false);
		s.stride = stride;
		s.threads = (unsigned)owners;
		if ((e = cudaDeviceSynchronize()) != cudaSuccess)
			die("fill", e);
	}
}

static void range_of(const struct buffer *b, void **p, size_t *len)
{
	uint64_t first = rnd(b->n), n = 1 + rnd(b->n - first);

	*p = b->w + first;
	*len = n * 8;
}

/* One random action between rounds (nothing runs meanwhile). */
static void between_rounds(void)
{
	static const enum cudaMemoryAdvise advice[] = {
	    cudaMemAdviseSetReadMostly,	       cudaMemAdviseUnsetReadMostly,
	    cudaMemAdviseSetPreferredLocation, cudaMemAdviseUnsetPreferredLocation,
	    cudaMemAdviseSetAccessedBy,	       cudaMemAdviseUnsetAccessedBy,
	};
	unsigned k = (unsigned)rnd(s.nbuf), what = (unsigned)rnd(8);
	struct buffer *b = &s.buf[k];
	cudaError_t e = cudaSuccess;
	size_t len;
	void *p;

	s.actions[what]++;
	range_of(b, &p, &len);
	switch (what) {
	case 0: /* prefetch to the device */
		e = cudaMemPrefetchAsync(p, len, 0, NULL);
		break;
	case 1: /* prefetch to the host */
		e = cudaMemPrefetchAsync(p, len, cudaCpuDeviceId, NULL);
		break;
	case 2:
	case 3: /* advice */
		e = cudaMemAdvise(p, len, advice[rnd(6)], rnd(2) ? 0 : cudaCpuDeviceId);
		break;
	case 4: /* free it (the device waits) and allocate it again */
		e = cudaFree(b->w);
		if (e == cudaSuccess)
			allocate(k);
		break;
	case 5: /* every word, on the CPU */
		check_all_on_cpu(k);
		break;
	case 6: /* every word, on the GPU */
		launch(b, true);
		e = cudaDeviceSynchronize();
		break;
	default: /* nothing: rounds back to back */
		break;
	}
	if (e != cudaSuccess)
		die("an action between rounds", e);
}

static void round_once(void)
{
	cudaError_t e;

	for (unsigned k = 0; k < s.nbuf; k++)
		s.buf[k].round++;
	pthread_barrier_wait(&s.start);
	for (unsigned k = 0; k < s.nbuf; k++)
		launch(&s.buf[k], false);
	e = cudaDeviceSynchronize();
	pthread_barrier_wait(&s.end);
	if (e != cudaSuccess)
		die("a round's kernels", e);
	s.rounds++;
}

static uint64_t arg(int argc, char **argv, const char *name, uint64_t def)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return strtoull(argv[i + 1], NULL, 0);
	return def;
}

int main(int argc, char **argv)
{
	double seconds = (double)arg(argc, argv, "--seconds", 10), t0 = now_s();
	uint64_t mb = arg(argc, argv, "--mb", 64);
	pthread_t th[MAX_THREADS];

	s.seed = arg(argc, argv, "--seed", 1);
	s.rng = s.seed;
	s.nbuf = (unsigned)arg(argc, argv, "--buffers", 4);
	s.threads = (unsigned)arg(argc, argv, "--threads", 2);
	s.stride = arg(argc, argv, "--stride", 8);
	if (!s.nbuf || s.nbuf > MAX_BUFFERS || s.threads > MAX_THREADS || !s.stride || !mb) {
		fprintf(stderr,
			"usage: soak [--seconds S] [--seed N] [--mb M] [--buffers 1..%d] "
			"[--threads 0..%d] [--stride W>0]\n",
			MAX_BUFFERS, MAX_THREADS);
		return 2;
	}
	s.max_words = (mb << 20) / 8 / s.nbuf * 4 / 3; /* sizes average mb / nbuf */
	for (unsigned k = 0; k < s.nbuf; k++)
		allocate(k);
	pthread_barrier_init(&s.start, NULL, s.threads + 1);
	pthread_barrier_init(&s.end, NULL, s.threads + 1);
	for (unsigned t = 0; t < s.threads; t++)
		pthread_create(&th[t], NULL, host_main, (void *)(uintptr_t)t);
	uvmemu_roi_begin();
	while (now_s() - t0 < seconds) {
		round_once();
		between_rounds();
	}
	uvmemu_roi_end();
	atomic_store(&s.stop, true);
	pthread_barrier_wait(&s.start);
	for (unsigned t = 0; t < s.threads; t++)
		pthread_join(th[t], NULL);
	for (unsigned k = 0; k < s.nbuf; k++) {
		check_all_on_cpu(k);
		cudaFree(s.buf[k].w);
	}
	uvmemu_report_value("words_checked", (double)atomic_load(&s.checked));
	uvmemu_report_value("words_lost", (double)atomic_load(&s.lost));
	uvmemu_set_verify(atomic_load(&s.lost) ? UVMEMU_VERIFY_FAIL : UVMEMU_VERIFY_PASS);
	printf("soak: seed %llu, %.1f s, %llu rounds, %llu kernels, %llu prefetches, %llu "
	       "advice, %llu reallocations, words checked %llu, words lost %llu\n",
	       (unsigned long long)s.seed, now_s() - t0, (unsigned long long)s.rounds,
	       (unsigned long long)s.kernels, (unsigned long long)(s.actions[0] + s.actions[1]),
	       (unsigned long long)(s.actions[2] + s.actions[3]), (unsigned long long)s.actions[4],
	       (unsigned long long)atomic_load(&s.checked),
	       (unsigned long long)atomic_load(&s.lost));
	return atomic_load(&s.lost) ? 1 : 0;
}
