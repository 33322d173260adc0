// SPDX-License-Identifier: MIT
/*
 * pt_cycle.c - does the machine itself charge the same per block for the
 * remap backend's page-table work at every footprint?
 *
 * bench/scale asks the emulator to move bytes at the same rate from 256 MB
 * to 8 GB. Under remap, most of a migrated block's host CPU is page-table
 * work that the kernel (and, on a virtual machine, the hypervisor) does: the
 * device view's entries set for the block, the first access to each of its
 * pages, and the entries of the block it evicts zapped while another thread
 * of the process runs (so the zap needs a TLB shootdown). If the machine
 * charges more for that work in a small footprint than in a large one, no
 * emulator built on it can scale flat. This program does that work alone,
 * with none of the emulator's code, in the steady state of a run at 125%:
 * per size, a memfd whose device-side view holds the last 80% of its blocks;
 * each step populates the next block (MADV_POPULATE_WRITE, as
 * UFFDIO_CONTINUE sets the entries), stores once per page, and zaps the
 * block that falls out of the window (MADV_DONTNEED), cycling round the
 * footprint as a streaming workload does. A second thread spins meanwhile,
 * as the SM workers run while the driver zaps. Rounds alternate the two
 * sizes, so drift of the machine lands on both; each round times the
 * stepping thread's CPU clock.
 *
 * usage: bench-pt-cycle SMALL LARGE [STEPS]   (e.g. 256M 8G; STEPS per
 *        round, by default three laps of SMALL, at most 12288: three laps of
 *        256 MB)
 * Last line: pt_cycle_ratio=<median us per block at SMALL / at LARGE>,
 * the rate LARGE would reach over SMALL's if page-table work were all a run
 * did: bench/scale's "largest over smallest" for the machine alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "uvmemu_bench.h"

#define GRANULE	    (64u << 10)
#define PAGE	    4096u
#define ROUNDS	    3
#define MIN_BLOCKS  16u
#define WINDOW_OF10 8 /* the device holds 80% of the footprint: a run at 125% */
#define LAPS	    3
#define MAX_STEPS   12288

struct footprint {
	uint64_t bytes;
	size_t nblocks, window, next;
	char *view;
	double us[ROUNDS];
};

struct spinner {
	atomic_bool stop;
	volatile uint64_t passes;
};

static void *spin(void *arg)
{
	struct spinner *s = arg;

	while (!atomic_load_explicit(&s->stop, memory_order_relaxed))
		s->passes = s->passes + 1;
	return NULL;
}

static int fail(const char *what, uint64_t bytes)
{
	fprintf(stderr, "bench-pt-cycle: %s for %llu MiB: %s%s\n", what,
		(unsigned long long)(bytes >> 20), strerror(errno),
		errno == EINVAL ? " (MADV_POPULATE_WRITE needs Linux 5.14 or later)" : "");
	return -1;
}

/* The memfd's pages exist before timing (fallocate), so no step pays for
 * fresh memory (bench-first-touch measures that); the window is mapped. */
static int setup(struct footprint *f)
{
	int fd = memfd_create("uvmemu-pt-cycle", MFD_CLOEXEC);

	f->nblocks = f->bytes / GRANULE;
	f->window = f->nblocks * WINDOW_OF10 / 10;
	f->next = 0;
	if (fd < 0 || ftruncate(fd, (off_t)f->bytes) || fallocate(fd, 0, 0, (off_t)f->bytes))
		return fail("memfd", f->bytes);
	f->view = mmap(NULL, f->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (f->view == MAP_FAILED)
		return fail("mmap", f->bytes);
	if (madvise(f->view + (f->nblocks - f->window) * GRANULE, f->window * GRANULE,
		    MADV_POPULATE_WRITE))
		return fail("MADV_POPULATE_WRITE", f->bytes);
	return 0;
}

/* Thread CPU microseconds per step over `steps` steps. */
static double run_steps(struct footprint *f, size_t steps)
{
	uint64_t t0 = uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID);

	for (size_t k = 0; k < steps; k++) {
		size_t b = f->next, out = (b + f->nblocks - f->window) % f->nblocks;
		char *block = f->view + b * GRANULE;

		f->next = (b + 1) % f->nblocks;
		madvise(block, GRANULE, MADV_POPULATE_WRITE);
		for (size_t off = 0; off < GRANULE; off += PAGE)
			block[off]++;
		madvise(f->view + out * GRANULE, GRANULE, MADV_DONTNEED);
	}
	return (double)(uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e3 / (double)steps;
}

static int usage(const char *why, const char *arg)
{
	if (why)
		fprintf(stderr, "bench-pt-cycle: %s '%s'\n", why, arg);
	fprintf(stderr, "usage: bench-pt-cycle SMALL LARGE [STEPS] (sizes of at least 1M, suffix "
			"K, M, G or T, SMALL < LARGE, e.g. 256M 8G; STEPS per round, at "
			"least 1, default three laps of SMALL, at most 12288)\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct footprint f[2] = {0};
	struct spinner sp = {0};
	double med[2];
	long long steps = 0;
	pthread_t th;

	if (argc < 3 || argc > 4)
		return usage(NULL, NULL);
	for (int i = 0; i < 2; i++)
		if (uvm_parse_size(argv[1 + i], &f[i].bytes) || f[i].bytes < MIN_BLOCKS * GRANULE)
			return usage("not a size of at least 1M:", argv[1 + i]);
	if (f[0].bytes >= f[1].bytes)
		return usage("SMALL must be below LARGE, not above or equal to it:", argv[1]);
	if (argc == 4 && (uvm_parse_int(argv[3], &steps) || steps < 1))
		return usage("STEPS must be a whole number of at least 1, not", argv[3]);
	if (argc == 3) {
		steps = (long long)(LAPS * (f[0].bytes / GRANULE));
		steps = steps < MAX_STEPS ? steps : MAX_STEPS;
	}
	for (int i = 0; i < 2; i++) {
		f[i].bytes -= f[i].bytes % GRANULE;
		if (setup(&f[i]))
			return 1;
	}
	if (pthread_create(&th, NULL, spin, &sp)) {
		fprintf(stderr, "bench-pt-cycle: cannot start the spinning thread\n");
		return 1;
	}
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < 2; i++)
			f[i].us[r] = run_steps(&f[i], (size_t)steps);
	atomic_store(&sp.stop, true);
	pthread_join(th, NULL);
	for (int i = 0; i < 2; i++) {
		printf(
		    "bench-pt-cycle: %llu MiB: us per block (populate, a store per page, zap the "
		    "block leaving an 80%% window, another thread running), %d rounds of %lld "
		    "steps:",
		    (unsigned long long)(f[i].bytes >> 20), ROUNDS, steps);
		for (int r = 0; r < ROUNDS; r++)
			printf(" %.1f", f[i].us[r]);
		med[i] = uvm_median(f[i].us, ROUNDS); /* sorts: after the rounds' line */
		printf(" (median %.1f)\n", med[i]);
		munmap(f[i].view, f[i].bytes);
	}
	printf("pt_cycle_ratio=%.2f\n", med[0] / med[1]);
	return 0;
}
