// SPDX-License-Identifier: MIT
/*
 * map_touch.c - the first-access cost of a freshly set page-table entry
 * (map_touch.h).
 *
 * Two shared views of one memfd stand for the emulator's host and device
 * views. The first view holds the frames; each round drops the second
 * view's entries, sets them again with MADV_POPULATE_READ (as UFFDIO_CONTINUE
 * or UFFDIO_COPY set them in the fault path), then times one load per page
 * twice. Only the loads are timed, so the figure is what the program's own
 * thread pays, not the kernel's work of setting the entries.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "map_touch.h"
#include "median.h"
#include "session.h" /* uvm_clock_ns */
#include "space.h"   /* UVM_PAGE_SIZE, UVM_BLOCK_SIZE */

/* 64 blocks, ~2 ms per round on the project's VM, so that every run can
 * afford it. A hypervisor's cost per entry may grow with the region: on
 * that VM 16-64 MB measured 30-37 us per block against 26-28 for 4 MB, so
 * there the figure, and the report's bound, are on the low side. */
#define PROBE_BLOCKS 64
#define PROBE_PAGES  (PROBE_BLOCKS * (UVM_BLOCK_SIZE / UVM_PAGE_SIZE))
#define PROBE_ROUNDS 3

/* One load per page, as a kernel streaming through a block makes; returns
 * µs per block. Timed on the thread's CPU clock, not the wall clock: a probe
 * preempted by other threads (a run's own, or tests beside it) must not
 * count their time. A hypervisor's exit is not preemption: the guest charges
 * it to the thread that took it. */
static double load_pages(const volatile char *p)
{
	uint64_t t0 = uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	volatile unsigned sum = 0;

	for (size_t i = 0; i < PROBE_PAGES; i++)
		sum += (unsigned)p[i * UVM_PAGE_SIZE];
	(void)sum;
	return (double)(uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e3 / PROBE_BLOCKS;
}

static int rounds(char *held, char *touched, struct uvm_map_touch *m)
{
	const size_t len = (size_t)PROBE_PAGES * UVM_PAGE_SIZE;
	double first[PROBE_ROUNDS], again[PROBE_ROUNDS];

	memset(held, 1, len);
	for (int r = 0; r < PROBE_ROUNDS; r++) {
		if (madvise(touched, len, MADV_DONTNEED) ||
		    madvise(touched, len, MADV_POPULATE_READ))
			return -errno;
		first[r] = load_pages(touched);
		again[r] = load_pages(touched);
	}
	m->first_us = uvm_median(first, PROBE_ROUNDS);
	m->again_us = uvm_median(again, PROBE_ROUNDS);
	return 0;
}

void uvm_map_touch_probe(struct uvm_map_touch *m)
{
	const size_t len = (size_t)PROBE_PAGES * UVM_PAGE_SIZE;
	char *held = MAP_FAILED, *touched = MAP_FAILED;
	int fd = memfd_create("uvmemu-map-touch", MFD_CLOEXEC), rc = 0;

	*m = (struct uvm_map_touch){0};
	if (fd < 0 || ftruncate(fd, (off_t)len))
		rc = -errno;
	if (!rc) {
		held = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		touched = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (held == MAP_FAILED || touched == MAP_FAILED)
			rc = -errno;
	}
	if (!rc)
		rc = rounds(held, touched, m);
	if (rc)
		snprintf(m->why, sizeof(m->why), "not measured: %s%s", strerror(-rc),
			 rc == -EINVAL ? " (MADV_POPULATE_READ needs Linux 5.14)" : "");
	m->measured = rc == 0;
	if (touched != MAP_FAILED)
		munmap(touched, len);
	if (held != MAP_FAILED)
		munmap(held, len);
	if (fd >= 0)
		close(fd);
}

bool uvm_map_touch_describe(const struct uvm_map_touch *m, char *buf, size_t len)
{
	double extra = m->first_us - m->again_us;

	if (!m->measured) {
		snprintf(buf, len, "%s", m->why);
		return false;
	}
	if (extra < UVM_MAP_TOUCH_NOTABLE_US) {
		snprintf(buf, len,
			 "%.2f us per %llu KB block on the first access to each of its pages after "
			 "their page-table entries are set (%.2f us after): page walks, as on bare "
			 "metal",
			 m->first_us, UVM_BLOCK_SIZE >> 10, m->again_us);
		return false;
	}
	snprintf(buf, len,
		 "%.1f us per %llu KB block on the first access to each of its pages after "
		 "their page-table entries are set (%.2f us after), as under a hypervisor that "
		 "shadows page tables: every block the emulator maps costs the threads that "
		 "touch it that much, which no GPU pays and the model does not charge",
		 m->first_us, UVM_BLOCK_SIZE >> 10, m->again_us);
	return true;
}
