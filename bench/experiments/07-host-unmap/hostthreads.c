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
 *   4. the same threads read `data` again REREADS times, now resident on
 *      the device: the same loads, with no fault and no unmap;
 *   5. the busy threads stop; every sum read by the GPU side is checked
 *      against the pattern (verify pass/fail in the report).
 *
 * --placement split keeps the program's own threads (the emulator's, the GPU
 * side) on one CPU and the busy side on the others (cpus.h), so that, as on
 * a GPU machine, only the busy threads put other CPUs in the shootdown set.
 *
 * The report's time_s.unmap / blocks_h2d is the host-unmap cost per migrated
 * block: the unmapping side of a shootdown. The other side is what the busy
 * threads lose: their passes per second of their own CPU time while blocks
 * migrate (step 3, busy_rate_migrating) and while the same loads find them
 * resident (step 4, busy_rate_resident). Per CPU second, so that sharing
 * the cores does not count, and against the same loads, so that the GPU
 * side's memory traffic does not either: what is left is what the unmaps
 * and faults cost them. Natively the program runs the same steps on plain
 * memory.
 */
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpus.h"
#include "uvmemu.h"
#include "wl.h"

#define PAGE	    4096u
#define BLOCK	    (64u << 10)
#define REREADS	    4
#define REREADS_MAX 4096

/* What a busy thread or process has done: published after each pass, in a
 * memfd shared with busy processes, so the two kinds are read alike. */
struct busy_count {
	_Atomic uint64_t passes, cpu_ns;
	_Atomic int cpu; /* where its last pass ended, to check --placement */
};

struct busy {
	pthread_t thread;
	uint64_t *mem;
	size_t words;
	struct busy_count *count;
};

/* The busy threads' passes and CPU time, summed, at one moment. */
struct busy_sample {
	uint64_t passes, cpu_ns;
};

struct gpu {
	pthread_t thread;
	unsigned id, n;
	const uint64_t *dev; /* device view of data */
	size_t words;
	uint64_t sum;
	int cpu; /* where it ended, to check --placement */
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
	for (uint64_t n = 1; !atomic_load_explicit(&stop_busy, memory_order_relaxed); n++) {
		struct timespec ts;

		for (size_t i = 0; i < b->words; i += stride)
			b->mem[i] += 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		atomic_store_explicit(&b->count->cpu_ns,
				      (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec,
				      memory_order_relaxed);
		atomic_store_explicit(&b->count->cpu, sched_getcpu(), memory_order_relaxed);
		/* release: whoever sees this pass sees its CPU */
		atomic_store_explicit(&b->count->passes, n, memory_order_release);
	}
	return NULL;
}

static struct busy_sample busy_sample(const struct busy_count *count, long long n)
{
	struct busy_sample s = {0};

	for (long long t = 0; t < n; t++) {
		s.passes += atomic_load_explicit(&count[t].passes, memory_order_relaxed);
		s.cpu_ns += atomic_load_explicit(&count[t].cpu_ns, memory_order_relaxed);
	}
	return s;
}

/* n counters in a memfd that busy processes inherit (its fd is passed on
 * their command line). */
static struct busy_count *busy_counts(struct wl *w, long long n, int *fd)
{
	size_t len = (size_t)(n + 1) * sizeof(struct busy_count);
	void *p;

	*fd = memfd_create("hostthreads-busy", 0); /* no CLOEXEC: children map it */
	if (*fd < 0 || ftruncate(*fd, (off_t)len))
		wl_usage_error(w, "cannot make the busy counters' memfd");
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED)
		wl_usage_error(w, "cannot map the busy counters");
	return p;
}

/* Passes per second of the busy threads' own CPU time between a and b; -1
 * when no pass ended between them (a busy process the scheduler did not run
 * during a short phase): then nothing was measured, which is not a rate of 0. */
static double busy_rate(struct busy_sample a, struct busy_sample b)
{
	return b.passes > a.passes && b.cpu_ns > a.cpu_ns
		   ? (double)(b.passes - a.passes) * 1e9 / (double)(b.cpu_ns - a.cpu_ns)
		   : -1;
}

/* Reports a rate only when it was measured, so that a table's median never
 * takes an unmeasured phase for a busy side that stopped; returns it as the
 * log says it, in text. */
static const char *report_rate(const char *name, double rate, char *text, size_t len)
{
	if (rate < 0)
		return "not measured (no pass ended)";
	uvmemu_report_value(name, rate);
	snprintf(text, len, "%.0f", rate);
	return text;
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
	g->cpu = sched_getcpu();
	return NULL;
}

