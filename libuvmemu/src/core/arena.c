// SPDX-License-Identifier: MIT
/* arena.c - the reservation holding the host, device and DMA views. */
#include "arena.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VABLOCK (2ull << 20)

int uvm_arena_init(struct uvm_arena *a, char *err, size_t errlen)
{
	uint64_t total = 3 * UVM_ARENA_SIZE + VABLOCK;
	uintptr_t base, aligned;
	void *p;

	memset(a, 0, sizeof(*a));
	a->memfd = -1;
	a->size = UVM_ARENA_SIZE;
	a->memfd = memfd_create("uvmemu-host-frames", MFD_CLOEXEC);
	if (a->memfd < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		return -errno;
	}
	/* Sparse: a memfd only uses memory for the pages that hold data. */
	if (ftruncate(a->memfd, (off_t)UVM_ARENA_SIZE)) {
		snprintf(err, errlen, "sizing the host-frame memfd: %s", strerror(errno));
		goto err;
	}
	p = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "reserving %llu GiB of address space for the views: %s",
			 (unsigned long long)(total >> 30), strerror(errno));
		goto err;
	}
	base = (uintptr_t)p;
	aligned = (base + VABLOCK - 1) & ~(uintptr_t)(VABLOCK - 1);
	/* Trim the alignment slack at both ends. */
	if (aligned > base)
		munmap(p, aligned - base);
	if (base + total > aligned + 3 * UVM_ARENA_SIZE)
		munmap((void *)(aligned + 3 * UVM_ARENA_SIZE),
		       base + total - (aligned + 3 * UVM_ARENA_SIZE));
	a->host = aligned;
	a->dev = aligned + UVM_ARENA_SIZE;
	a->dma = aligned + 2 * UVM_ARENA_SIZE;
	pthread_mutex_init(&a->lock, NULL);
	a->capfree = 16;
	a->free = malloc(a->capfree * sizeof(*a->free));
	if (!a->free) {
		snprintf(err, errlen, "out of memory");
		munmap((void *)a->host, 3 * UVM_ARENA_SIZE);
		errno = ENOMEM;
		goto err;
	}
	a->free[0] = (struct uvm_extent){0, UVM_ARENA_SIZE};
	a->nfree = 1;
	return 0;
err:
	close(a->memfd);
	a->memfd = -1;
	return -errno;
}

void uvm_arena_destroy(struct uvm_arena *a)
{
	if (a->host)
		munmap((void *)a->host, 3 * a->size);
	if (a->memfd >= 0)
		close(a->memfd);
	free(a->free);
	pthread_mutex_destroy(&a->lock);
	memset(a, 0, sizeof(*a));
	a->memfd = -1;
}

int uvm_arena_take(struct uvm_arena *a, uint64_t len, uint64_t *off)
{
	int err = -ENOMEM;

	pthread_mutex_lock(&a->lock);
	for (size_t i = 0; i < a->nfree; i++) {
		struct uvm_extent *e = &a->free[i];

		if (e->len < len)
			continue;
		*off = e->off;
		e->off += len;
		e->len -= len;
		if (e->len == 0) {
			memmove(e, e + 1, (a->nfree - i - 1) * sizeof(*e));
			a->nfree--;
		}
		err = 0;
		break;
	}
	pthread_mutex_unlock(&a->lock);
	return err;
}

void uvm_arena_give(struct uvm_arena *a, uint64_t off, uint64_t len)
{
	size_t i;

	pthread_mutex_lock(&a->lock);
	for (i = 0; i < a->nfree && a->free[i].off < off; i++)
		;
	/* Merge with the neighbours where they touch; insert otherwise. */
	if (i > 0 && a->free[i - 1].off + a->free[i - 1].len == off) {
		a->free[i - 1].len += len;
		if (i < a->nfree && off + len == a->free[i].off) {
			a->free[i - 1].len += a->free[i].len;
			memmove(&a->free[i], &a->free[i + 1],
				(a->nfree - i - 1) * sizeof(*a->free));
			a->nfree--;
		}
	} else if (i < a->nfree && off + len == a->free[i].off) {
		a->free[i].off = off;
		a->free[i].len += len;
	} else {
		if (a->nfree == a->capfree) {
			struct uvm_extent *v = realloc(a->free, 2 * a->capfree * sizeof(*v));

			if (!v) {
				/* The range is lost to reuse; the address space is large. */
				pthread_mutex_unlock(&a->lock);
				return;
			}
			a->free = v;
			a->capfree *= 2;
		}
		memmove(&a->free[i + 1], &a->free[i], (a->nfree - i) * sizeof(*a->free));
		a->free[i] = (struct uvm_extent){off, len};
		a->nfree++;
	}
	pthread_mutex_unlock(&a->lock);
}

int uvm_arena_map(struct uvm_arena *a, uint64_t off, uint64_t len, bool shared_frames)
{
	const int prot = PROT_READ | PROT_WRITE;
	void *dev;

	if (mmap((void *)uvm_host_addr(a, off), len, prot, MAP_SHARED | MAP_FIXED, a->memfd,
		 (off_t)off) == MAP_FAILED)
		return -errno;
	if (shared_frames)
		dev = mmap((void *)uvm_dev_addr(a, off), len, prot, MAP_SHARED | MAP_FIXED,
			   a->memfd, (off_t)off);
	else
		dev = mmap((void *)uvm_dev_addr(a, off), len, prot,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	if (dev == MAP_FAILED)
		goto err;
	if (!shared_frames && mmap((void *)uvm_dma_addr(a, off), len, prot, MAP_SHARED | MAP_FIXED,
				   a->memfd, (off_t)off) == MAP_FAILED)
		goto err;
	return 0;
err : {
	int e = errno;

	uvm_arena_unmap(a, off, len);
	return -e;
}
}

int uvm_arena_unmap(struct uvm_arena *a, uint64_t off, uint64_t len)
{
	const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED;
	int err = 0;

	/* Replacing a mapping frees the device frames it held. */
	for (int v = 0; v < 3; v++)
		if (mmap((void *)(a->host + (uintptr_t)v * a->size + off), len, PROT_NONE, flags,
			 -1, 0) == MAP_FAILED)
			err = -errno;
	if (fallocate(a->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
		err = -errno;
	return err;
}
