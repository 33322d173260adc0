// SPDX-License-Identifier: MIT
/*
 * hostthreads - GPU-side faults on host-resident managed data while K other
 * host threads of the same process keep running (experiment 07).
 *
 * Migrating a block to the device unmaps it from the host view first; on
 * Linux that is a TLB shootdown sent to every CPU that currently runs a
 * thread of this address space. The 2024 UVM batch study saw the host-unmap
 * stage grow when the host program was multithreaded (HPGMG with OpenMP
 * about 2x slower than single-threaded); this program isolates the effect:
 *
 *   1. the CPU writes a pattern into every page of `data` (managed), so the
 *      block is host-resident with its host page-table entries populated;
 *   2. K busy threads start, each writing one word per page of its own
 *      memory in a loop (managed memory that stays on the host, or plain
 *      malloc memory: --busy), so they never fault once warmed up but keep
 *      this address space live on other CPUs. The control, --busy process,
 *      runs K busy processes instead: the same load on the CPUs, but in
 *      other address spaces, which no shootdown of ours has to reach;
 *   3. a "kernel" (uvmemu_kernel_begin/end around it) of --gpu-threads
 *      threads reads every page of `data` through the device view, so every
 *      block takes a far fault and migrates host to device;
 *   4. the busy threads stop; the sum read by the GPU side is checked
 *      against the pattern (verify pass/fail in the report).
 *
 * The report's time_s.unmap / blocks_h2d is the host-unmap cost per migrated
 * block; natively the program runs the same steps on plain memory.
 */
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uvmemu.h"
#include "wl.h"

#define PAGE  4096u
#define BLOCK (64u << 10)

struct busy {
	pthread_t thread;
	uint64_t *mem;
	size_t words;
	uint64_t passes;
};

struct gpu {
	pthread_t thread;
	unsigned id, n;
	const uint64_t *dev; /* device view of data */
	size_t words;
	uint64_t sum;
};

static atomic_bool stop_busy;
static atomic_uint busy_ready;

static void *busy_main(void *arg)
{
	struct busy *b = arg;
	const size_t stride = PAGE / sizeof(uint64_t);

	/* Warm up first: every page populated before the GPU phase, so the
	 * loop below never faults and only keeps this CPU in the mm. */
	for (size_t i = 0; i < b->words; i += stride)
		b->mem[i] = i;
	atomic_fetch_add(&busy_ready, 1);
	while (!atomic_load_explicit(&stop_busy, memory_order_relaxed)) {
		for (size_t i = 0; i < b->words; i += stride)
			b->mem[i] += 1;
		b->passes++;
	}
	return NULL;
}

static void *gpu_main(void *arg)
{
	struct gpu *g = arg;
	const size_t per_block = BLOCK / sizeof(uint64_t), blocks = g->words / per_block;
	const size_t stride = PAGE / sizeof(uint64_t);

	uvmemu_worker_register(g->id, 0);
	/* Blocks dealt round-robin, as CTAs of consecutive indexes would be. */
	for (size_t b = g->id; b < blocks; b += g->n)
		for (size_t i = b * per_block; i < (b + 1) * per_block; i += stride)
			g->sum += g->dev[i];
	return NULL;
}

extern char **environ;

/* A busy process (--busy process): the loop of busy_main in an address
 * space of its own, until killed. It was started without the emulator. */
static int busy_child(const char *bytes)
{
	struct busy b = {.words = strtoull(bytes, NULL, 10) / sizeof(uint64_t)};

	b.mem = malloc(b.words * sizeof(uint64_t) + 1);
	if (!b.mem)
		return 1;
	busy_main(&b);
	return 0;
}

/* Starts this program again as a busy process. Its environment has neither
 * LD_PRELOAD nor UVMEMU_* variables: it must not be emulated (nor write
 * over this run's report). */
static pid_t spawn_busy(const struct wl *w, uint64_t bytes)
{
	char self[4096], arg[32], **env;
	char *argv[] = {self, "--busy-child", arg, NULL};
	size_t n = 0, k = 0;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	if (len < 0)
		wl_usage_error(w, "cannot find this program to start busy processes");
	self[len] = '\0';
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)bytes);
	while (environ[n])
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env)
		wl_usage_error(w, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) && strncmp(environ[i], "UVMEMU_", 7))
			env[k++] = environ[i];
	if (posix_spawn(&pid, self, NULL, NULL, argv, env))
		wl_usage_error(w, "cannot start a busy process");
	free(env);
	return pid;
}

static uint64_t pattern(size_t i)
{
	return i * 2654435761u + 7;
}

