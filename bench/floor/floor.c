// SPDX-License-Identifier: MIT
/*
 * bench-floor - the emulator's far-fault path against the least work any
 * emulator of its kind must do.
 *
 * Two floors, one thread touching one byte per granule (4 KB, 64 KB, 2 MB)
 * of 64 MB while a handler thread resolves each fault:
 *   copy floor   the range is fresh anonymous memory; the handler copies the
 *                granule from a populated source with UFFDIO_COPY (what a
 *                copying emulator cannot avoid);
 *   unmap floor  the range is a second shared mapping of a populated memfd;
 *                the handler zaps the granule from the first mapping
 *                (MADV_DONTNEED: the host unmap and its TLB shootdown) and
 *                maps it in the faulting one with UFFDIO_CONTINUE (what any
 *                emulator that really unmaps the host side must do).
 * Against them, the emulator under each backend: one GPU-side thread touches
 * one byte per granule of managed memory the host initialised, through the
 * device view, with fault latency 0 and an unthrottled link, so only real
 * costs remain (2 MB granules with --prefetch vablock, so one fault moves the
 * granule). The emulator migrates 64 KB blocks, so at 4 KB it takes one
 * fault where the floors take sixteen. The mprotect column is the remap
 * backend under --fault-capture mprotect: the same work caught by SIGSEGV
 * and resolved with mprotect instead of userfaultfd (capture.h). The row
 * "4k-unit" is the remap backend at a 4 KB migration unit (--page-size 4k),
 * one fault per 4 KB page as the floors take, against the unmap floor: this
 * file built against the 4 KB unit's libraries (bench-floor-4k, which
 * bench-floor runs from its own directory).
 *
 * Then the host-unmap cost per 4 KB page (a memfd punch), and per 64 KB block
 * as the two captures unmap (MADV_DONTNEED, mprotect(PROT_NONE)), alone and
 * while one or two other threads of the process use memory, which makes the
 * TLB shootdown reach their CPUs (experiment 07's question); and what such
 * a thread, streaming through its own memory, loses per unmap: the
 * shootdown's cost on the receiving side.
 *
 * Every figure is the median of REPEATS interleaved runs, printed with the
 * range; memory is warmed first, because on a VM the first touch of guest
 * memory costs far more than reuse. The last lines are
 * ratio_unmap_64k=<remap / unmap floor at 64 KB>,
 * ratio_mprotect_64k=<mprotect capture / userfaultfd (remap) at 64 KB>, then
 * the 4k-unit row and ratio_unmap_4k=<remap at a 4 KB unit / unmap floor at
 * 4 KB>, whose target is the same 1.2 as the 64 KB one.
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

#include "uvmemu_bench.h"

#define BYTES	(64ull << 20)
#define REPEATS 5

/* ----------------------------------------------------------- the floors */

struct floor_run {
	struct uvm_uffd u;
	uintptr_t src, dst; /* copy: source and faulting range; unmap: host and faulting view */
	size_t granule;
	bool unmap;
	_Atomic int stop;
};

static void floor_resolve(struct floor_run *r, uintptr_t at)
{
	int rc;

	if (!r->unmap) {
		rc = uvm_uffd_copy(&r->u, at, r->src + (at - r->dst), r->granule, UVM_MAP_WAKE);
	} else {
		if (madvise((void *)(r->src + (at - r->dst)), r->granule, MADV_DONTNEED)) {
			perror("floor: MADV_DONTNEED");
			exit(1);
		}
		rc = uvm_uffd_continue(&r->u, at, r->granule, UVM_MAP_WAKE);
	}
	if (rc && rc != -EEXIST) {
		fprintf(stderr, "floor: resolving a fault: %s\n", strerror(-rc));
		exit(1);
	}
}

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
		floor_resolve(r, msg.arg.pagefault.address & ~(uintptr_t)(r->granule - 1));
	}
	return NULL;
}

/* A mapping aligned to 2 MB, so that a granule rounded down from a fault
 * address never starts before it (UFFDIO_* would fail with ENOENT). */