/* One "kernel" of gpu_threads threads reading every page of data through the
 * device view; returns their sum. */
static uint64_t read_phase(struct wl *w, struct gpu *gpu, long long gpu_threads, uint64_t *data,
			   size_t words)
{
	struct uvmemu_launch launch = {.kernel = "read_all"};
	uint64_t k, got = 0;

	launch.grid = (dim3){(unsigned)gpu_threads, 1, 1};
	launch.block = (dim3){1, 1, 1};
	k = uvmemu_kernel_begin(&launch);
	for (long long t = 0; t < gpu_threads; t++) {
		gpu[t] = (struct gpu){.id = (unsigned)t,
				      .n = (unsigned)gpu_threads,
				      .dev = uvmemu_device_ptr(data),
				      .words = words};
		if (pthread_create(&gpu[t].thread, NULL, gpu_main, &gpu[t]))
			wl_usage_error(w, "cannot start GPU-side thread %lld", t);
	}
	for (long long t = 0; t < gpu_threads; t++) {
		pthread_join(gpu[t].thread, NULL);
		got += gpu[t].sum;
	}
	uvmemu_kernel_end(k);
	return got;
}

/* Whether every GPU-side thread ended on the program's CPUs and every busy
 * thread or process ended its last pass on the busy ones (always, under
 * --placement shared). */
static bool placement_held(const struct cpus *c, const struct gpu *gpu, long long gpu_threads,
			   const struct busy_count *count, long long threads)
{
	bool ok = true;

	for (long long t = 0; t < gpu_threads; t++)
		ok &= cpus_held(c, false, gpu[t].cpu);
	for (long long t = 0; t < threads; t++) /* one that has not passed yet: not seen */
		ok &= atomic_load(&count[t].passes) == 0 ||
		      cpus_held(c, true, atomic_load(&count[t].cpu));
	return ok;
}

extern char **environ;

/* A busy process (--busy process): the loop of busy_main in an address
 * space of its own, until killed. It was started without the emulator. */
static int busy_child(const char *bytes, const char *fd, const char *index)
{
	struct busy b = {.words = strtoull(bytes, NULL, 10) / sizeof(uint64_t)};
	size_t i = strtoull(index, NULL, 10), len = (i + 1) * sizeof(struct busy_count);
	struct busy_count *count =
	    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, (int)strtol(fd, NULL, 10), 0);

	b.mem = malloc(b.words * sizeof(uint64_t) + 1);
	if (!b.mem || count == MAP_FAILED)
		return 1;
	b.count = &count[i];
	busy_main(&b);
	return 0;
}

/* Starts this program again as a busy process. Its environment has neither
 * LD_PRELOAD nor UVMEMU_* variables: it must not be emulated (nor write
 * over this run's report). */
