// SPDX-License-Identifier: MIT
/* arena.c - the reservation holding the host, device and DMA views. */
#include "arena.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VABLOCK	    (2ull << 20)
#define BLOCK_SHIFT 16 /* space.h's UVM_BLOCK_SHIFT: the arena knows no blocks otherwise */

/* Reserves the views (host, GPU 0's device view, DMA, then GPU 1.. 's) of
 * `size` each, 2 MB aligned; 0 or -errno. */
static int reserve(struct uvm_arena *a, uint64_t size)
{
	uint64_t views = 2 + (uint64_t)a->ngpus, total = views * size + VABLOCK;
	uintptr_t base, aligned;
	void *p;

	p = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	base = (uintptr_t)p;
	aligned = (base + VABLOCK - 1) & ~(uintptr_t)(VABLOCK - 1);
	/* Trim the alignment slack at both ends. */
	if (aligned > base)
		munmap(p, aligned - base);
	if (base + total > aligned + views * size)
		munmap((void *)(aligned + views * size), base + total - (aligned + views * size));
	a->size = size;
	a->host = aligned;
	a->dev = aligned + size;
	a->dma = aligned + 2 * size;
	a->devs[0] = a->dev;
	for (unsigned g = 1; g < a->ngpus; g++)
		a->devs[g] = aligned + (2 + (uint64_t)g) * size;
	return 0;
}

int uvm_arena_init(struct uvm_arena *a, unsigned ngpus, char *err, size_t errlen)
{
	uint64_t size = UVM_ARENA_MAX;
	int rc;

	memset(a, 0, sizeof(*a));
	a->memfd = -1;
	if (ngpus == 0 || ngpus > sizeof(a->devs) / sizeof(a->devs[0])) {
		snprintf(err, errlen, "%u GPUs: the arena holds device views for 1 to %zu", ngpus,
			 sizeof(a->devs) / sizeof(a->devs[0]));
		return -EINVAL;
	}
	a->ngpus = ngpus;
	a->memfd = memfd_create("uvmemu-host-frames", MFD_CLOEXEC);
	if (a->memfd < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		return -errno;
	}
	/* The largest reservation the address space allows, halving down to
	 * the least the emulator promises: UVM_ARENA_MIN per view for one GPU,
	 * and with more GPUs no less in all (ThreadSanitizer's layout holds
	 * about 1.5 TiB of contiguous address space: four views of 256 GiB do
	 * not always fit, four of 128 GiB do). */
	while ((rc = reserve(a, size)) == -ENOMEM && size > uvm_arena_min(ngpus))
		size /= 2;
	if (rc) {
		errno = -rc;
		snprintf(err, errlen, "reserving %llu GiB of address space for the views: %s",
			 (unsigned long long)((2 + ngpus) * size >> 30), strerror(errno));
		goto err;
	}
	/* Sparse: a memfd only uses memory for the pages that hold data. */
	if (ftruncate(a->memfd, (off_t)a->size)) {
		snprintf(err, errlen, "sizing the host-frame memfd: %s", strerror(errno));
		munmap((void *)a->host, uvm_arena_span(a));
		goto err;
	}
	uvm_mutex_init(&a->lock, UVM_LOCK_ARENA);
	a->nslots = a->size / VABLOCK;
	a->used = calloc((a->nslots + 63) / 64, sizeof(*a->used));
	/* 8 MB for 4 TiB, zero pages until an allocation opens blocks. */
	a->open = calloc((a->size >> BLOCK_SHIFT) / 64 + 1, sizeof(*a->open));
	if (!a->used || !a->open) {
		snprintf(err, errlen, "out of memory");
		munmap((void *)a->host, uvm_arena_span(a));
		errno = ENOMEM;
		goto err;
	}
	return 0;
err:
	close(a->memfd);
	a->memfd = -1;
	a->host = 0;
	return -errno;
}

void uvm_arena_destroy(struct uvm_arena *a)
{
	if (a->host)
		munmap((void *)a->host, uvm_arena_span(a));
	if (a->memfd >= 0)
		close(a->memfd);
	free(a->used);
	free((void *)a->open);
	uvm_mutex_destroy(&a->lock);
	memset(a, 0, sizeof(*a));
	a->memfd = -1;
}

/* A slot's bit in the bitmap. */
enum slot { SLOT_FREE, SLOT_USED };

/* The first slot at or after s in state `want` (nslots if none). */
static uint64_t next_slot(const struct uvm_arena *a, uint64_t s, enum slot want)
{
	while (s < a->nslots) {
		uint64_t w = want == SLOT_USED ? a->used[s / 64] : ~a->used[s / 64];

		w &= ~0ull << (s % 64);
		if (w)
			return s - s % 64 + (uint64_t)__builtin_ctzll(w);
		s = s - s % 64 + 64;
	}
	return a->nslots;
}

static void mark(struct uvm_arena *a, uint64_t s, uint64_t n, enum slot to)
{
	for (uint64_t i = s; i < s + n; i++) {
		if (to == SLOT_USED)
			a->used[i / 64] |= 1ull << (i % 64);
		else
			a->used[i / 64] &= ~(1ull << (i % 64));
	}
}

