// SPDX-License-Identifier: MIT
/* fault_cost.c - the faulting thread's CPU time per userfaultfd fault. */
#include "fault_cost.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "median.h"
#include "timing.h"

#define PAGES  128
#define ROUNDS 3
#define PAGE   4096u

struct probe {
	int uffd;
	char *view;
};

/* Resolves PAGES faults of a round, then returns. */
static void *resolver(void *arg)
{
	struct probe *p = arg;

	for (int i = 0; i < PAGES; i++) {
		struct pollfd pf = {p->uffd, POLLIN, 0};
		struct uffd_msg m;
		struct uffdio_continue c;

		if (poll(&pf, 1, 1000) <= 0 || read(p->uffd, &m, sizeof(m)) != sizeof(m))
			return NULL;
		c = (struct uffdio_continue){
		    .range = {m.arg.pagefault.address & ~(uint64_t)(PAGE - 1), PAGE}};
		if (ioctl(p->uffd, UFFDIO_CONTINUE, &c) && errno != EEXIST)
			return NULL;
	}
	return NULL;
}

static int round_us(struct probe *p, double *us)
{
	volatile char sum = 0;
	pthread_t t;
	uint64_t t0;

	if (madvise(p->view, (size_t)PAGES * PAGE, MADV_DONTNEED) ||
	    pthread_create(&t, NULL, resolver, p))
		return -1;
	t0 = uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; i < PAGES; i++)
		sum += p->view[(size_t)i * PAGE];
	*us = (double)(uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e3 / PAGES;
	pthread_join(t, NULL);
	(void)sum;
	return 0;
}

void uvm_fault_cost_probe(struct uvm_fault_cost *c)
{
	const size_t len = (size_t)PAGES * PAGE;
	struct probe p = {.uffd = -1};
	struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_MINOR_SHMEM};
	struct uffdio_register reg;
	double us[ROUNDS];
	char *held = MAP_FAILED;
	int fd = -1;

	*c = (struct uvm_fault_cost){0};
	p.uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (p.uffd < 0 || ioctl(p.uffd, UFFDIO_API, &api)) {
		snprintf(c->how, sizeof(c->how), "not measured: no userfaultfd of its own (%s)",
			 strerror(errno));
		goto out;
	}
	fd = memfd_create("uvmemu-fault-cost", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)len))
		goto fail;
	held = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	p.view = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (held == MAP_FAILED || p.view == MAP_FAILED)
		goto fail;
	memset(held, 1, len);
	reg = (struct uffdio_register){.range = {(uint64_t)(uintptr_t)p.view, len},
				       .mode = UFFDIO_REGISTER_MODE_MINOR};
	if (ioctl(p.uffd, UFFDIO_REGISTER, &reg))
		goto fail;
	for (int r = 0; r < ROUNDS; r++)
		if (round_us(&p, &us[r]))
			goto fail;
	c->us = uvm_median(us, ROUNDS);
	snprintf(c->how, sizeof(c->how), "%.2f us of CPU per userfaultfd fault (median of %d x %d)",
		 c->us, ROUNDS, PAGES);
	goto out;
fail:
	snprintf(c->how, sizeof(c->how), "not measured: %s", strerror(errno));
out:
	if (p.view && p.view != MAP_FAILED)
		munmap(p.view, len);
	if (held != MAP_FAILED)
		munmap(held, len);
	if (fd >= 0)
		close(fd);
	if (p.uffd >= 0)
		close(p.uffd);
}