static pid_t spawn_busy(const struct wl *w, uint64_t bytes, int fd, long long index)
{
	char self[4096], arg[32], fdarg[16], idx[24], **env;
	char *argv[] = {self, "--busy-child", arg, fdarg, idx, NULL};
	size_t n = 0, k = 0;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	if (len < 0)
		wl_usage_error(w, "cannot find this program to start busy processes");
	self[len] = '\0';
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)bytes);
	snprintf(fdarg, sizeof(fdarg), "%d", fd);
	snprintf(idx, sizeof(idx), "%lld", index);
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
	const char *busy_kind = "managed", *placement = "shared";
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
	    {"placement", WL_STR, &placement, 0, 0,
	     "shared: every thread on any CPU; split: this program's threads (the "
	     "emulator's, the GPU side) on the first CPU of the affinity mask, the busy "
	     "threads or processes on the others; default shared"},
	    {0},
	};
	const size_t stride = PAGE / sizeof(uint64_t);
	struct busy_sample s0, s1, s2;
	struct busy_count *counts;
	struct cpus cpus;
	char msg[256];
	struct busy *busy;
	struct gpu *gpu;
	struct wl w;
	uint64_t *data, want = 0, got, passes;
	size_t words;
	bool managed_busy, processes, placed, reread_ok = true;
	int counts_fd;
	pid_t *pids;

	if (argc == 5 && strcmp(argv[1], "--busy-child") == 0)
		return busy_child(argv[2], argv[3], argv[4]);
	wl_init(&w, "hostthreads",
		"GPU-side faults on host-resident data while K host threads keep running", argc,
		argv, opts);
	if (strcmp(busy_kind, "managed") && strcmp(busy_kind, "plain") &&
	    strcmp(busy_kind, "process"))
		wl_usage_error(&w, "--busy '%s': managed, plain or process", busy_kind);
	if (cpus_init(&cpus, placement, msg, sizeof(msg)))
		wl_usage_error(&w, "%s", msg);
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
	counts = busy_counts(&w, threads, &counts_fd);
	for (long long t = 0; processes && t < threads; t++) {
		pids[t] = spawn_busy(&w, busy_bytes, counts_fd, t);
		if (cpus_busy_process(&cpus, pids[t]))
			wl_usage_error(&w, "cannot move busy process %lld to its CPUs", t);
	}
	close(counts_fd); /* the children have their copies, the mapping stays */
	for (long long t = 0; !processes && t < threads; t++) {
		busy[t].words = busy_bytes / sizeof(uint64_t);
		busy[t].count = &counts[t];
		if (managed_busy) {
			busy[t].mem = wl_managed(&w, busy_bytes, "busy");
			uvmemu_label(busy[t].mem, "busy");
		} else {
			busy[t].mem = malloc(busy_bytes);
			if (!busy[t].mem)
				wl_usage_error(&w, "out of memory for --busy-bytes");
		}
		pthread_attr_t attr;

		if (pthread_attr_init(&attr) || cpus_busy_thread(&cpus, &attr) ||
		    pthread_create(&busy[t].thread, &attr, busy_main, &busy[t]))
			wl_usage_error(&w, "cannot start busy thread %lld", t);
		pthread_attr_destroy(&attr);
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
	uvmemu_report_value("placement_split", cpus.split);
	uvmemu_report_value("placement_pinned", cpus.pinned);

	s0 = busy_sample(counts, threads);
	uvmemu_roi_begin();
	got = read_phase(&w, gpu, gpu_threads, data, words);
	uvmemu_roi_end();
	s1 = busy_sample(counts, threads);
	placed = placement_held(&cpus, gpu, gpu_threads, counts, threads);
	/* At least REREADS, and until every busy thread or process has had
	 * time for a few passes: a short re-read on a loaded machine may end
	 * before a busy one publishes any (capped: a starved one reads 0). */
	for (int r = 0; r < REREADS || (r < REREADS_MAX && busy_sample(counts, threads).passes <
							       s1.passes + 4 * (uint64_t)threads);
	     r++)
		reread_ok &= read_phase(&w, gpu, gpu_threads, data, words) == want;
	s2 = busy_sample(counts, threads);

	atomic_store(&stop_busy, true);
	for (long long t = 0; t < threads; t++) {
		if (processes) {
			kill(pids[t], SIGKILL);
			waitpid(pids[t], NULL, 0);
		} else {
			pthread_join(busy[t].thread, NULL);
		}
	}
	passes = busy_sample(counts, threads).passes;
	placed &= placement_held(&cpus, gpu, gpu_threads, counts, threads);
	uvmemu_report_value("placement_held", placed);
	uvmemu_report_value("busy_passes", (double)passes);
	if (threads > 0) {
		char mig[32], res[32];

		wl_log(&w,
		       "busy %s: %s passes per CPU second while blocks migrate, %s while the "
		       "same loads find them resident",
		       processes ? "processes" : "threads",
		       report_rate("busy_rate_migrating", busy_rate(s0, s1), mig, sizeof(mig)),
		       report_rate("busy_rate_resident", busy_rate(s1, s2), res, sizeof(res)));
	}
	cpus_describe(&cpus, msg, sizeof(msg));
	wl_log(&w,
	       "%lld blocks read by %lld GPU-side threads, %lld busy host threads (%s memory, "
	       "%llu passes), placement %s",
	       blocks, gpu_threads, threads, busy_kind, (unsigned long long)passes, msg);
	if (got != want)
		fprintf(stderr, "hostthreads: the GPU side read sum %llu, the data holds %llu\n",
			(unsigned long long)got, (unsigned long long)want);
	if (!placed)
		fprintf(stderr, "hostthreads: a thread ran off its CPUs under --placement %s\n",
			placement);
	if (!reread_ok)
		fprintf(stderr, "hostthreads: a resident re-read did not sum to %llu\n",
			(unsigned long long)want);
	return wl_finish(&w, got == want && reread_ok);
}
