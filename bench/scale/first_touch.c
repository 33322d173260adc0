// SPDX-License-Identifier: MIT
/*
 * first_touch.c - what the machine charges for the first touch of fresh
 * memory, by how far into a footprint it is.
 *
 * bench/scale compares migrated bytes per second across footprints. Part of
 * a large run's cost is not the emulator's: a page the workload or the
 * driver's zero-fill touches for the first time is a page the kernel must
 * allocate and clear, and on a virtual machine whose host backs guest memory
 * lazily (free page reporting, ballooning) a page the guest has not used
 * recently also costs the host a fault of its own. That cost grows with the
 * footprint only past the memory the machine used last, so this probe
 * allocates a memfd of the given size, populates it 64 KB at a time, as the
 * remap backend's zero-fill and CPU fills do, and prints the cost per 64 KB
 * in each eighth of it. A flat line is a machine where first touch is cheap
 * everywhere; a step is memory the host had to provide.
 *
 * The other first touch every migration brings is of memory already there:
 * the thread that next touches a block the emulator has just mapped pays
 * whatever the machine charges for a page-table entry's first use (page
 * walks on bare metal, an exit each under a hypervisor that shadows page
 * tables). The second line is the library's probe of it (map_touch.h), the
 * figure runs' reports carry as system.map_touch.
 *
 * usage: bench-first-touch SIZE      (e.g. 8G: the emulator's size syntax)
 * Last two lines: map_touch_us_64k=<first access>,<again>
 *                 first_touch_us_64k=<first eighth>,<last eighth>
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "uvmemu_bench.h"

#define GRANULE (64u << 10)
#define PARTS	8

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	uint64_t size;
	size_t n;
	double part[PARTS] = {0};
	struct uvm_map_touch mt;
	char line[384];
	size_t count[PARTS] = {0};
	char *p;
	int fd;

	if (argc != 2 || uvm_parse_size(argv[1], &size) || size < (size_t)PARTS * GRANULE) {
		fprintf(stderr, "usage: bench-first-touch SIZE (a size of at least 512K, "
				"suffix K, M, G or T; e.g. 8G)\n");
		return 2;
	}
	n = size / GRANULE;
	fd = memfd_create("uvmemu-first-touch", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)(n * GRANULE))) {
		fprintf(stderr, "bench-first-touch: memfd of %llu bytes: %s\n",
			(unsigned long long)size, strerror(errno));
		return 1;
	}
	p = mmap(NULL, n * GRANULE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "bench-first-touch: mmap: %s\n", strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		double t0 = now_s();

		/* MADV_POPULATE_WRITE (5.14) faults the pages in as a store
		 * would, without the loop's own stores in the figure. */
		if (madvise(p + i * GRANULE, GRANULE, MADV_POPULATE_WRITE)) {
			fprintf(stderr, "bench-first-touch: MADV_POPULATE_WRITE: %s%s\n",
				strerror(errno),
				errno == EINVAL ? " (it needs Linux 5.14 or later)" : "");
			return 1;
		}
		part[i * PARTS / n] += now_s() - t0;
		count[i * PARTS / n]++;
	}
	printf("bench-first-touch: %zu MiB of fresh shared memory, populated 64 KB at a time; "
	       "us per 64 KB in each eighth:",
	       (size_t)(size >> 20));
	for (int k = 0; k < PARTS; k++)
		printf(" %.1f", part[k] / (double)count[k] * 1e6);
	uvm_map_touch_probe(&mt);
	uvm_map_touch_describe(&mt, line, sizeof(line));
	printf("\nbench-first-touch: a mapped block's first access: %s\n", line);
	printf("map_touch_us_64k=%.1f,%.2f\n", mt.first_us, mt.again_us);
	printf("first_touch_us_64k=%.1f,%.1f\n", part[0] / (double)count[0] * 1e6,
	       part[PARTS - 1] / (double)count[PARTS - 1] * 1e6);
	munmap(p, n * GRANULE);
	close(fd);
	return 0;
}