static void *map_or_die(size_t len, int prot, int flags, int fd)
{
	const size_t align = 2u << 20;
	char *r = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t at;
	void *p;

	if (r == MAP_FAILED) {
		perror("bench-floor: mmap");
		exit(1);
	}
	at = ((uintptr_t)r + align - 1) & ~(uintptr_t)(align - 1);
	p = mmap((void *)at, len, prot, flags | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		perror("bench-floor: mmap");
		exit(1);
	}
	/* The reservation's slack on either side goes back. */
	if (at > (uintptr_t)r)
		munmap(r, at - (uintptr_t)r);
	munmap((void *)(at + len), (uintptr_t)r + align - at);
	return p;
}

/* The copy floor's ranges: fresh anonymous memory and a populated source. */
static void floor_copy_setup(struct floor_run *r)
{
	char *mem = map_or_die(BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);

	/* The emulator's copy backend allocates device frames from host frames
	 * it has just punched; the floor's frames should be as freshly freed, or
	 * the VM's first-touch cost (the hypervisor backing new memory) decides
	 * the ratio: touch the range and release it right before the timed loop. */
	memset(mem, 1, BYTES);
	madvise(mem, BYTES, MADV_DONTNEED);
	r->dst = (uintptr_t)mem;
	r->src = (uintptr_t)map_or_die(BYTES, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1);
	memset((void *)r->src, 0x5a, BYTES);
}

/* The unmap floor's views: two shared mappings of one populated memfd, the
 * host one mapped, the faulting one empty. Returns the memfd. */