int main(int argc, char **argv)
{
	long long threads = 0, gpu_threads = 4, blocks = 1024;
	uint64_t busy_bytes = 8u << 20;
	const char *busy_kind = "managed";
	const struct wl_opt opts[] = {
	    {"threads", WL_INT, &threads, 0, 64, "busy host threads K (default 0)"},
	    {"gpu-threads", WL_INT, &gpu_threads, 1, 256,
	     "threads of the GPU-side phase (default 4)"},
	    {"blocks", WL_INT, &blocks, 1, 1 << 20,
	     "64 KB blocks of data migrated (default 1024 = 64 MiB)"},
	    {"busy-bytes", WL_SIZE, &busy_bytes, PAGE, 0,
	     "memory each busy thread writes in a loop (default 8M)"},
	    {"busy", WL_STR, &busy_kind, 0, 0,
	     "busy threads writing managed (host-resident) or plain memory, or busy "
	     "processes (control: no shared address space); default managed"},
	    {NULL},
	};
	const size_t stride = PAGE / sizeof(uint64_t);
	struct uvmemu_launch launch = {.kernel = "read_all"};
	struct busy *busy;
	struct gpu *gpu;
	struct wl w;
	uint64_t *data, want = 0, got = 0, passes = 0;
	size_t words;
	bool managed_busy, processes;
	pid_t *pids;
	uint64_t k;

	if (argc == 3 && strcmp(argv[1], "--busy-child") == 0)
		return busy_child(argv[2]);
	wl_init(&w, "hostthreads",
		"GPU-side faults on host-resident data while K host threads keep running", argc,
		argv, opts);
	if (strcmp(busy_kind, "managed") && strcmp(busy_kind, "plain") &&
	    strcmp(busy_kind, "process"))
		wl_usage_error(&w, "--busy '%s': managed, plain or process", busy_kind);
	managed_busy = strcmp(busy_kind, "managed") == 0;
	processes = strcmp(busy_kind, "process") == 0;
	words = (size_t)blocks * (BLOCK / sizeof(uint64_t));
	data = wl_managed(&w, words * sizeof(uint64_t), "data");
	uvmemu_label(data, "data");
	for (size_t i = 0; i < words; i += stride) {
		data[i] = pattern(i);
		want += pattern(i);
	}
	busy = calloc((size_t)threads + 1, sizeof(*busy));
	gpu = calloc((size_t)gpu_threads, sizeof(*gpu));
	pids = calloc((size_t)threads + 1, sizeof(*pids));
	if (!busy || !gpu || !pids)
		wl_usage_error(&w, "out of memory for %lld threads", threads + gpu_threads);
	for (long long t = 0; processes && t < threads; t++)
		pids[t] = spawn_busy(&w, busy_bytes);
	for (long long t = 0; !processes && t < threads; t++) {
		busy[t].words = busy_bytes / sizeof(uint64_t);
		if (managed_busy) {
			busy[t].mem = wl_managed(&w, busy_bytes, "busy");
			uvmemu_label(busy[t].mem, "busy");
		} else {
			busy[t].mem = malloc(busy_bytes);
			if (!busy[t].mem)
				wl_usage_error(&w, "out of memory for --busy-bytes");
		}
		if (pthread_create(&busy[t].thread, NULL, busy_main, &busy[t]))
			wl_usage_error(&w, "cannot start busy thread %lld", t);
	}
	while (!processes && atomic_load(&busy_ready) < (unsigned)threads) {
		struct timespec ms = {0, 1000000};

		nanosleep(&ms, NULL);
	}
	if (processes) { /* time to start and warm up: far more than needed */
		struct timespec warm = {0, 200000000};

		nanosleep(&warm, NULL);
	}
	wl_footprint(&w, words * sizeof(uint64_t) +
			     (managed_busy ? (uint64_t)threads * busy_bytes : 0));
	uvmemu_report_value("threads", (double)threads);
	uvmemu_report_value("gpu_threads", (double)gpu_threads);
	uvmemu_report_value("blocks", (double)blocks);

	uvmemu_roi_begin();
	launch.grid = (dim3){(unsigned)gpu_threads, 1, 1};
	launch.block = (dim3){1, 1, 1};
	k = uvmemu_kernel_begin(&launch);
	for (long long t = 0; t < gpu_threads; t++) {
		gpu[t] = (struct gpu){.id = (unsigned)t,
				      .n = (unsigned)gpu_threads,
				      .dev = uvmemu_device_ptr(data),
				      .words = words};
		if (pthread_create(&gpu[t].thread, NULL, gpu_main, &gpu[t]))
			wl_usage_error(&w, "cannot start GPU-side thread %lld", t);
	}
	for (long long t = 0; t < gpu_threads; t++) {
		pthread_join(gpu[t].thread, NULL);
		got += gpu[t].sum;
	}
	uvmemu_kernel_end(k);
	uvmemu_roi_end();

	atomic_store(&stop_busy, true);
	for (long long t = 0; t < threads; t++) {
		if (processes) {
			kill(pids[t], SIGKILL);
			waitpid(pids[t], NULL, 0);
			continue;
		}
		pthread_join(busy[t].thread, NULL);
		passes += busy[t].passes;
	}
	uvmemu_report_value("busy_passes", (double)passes);
	wl_log(&w,
	       "%lld blocks read by %lld GPU-side threads, %lld busy host threads (%s memory, "
	       "%llu passes)",
	       blocks, gpu_threads, threads, busy_kind, (unsigned long long)passes);
	if (got != want)
		fprintf(stderr, "hostthreads: the GPU side read sum %llu, the data holds %llu\n",
			(unsigned long long)got, (unsigned long long)want);
	return wl_finish(&w, got == want);
}