int uvm_arena_take(struct uvm_arena *a, uint64_t len, uint64_t *off)
{
	uint64_t n = len / VABLOCK, s;
	int err = -ENOMEM;

	uvm_mutex_lock(&a->lock);
	for (s = next_slot(a, a->low, SLOT_FREE); s + n <= a->nslots;) {
		uint64_t end = next_slot(a, s, SLOT_USED);

		if (end >= s + n) {
			mark(a, s, n, SLOT_USED);
			if (s == a->low)
				a->low = next_slot(a, s + n, SLOT_FREE);
			*off = s * VABLOCK;
			err = 0;
			break;
		}
		s = next_slot(a, end, SLOT_FREE);
	}
	uvm_mutex_unlock(&a->lock);
	return err;
}

int uvm_arena_take_at(struct uvm_arena *a, uint64_t off, uint64_t len)
{
	uint64_t s = off / VABLOCK, n = len / VABLOCK;
	int err = -EBUSY;

	uvm_mutex_lock(&a->lock);
	if (next_slot(a, s, SLOT_USED) >= s + n) {
		mark(a, s, n, SLOT_USED);
		if (s == a->low)
			a->low = next_slot(a, s + n, SLOT_FREE);
		err = 0;
	}
	uvm_mutex_unlock(&a->lock);
	return err;
}

void uvm_arena_give(struct uvm_arena *a, uint64_t off, uint64_t len)
{
	uint64_t s = off / VABLOCK;

	uvm_mutex_lock(&a->lock);
	mark(a, s, len / VABLOCK, SLOT_FREE);
	if (s < a->low)
		a->low = s;
	uvm_mutex_unlock(&a->lock);
}

int uvm_arena_map(struct uvm_arena *a, uint64_t off, uint64_t len, bool shared_frames)
{
	const int prot = PROT_READ | PROT_WRITE;

	if (mmap((void *)uvm_host_addr(a, off), len, PROT_NONE, MAP_SHARED | MAP_FIXED, a->memfd,
		 (off_t)off) == MAP_FAILED)
		return -errno;
	for (unsigned g = 0; g < a->ngpus; g++) {
		void *dev;

		if (shared_frames)
			dev = mmap((void *)uvm_dev_addr_g(a, g, off), len, PROT_NONE,
				   MAP_SHARED | MAP_FIXED, a->memfd, (off_t)off);
		else
			dev = mmap((void *)uvm_dev_addr_g(a, g, off), len, PROT_NONE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
		if (dev == MAP_FAILED)
			goto err;
	}
	/* The DMA view is the driver's own and never registered. */
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

/* Sets or clears the open bits of the blocks of [off, off + len). */
static void mark_open(struct uvm_arena *a, uint64_t off, uint64_t len, bool open)
{
	for (uint64_t b = off >> BLOCK_SHIFT; b < (off + len) >> BLOCK_SHIFT; b++) {
		uint64_t bit = 1ull << (b % 64);

		if (open)
			atomic_fetch_or_explicit(&a->open[b / 64], bit, memory_order_release);
		else
			atomic_fetch_and_explicit(&a->open[b / 64], ~bit, memory_order_release);
	}
}

bool uvm_arena_is_open(const struct uvm_arena *a, uintptr_t addr)
{
	uint64_t off, b;

	if (addr >= a->host && addr < a->host + a->size)
		off = addr - a->host;
	else if (uvm_arena_gpu_of(a, addr, &off) < 0)
		return false;
	b = off >> BLOCK_SHIFT;
	return (atomic_load_explicit(&a->open[b / 64], memory_order_acquire) >> (b % 64)) & 1;
}

int uvm_arena_open(struct uvm_arena *a, uint64_t off, uint64_t len)
{
	const int prot = PROT_READ | PROT_WRITE;

	mark_open(a, off, len, true);
	if (a->closed_views)
		return 0;
	if (mprotect((void *)uvm_host_addr(a, off), len, prot))
		return -errno;
	for (unsigned g = 0; g < a->ngpus; g++)
		if (mprotect((void *)uvm_dev_addr_g(a, g, off), len, prot))
			return -errno;
	return 0;
}

int uvm_arena_unmap(struct uvm_arena *a, uint64_t off, uint64_t len)
{
	const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED;
	int err = 0;

	if (a->open)
		mark_open(a, off, len, false);
	/* Replacing a mapping frees the device frames it held. */
	for (uint64_t v = 0; v < 2 + (uint64_t)a->ngpus; v++)
		if (mmap((void *)(a->host + (uintptr_t)v * a->size + off), len, PROT_NONE, flags,
			 -1, 0) == MAP_FAILED)
			err = -errno;
	if (fallocate(a->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
		err = -errno;
	return err;
}

int uvm_arena_release(struct uvm_arena *a, uint64_t off, uint64_t len)
{
	int err = 0;

	/* The host frames (the page cache: host and DMA views) and the device
	 * frames (the device view's pages) go; the mappings stay. */
	if (fallocate(a->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
		err = -errno;
	for (unsigned g = 0; g < a->ngpus; g++)
		if (madvise((void *)uvm_dev_addr_g(a, g, off), len, MADV_DONTNEED))
			err = -errno;
	/* With closed views, a touch of the freed range must fault as it does
	 * under userfaultfd (whose views lost their pages with the punch). */
	if (a->closed_views && mprotect((void *)uvm_host_addr(a, off), len, PROT_NONE))
		err = -errno;
	for (unsigned g = 0; a->closed_views && g < a->ngpus; g++)
		if (mprotect((void *)uvm_dev_addr_g(a, g, off), len, PROT_NONE))
			err = -errno;
	return err;
}