static int floor_unmap_setup(struct floor_run *r)
{
	int fd = memfd_create("bench-floor", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, BYTES)) {
		perror("bench-floor: memfd");
		exit(1);
	}
	r->src = (uintptr_t)map_or_die(BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
	memset((void *)r->src, 0x5a, BYTES);
	r->dst = (uintptr_t)map_or_die(BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
	return fd;
}

/* Seconds per granule touched. */
static double floor_once(size_t granule, bool unmap)
{
	struct floor_run r = {.granule = granule, .unmap = unmap};
	char err[UVM_ERRLEN];
	volatile char *mem;
	pthread_t h;
	uint64_t t0, t1;
	int fd = -1;

	if (uvm_uffd_open(&r.u, err, sizeof(err))) {
		printf("SKIP: %s\n", err);
		exit(77);
	}
	if (unmap)
		fd = floor_unmap_setup(&r);
	else
		floor_copy_setup(&r);
	mem = (volatile char *)r.dst;
	if (uvm_uffd_register(&r.u, r.dst, BYTES,
			      unmap ? UFFDIO_REGISTER_MODE_MINOR : UFFDIO_REGISTER_MODE_MISSING)) {
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
	munmap((void *)r.dst, BYTES);
	munmap((void *)r.src, BYTES);
	if (fd >= 0)
		close(fd);
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

static double emu_once(size_t granule, const char *backend, const char *capture,
		       struct uvm_stats *st)
{
	const char *const opts[][2] = {
	    {"link", "unlimited"},
	    {"fault-latency", "0"},
	    {"summary", "off"},
	    {"backend", backend},
	    {"prefetch", granule == UVM_VABLOCK_SIZE ? "vablock" : "none"},
	    {"fault-capture", capture},
	};
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

/* A populated shared mapping of a memfd, and `others` threads busy in this
 * address space while it is unmapped piece by piece. */
struct unmap_run {
	size_t bytes;
	int fd, others;
	char *map, *own;
	struct busy b;
	pthread_t t[2];
};

static int unmap_start(struct unmap_run *r, size_t bytes, int others)
{
	*r = (struct unmap_run){.bytes = bytes, .others = others};
	r->fd = memfd_create("bench-floor", MFD_CLOEXEC);
	r->own = malloc(4096 * 2);
	if (r->fd < 0 || !r->own || ftruncate(r->fd, (off_t)bytes))
		return -1;
	r->b.mem = r->own;
	r->map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, 0);
	if (r->map == MAP_FAILED)
		return -1;
	memset(r->map, 1, bytes);
	for (int i = 0; i < others; i++)
		pthread_create(&r->t[i], NULL, busy_main, &r->b);
	return 0;
}

static void unmap_stop(struct unmap_run *r)
{
	atomic_store(&r->b.stop, 1);
	for (int i = 0; i < r->others; i++)
		pthread_join(r->t[i], NULL);
	munmap(r->map, r->bytes);
	close(r->fd);
	free(r->own);
}

static double punch_once(int others)
{
	struct unmap_run r;
	uint64_t t0, t1;

	if (unmap_start(&r, 16u << 20, others))
		return -1;
	t0 = uvm_now_ns();
	for (size_t off = 0; off < r.bytes; off += 4096)
		fallocate(r.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, 4096);
	t1 = uvm_now_ns();
	unmap_stop(&r);
	return (double)(t1 - t0) / 1e9 / (double)(r.bytes / 4096);
}

/* Seconds per 64 KB block unmapped from a populated shared mapping, by
 * MADV_DONTNEED (userfaultfd captures) or mprotect(PROT_NONE) (the mprotect
 * capture), with `others` threads busy. */
static double unmap_block_once(int others, bool by_mprotect)
{
	const size_t block = 64u << 10;
	struct unmap_run r;
	uint64_t t0, t1;
	int rc = 0;

	if (unmap_start(&r, 16u << 20, others))
		return -1;
	t0 = uvm_now_ns();
	/* Every other block, as a batch of scattered faults leaves them: an
	 * mprotect then splits the mapping each time. */
	for (size_t off = 0; off < r.bytes && !rc; off += 2 * block)
		rc = by_mprotect ? mprotect(r.map + off, block, PROT_NONE)
				 : madvise(r.map + off, block, MADV_DONTNEED);
	t1 = uvm_now_ns();
	unmap_stop(&r);
	return rc ? -1 : (double)(t1 - t0) / 1e9 / (double)(r.bytes / block / 2);
}

/*
 * The other side of a shootdown: what a thread of the process, streaming
 * through its own memory, loses while another thread unmaps. On bare metal
 * it takes an interrupt and refills its TLB (a few us); on a VM whose
 * flushes are virtualised it may pay far more, and the unmapping thread no
 * more than alone, which hides experiment 07's effect from the unmap stage.
 */
struct reader {
	_Atomic int stop;
	_Atomic uint64_t lines; /* 64-byte lines read so far */
	const volatile uint64_t *mem;
	size_t words;
};

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	uint64_t x = 0;

	while (!atomic_load_explicit(&rd->stop, memory_order_relaxed)) {
		for (size_t i = 0; i < rd->words; i += 8)
			x += rd->mem[i];
		atomic_fetch_add_explicit(&rd->lines, rd->words / 8, memory_order_relaxed);
	}
	return (void *)(uintptr_t)x;
}

/* Lines per ns the reader made over [since, now). */
static double reader_rate(struct reader *rd, uint64_t lines0, uint64_t since)
{
	return (double)(atomic_load(&rd->lines) - lines0) / (double)(uvm_now_ns() - since);
}

/* Seconds a streaming reader thread loses per 64 KB MADV_DONTNEED made by
 * this thread: its rate alone and during the unmaps, over the unmaps' time,
 * per unmap. *alone_gbs: its rate alone. */
static double reader_loss_once(double *alone_gbs)
{
	const size_t block = 64u << 10, own = 16u << 20;
	struct unmap_run r;
	struct reader rd = {.words = own / sizeof(uint64_t)};
	uint64_t *mem = malloc(own), l0, t0, t1;
	double alone, during;
	pthread_t t;
	int rc = 0;

	if (!mem || unmap_start(&r, BYTES, 0)) {
		free(mem);
		return -1;
	}
	memset(mem, 1, own);
	rd.mem = mem;
	pthread_create(&t, NULL, reader_main, &rd);
	usleep(20000); /* its first passes warm its TLB and caches */
	l0 = atomic_load(&rd.lines);
	t0 = uvm_now_ns();
	usleep(30000);
	alone = reader_rate(&rd, l0, t0);
	l0 = atomic_load(&rd.lines);
	t0 = uvm_now_ns();
	for (size_t off = 0; off < r.bytes && !rc; off += 2 * block)
		rc = madvise(r.map + off, block, MADV_DONTNEED);
	t1 = uvm_now_ns();
	during = reader_rate(&rd, l0, t0);
	atomic_store(&rd.stop, 1);
	pthread_join(t, NULL);
	unmap_stop(&r);
	free(mem);
	*alone_gbs = alone * 64;
	if (rc || alone <= 0)
		return -1;
	return (1 - during / alone) * (double)(t1 - t0) / 1e9 / (double)(BYTES / block / 2);
}

/* ------------------------------------------------------------------ main */

static void warm(void)
{
	size_t n = 3 * BYTES;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(p, 1, n);
	munmap(p, n);
}

/* REPEATS samples: their median, least and most. */
struct spread {
	double med, lo, hi;
};

static struct spread spread_of(double *v)
{
	double med = uvm_median(v, REPEATS);

	return (struct spread){med, v[0], v[REPEATS - 1]};
}

enum { COPY_FLOOR, UNMAP_FLOOR, REMAP, COPY, MPROTECT, NCOL };

static const char *const col_names[NCOL] = {"copy floor", "unmap floor", "remap", "copy",
					    "mprotect"};

static void print_stages(const char *backend, const struct uvm_stats *st)
{
	printf("  %s driver us per fault:", backend);
#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help)                                                                      \
	printf(" " #id " %.2f",                                                                    \
	       (double)st->ns.id / 1e3 / (double)(st->gpu_faults ? st->gpu_faults : 1));
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	printf("\n");
}

/* One granularity: every column REPEATS times, interleaved. Returns the
 * medians. */
static void measure(size_t granule, const char *name, struct spread out[NCOL])
{
	double v[NCOL][REPEATS];
	struct uvm_stats st[3][REPEATS];

	for (int r = 0; r < REPEATS; r++) {
		v[COPY_FLOOR][r] = floor_once(granule, false);
		v[UNMAP_FLOOR][r] = floor_once(granule, true);
		v[REMAP][r] = emu_once(granule, "remap", "uffd", &st[0][r]);
		v[COPY][r] = emu_once(granule, "copy", "uffd", &st[1][r]);
		v[MPROTECT][r] = emu_once(granule, "remap", "mprotect", &st[2][r]);
	}
	printf("%-6s", name);
	for (int c = 0; c < NCOL; c++) {
		out[c] = spread_of(v[c]);
		printf("  %8.2f (%.2f-%.2f)", out[c].med * 1e6, out[c].lo * 1e6, out[c].hi * 1e6);
	}
	printf("  remap %.2f GB/s, copy %.2f GB/s\n", (double)granule / out[REMAP].med / 1e9,
	       (double)granule / out[COPY].med / 1e9);
	printf("  ratios: remap/unmap floor %.3f, copy/unmap floor %.3f, copy/copy floor %.3f, "
	       "remap/copy %.3f\n",
	       out[REMAP].med / out[UNMAP_FLOOR].med, out[COPY].med / out[UNMAP_FLOOR].med,
	       out[COPY].med / out[COPY_FLOOR].med, out[REMAP].med / out[COPY].med);
	printf("  mprotect capture / userfaultfd (both remap) %.3f\n",
	       out[MPROTECT].med / out[REMAP].med);
	printf("  faults: remap %llu in %llu batches, copy %llu in %llu batches, mprotect %llu "
	       "in %llu batches\n",
	       (unsigned long long)st[0][0].gpu_faults, (unsigned long long)st[0][0].batches,
	       (unsigned long long)st[1][0].gpu_faults, (unsigned long long)st[1][0].batches,
	       (unsigned long long)st[2][0].gpu_faults, (unsigned long long)st[2][0].batches);
	print_stages("remap", &st[0][REPEATS / 2]);
	print_stages("copy", &st[1][REPEATS / 2]);
	print_stages("mprotect", &st[2][REPEATS / 2]);
}

/*
 * The 4 KB unit's row (bench-floor-4k): the unmap floor and the remap
 * backend, one fault per 4 KB page both, REPEATS interleaved runs.
 */
static int unit_4k_row(void)
{
	double v[2][REPEATS];
	struct uvm_stats st[REPEATS];
	struct spread floor, remap;

	warm();
	for (int r = 0; r < REPEATS; r++) {
		v[0][r] = floor_once(4096, true);
		v[1][r] = emu_once(4096, "remap", "uffd", &st[r]);
	}
	floor = spread_of(v[0]);
	remap = spread_of(v[1]);
	printf("%-8s unmap floor %.2f (%.2f-%.2f), remap at --page-size 4k %.2f (%.2f-%.2f) us "
	       "per 4 KB page; %llu faults in %llu batches\n",
	       "4k-unit", floor.med * 1e6, floor.lo * 1e6, floor.hi * 1e6, remap.med * 1e6,
	       remap.lo * 1e6, remap.hi * 1e6, (unsigned long long)st[0].gpu_faults,
	       (unsigned long long)st[0].batches);
	print_stages("remap 4k-unit", &st[REPEATS / 2]);
	printf("ratio_unmap_4k=%.3f\n", remap.med / floor.med);
	return 0;
}

/* bench-floor-4k, next to this program, for the 4 KB unit's row. */
static void run_4k_row(void)
{
	char dir[4096], cmd[4200];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	char *slash;

	if (n < 0)
		return;
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(cmd, sizeof(cmd), "'%s/bench-floor-4k'", dir);
	fflush(stdout);
	if (system(cmd) != 0)
		printf("4k-unit: %s failed or is not built\n", cmd);
}

int main(void)
{
	static const struct {
		size_t granule;
		const char *name;
	} g[] = {{4096, "4k"}, {64u << 10, "64k"}, {2u << 20, "2m"}};
	struct spread m[3][NCOL];

	/* Built for the 4 KB unit, this program is bench-floor-4k: one row. */
	if (UVM_BLOCK_SHIFT == 12)
		return unit_4k_row();
	warm();
	printf("bench-floor: %llu MiB touched sequentially, one byte per granule; us per granule, "
	       "median (range) of %d interleaved runs\n",
	       (unsigned long long)(BYTES >> 20), REPEATS);
	printf("%-6s", "gran");
	for (int c = 0; c < NCOL; c++)
		printf("  %-20s", col_names[c]);
	printf("\n");
	for (int i = 0; i < 3; i++)
		measure(g[i].granule, g[i].name, m[i]);
	printf("host unmap (memfd punch) per 4 KB page, median of %d:", REPEATS);
	for (int others = 0; others <= 2; others++) {
		double v[REPEATS];

		for (int r = 0; r < REPEATS; r++)
			v[r] = punch_once(others);
		printf(" %d other thread%s %.2f us%s", others, others == 1 ? "" : "s",
		       spread_of(v).med * 1e6, others < 2 ? "," : "\n");
	}
	for (int mp = 0; mp <= 1; mp++) {
		printf("host unmap of every other 64 KB block by %s, median of %d:",
		       mp ? "mprotect(PROT_NONE)" : "MADV_DONTNEED", REPEATS);
		for (int others = 0; others <= 2; others++) {
			double v[REPEATS];

			for (int r = 0; r < REPEATS; r++)
				v[r] = unmap_block_once(others, mp);
			printf(" %d other thread%s %.2f us%s", others, others == 1 ? "" : "s",
			       spread_of(v).med * 1e6, others < 2 ? "," : "\n");
		}
	}
	{
		double v[REPEATS], gbs[REPEATS];
		struct spread loss, rate;

		for (int r = 0; r < REPEATS; r++)
			v[r] = reader_loss_once(&gbs[r]);
		loss = spread_of(v);
		rate = spread_of(gbs);
		printf("a thread streaming through its own 16 MiB loses, per 64 KB MADV_DONTNEED "
		       "another thread makes, median (range) of %d: %.2f us (%.2f-%.2f); it reads "
		       "%.1f GB/s alone\n",
		       REPEATS, loss.med * 1e6, loss.lo * 1e6, loss.hi * 1e6, rate.med);
	}
	printf("ratio_unmap_2m=%.3f\n", m[2][REMAP].med / m[2][UNMAP_FLOOR].med);
	printf("ratio_64k=%.3f\n", m[1][COPY].med / m[1][COPY_FLOOR].med);
	printf("ratio_unmap_64k=%.3f\n", m[1][REMAP].med / m[1][UNMAP_FLOOR].med);
	printf("ratio_mprotect_64k=%.3f\n", m[1][MPROTECT].med / m[1][REMAP].med);
	/* Last, so that ratio_unmap_4k= is the last line. */
	run_4k_row();
	return 0;
}
