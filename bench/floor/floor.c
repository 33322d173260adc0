// SPDX-License-Identifier: MIT
/*
 * bench-floor - the emulator's far-fault path against the bare floor.
 *
 * (a) the floor: one thread touches one byte per granule (4 KB or 64 KB) of a
 *     fresh anonymous range registered with userfaultfd; a handler thread
 *     reads each fault and resolves it with one UFFDIO_COPY of the granule
 *     from the same offset of a populated source as large as the range (so
 *     both sides copy the same amount of distinct data);
 * (b) the emulator: one GPU-side thread touches one byte per granule of
 *     managed memory the host initialised, through the device view, with
 *     fault latency 0 and an unthrottled link, so only real costs remain: the
 *     host unmap, the copy through the DMA view, the punch, the batch loop;
 * and prints (b)/(a) per granularity. The emulator migrates 64 KB blocks, so
 * at 4 KB it takes one fault where the floor takes sixteen.
 * (c) the host-unmap cost per 4 KB page (a memfd punch), alone and while one
 *     or two other threads of the process use memory, which makes the TLB
 *     shootdown reach their CPUs.
 *
 * Each measurement is repeated and the best kept; memory is warmed first,
 * because on a VM the first touch of guest memory costs far more than reuse.
 * The last line is ratio_64k=<number>.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu.h"
#include "uffd.h"

#define BYTES	(64ull << 20)
#define REPEATS 5

/* ------------------------------------------------------------ the floor */

struct floor_run {
	struct uvm_uffd u;
	uintptr_t src, dst;
	size_t granule;
	_Atomic int stop;
};

static void *floor_handler(void *arg)
{
	struct floor_run *r = arg;
	struct uffd_msg msg;

	while (!atomic_load(&r->stop)) {
		struct pollfd p = {r->u.fd, POLLIN, 0};

		if (poll(&p, 1, 100) <= 0)
			continue;
		if (read(r->u.fd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		uintptr_t at = msg.arg.pagefault.address & ~(uintptr_t)(r->granule - 1);

		if (uvm_uffd_copy(&r->u, at, r->src + (at - r->dst), r->granule, true) &&
		    errno != EEXIST) {
			perror("floor: UFFDIO_COPY");
			exit(1);
		}
	}
	return NULL;
}

/* Seconds per granule touched. */
static double floor_once(size_t granule)
{
	struct floor_run r = {.granule = granule};
	char err[UVM_ERRLEN];
	volatile char *mem;
	pthread_t h;
	uint64_t t0, t1;

	if (uvm_uffd_open(&r.u, err, sizeof(err))) {
		printf("SKIP: %s\n", err);
		exit(77);
	}
	mem = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* The emulator allocates device frames from the host frames it has just
	 * punched; the floor's frames should be as freshly freed, or the VM's
	 * first-touch cost (the hypervisor backing new memory) decides the
	 * ratio: touch the range and release it right before the timed loop. */
	memset((void *)mem, 1, BYTES);
	madvise((void *)mem, BYTES, MADV_DONTNEED);
	r.dst = (uintptr_t)mem;
	r.src = (uintptr_t)mmap(NULL, BYTES, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	memset((void *)r.src, 0x5a, BYTES);
	if (uvm_uffd_register(&r.u, (uintptr_t)mem, BYTES, UFFDIO_REGISTER_MODE_MISSING)) {
		perror("floor: register");
		exit(1);
	}
	pthread_create(&h, NULL, floor_handler, &r);
	t0 = uvm_now_ns();
	for (size_t i = 0; i < BYTES; i += granule)
		(void)mem[i];
	t1 = uvm_now_ns();
	atomic_store(&r.stop, 1);
	pthread_join(h, NULL);
	munmap((void *)mem, BYTES);
	munmap((void *)r.src, BYTES);
	uvm_uffd_close(&r.u);
	return (double)(t1 - t0) / 1e9 / (double)(BYTES / granule);
}

/* --------------------------------------------------------- the emulator */

static void stats_sub(struct uvm_stats *a, const struct uvm_stats *b)
{
#define UVMEMU_STAT(id, unit, help) a->id -= b->id;
#define UVMEMU_TIME(id, help)	    a->ns.id -= b->ns.id;
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
}

static double emu_once(size_t granule, struct uvm_stats *st)
{
	static const char *const opts[][2] = {
	    {"link", "unlimited"}, {"fault-latency", "0"}, {"summary", "off"}};
	struct uvm_config cfg;
	struct uvm_stats before;
	struct uvm_session s;
	struct uvm_emu *e;
	char err[UVM_ERRLEN];
	struct uvmemu_view_map m;
	volatile char *dev;
	char *host;
	uint64_t t0, t1;

	uvm_config_defaults(&cfg);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		uvm_config_set(&cfg, opts[i][0], opts[i][1], "bench", err, sizeof(err));
	uvm_session_init_cfg(&s, &cfg);
	if (uvm_emu_create(&e, &s, err, sizeof(err))) {
		printf("SKIP: %s\n", err);
		exit(77);
	}
	if (uvm_emu_alloc(e, UVM_PTR_MANAGED, BYTES, (void **)&host)) {
		fprintf(stderr, "bench-floor: managed allocation failed\n");
		exit(1);
	}
	memset(host, 0x5a, BYTES); /* HOST blocks: the GPU touch migrates them */
	uvm_emu_view_map(e, &m);
	dev = uvmemu_view_to_device(&m, host);
	uvm_emu_stats(e, &before);
	t0 = uvm_now_ns();
	for (size_t i = 0; i < BYTES; i += granule)
		(void)dev[i];
	t1 = uvm_now_ns();
	uvm_emu_stats(e, st);
	stats_sub(st, &before); /* only the timed loop */
	uvm_emu_destroy(e);
	return (double)(t1 - t0) / 1e9 / (double)(BYTES / granule);
}

/* ------------------------------------------------------------ host unmaps */

struct busy {
	_Atomic int stop;
	volatile char *mem;
};

/* Keeps a CPU in this address space, so shootdowns must reach it. */
static void *busy_main(void *arg)
{
	struct busy *b = arg;
	unsigned x = 0;

	while (!atomic_load_explicit(&b->stop, memory_order_relaxed))
		for (int i = 0; i < 4096; i += 64)
			x += (unsigned)b->mem[i]++;
	return (void *)(uintptr_t)x;
}

static double punch_once(int others)
{
	const size_t bytes = 16u << 20;
	int fd = memfd_create("bench-floor", MFD_CLOEXEC);
	char *map, *own = malloc(4096 * 2);
	struct busy b = {.mem = own};
	pthread_t t[2];
	uint64_t t0, t1;

	if (fd < 0 || ftruncate(fd, (off_t)bytes))
		return -1;
	map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	memset(map, 1, bytes);
	for (int i = 0; i < others; i++)
		pthread_create(&t[i], NULL, busy_main, &b);
	t0 = uvm_now_ns();
	for (size_t off = 0; off < bytes; off += 4096)
		fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, 4096);
	t1 = uvm_now_ns();
	atomic_store(&b.stop, 1);
	for (int i = 0; i < others; i++)
		pthread_join(t[i], NULL);
	munmap(map, bytes);
	close(fd);
	free(own);
	return (double)(t1 - t0) / 1e9 / (double)(bytes / 4096);
}

/* ------------------------------------------------------------------ main */

static void warm(void)
{
	size_t n = 3 * BYTES;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(p, 1, n);
	munmap(p, n);
}

int main(void)
{
	static const size_t granules[] = {4096, 64u << 10};
	double ratio[2];

	warm();
	printf("bench-floor: %llu MiB touched sequentially, one byte per granule, best of %d\n",
	       (unsigned long long)(BYTES >> 20), REPEATS);
	printf("%-12s %14s %14s %8s %10s %10s\n", "granularity", "floor us/gran", "emu us/gran",
	       "ratio", "emu faults", "batches");
	for (int g = 0; g < 2; g++) {
		double a = 1e9, b = 1e9;
		struct uvm_stats st = {0}, best = {0};

		for (int r = 0; r < REPEATS; r++) {
			double x = floor_once(granules[g]), y = emu_once(granules[g], &st);

			if (x < a)
				a = x;
			if (y < b) {
				b = y;
				best = st;
			}
		}
		ratio[g] = b / a;
		printf("%-12s %14.2f %14.2f %8.3f %10llu %10llu\n", g ? "64k" : "4k", a * 1e6,
		       b * 1e6, ratio[g], (unsigned long long)best.gpu_faults,
		       (unsigned long long)best.batches);
		printf("%-12s driver us per fault:", "");
#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help)                                                                      \
	printf(" " #id " %.2f",                                                                    \
	       (double)best.ns.id / 1e3 / (double)(best.gpu_faults ? best.gpu_faults : 1));
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
		printf("\n");
	}
	printf("host unmap (memfd punch) per 4 KB page:");
	for (int others = 0; others <= 2; others++) {
		double best = 1e9;

		for (int r = 0; r < REPEATS; r++) {
			double x = punch_once(others);

			if (x < best)
				best = x;
		}
		printf(" %d other thread%s %.2f us%s", others, others == 1 ? "" : "s", best * 1e6,
		       others < 2 ? "," : "\n");
	}
	printf("ratio_4k=%.3f\n", ratio[0]);
	printf("ratio_64k=%.3f\n", ratio[1]);
	return 0;
}
