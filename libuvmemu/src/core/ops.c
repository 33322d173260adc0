// SPDX-License-Identifier: MIT
/*
 * ops.c - the real operations on runs of blocks within one vablock.
 *
 * Host to device, in the real driver's order: unmap the host view first
 * (MADV_DONTNEED on the shared mapping zaps the PTEs and keeps the page
 * cache; a CPU touch from now on takes a MINOR fault and waits for the
 * driver), copy through the DMA view into the device view with UFFDIO_COPY,
 * then punch the memfd to free the host frames. Copy-then-unmap would lose a
 * CPU write made during the copy.
 *
 * Device to host: write-protect the device range first (a GPU write from now
 * on takes a write-protect fault and waits), write the data into the host
 * frames (the page cache; the host view stays unmapped), MADV_DONTNEED the
 * device range to free its frames, and map the host pages only once the
 * device copy is gone, so that no GPU load reads a copy older than a CPU
 * write.
 *
 * Every operation first settles its blocks (waits for asynchronous unmaps
 * still in flight on them), charges its bytes to the link, and keeps the
 * pool, the vablock's resident count, the eviction policy and the batch's
 * statistics in step.
 */
#include "driver_int.h"
#include "clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void to_state(struct uvm_driver *d, size_t first, size_t n, enum uvm_block_state st)
{
	for (size_t b = first; b < first + n; b++)
		uvm_block_move(d->dep.space, b, st);
}

/* A block of allocation `alloc` came back after `trips` earlier returns. */
static void thrashed(struct uvm_driver *d, uint32_t alloc, uint8_t trips)
{
	struct uvm_thrash_stats *t = &d->thrash_stats;

	pthread_mutex_lock(&d->stats_lock);
	if (alloc >= t->nalloc) {
		size_t n = alloc + 64;
		struct uvm_alloc_thrash *a = realloc(t->alloc, n * sizeof(*a));

		if (!a) {
			pthread_mutex_unlock(&d->stats_lock);
			return; /* the per-allocation breakdown goes; totals stay exact */
		}
		memset(a + t->nalloc, 0, (n - t->nalloc) * sizeof(*a));
		t->alloc = a;
		t->nalloc = n;
	}
	t->alloc[alloc].returns++;
	t->alloc[alloc].blocks += trips == 0;
	if (trips > 0)
		t->trips[trips]--;
	if (trips + 1 < UVM_MAX_TRIPS)
		t->trips[trips + 1]++;
	pthread_mutex_unlock(&d->stats_lock);
}

void uvm_ops_became_resident(struct uvm_driver *d, size_t first, size_t n)
{
	struct uvm_space *s = d->dep.space;

	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &s->block[b];

		if (blk->flags & UVM_BF_EVICTED) {
			d->st.thrashed_blocks++;
			thrashed(d, s->vablock[uvm_vablock_of(b)].alloc, blk->trips);
			if (blk->trips < UINT8_MAX)
				blk->trips++;
			blk->flags &= (uint8_t)~UVM_BF_EVICTED;
		}
		s->vablock[uvm_vablock_of(b)].resident++;
		d->evict->resident(d->evict_p, b);
	}
	uvm_pool_use(d->dep.pool, (int64_t)n);
}

void uvm_ops_left_device(struct uvm_driver *d, size_t first, size_t n, bool evicted)
{
	struct uvm_space *s = d->dep.space;

	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &s->block[b];

		if (evicted) {
			blk->flags |= UVM_BF_EVICTED;
			if (uvm_counter_trip(s, b))
				d->halve_trips = true;
			if (blk->flags & UVM_BF_PREFETCHED)
				d->st.blocks_prefetch_wasted++;
		}
		blk->flags &= (uint8_t) ~(UVM_BF_PREFETCHED | UVM_BF_WRITTEN);
		atomic_fetch_and_explicit(&s->gmmu_state[b], (uint8_t)~UVMEMU_GMMU_WRITTEN,
					  memory_order_relaxed);
		s->vablock[uvm_vablock_of(b)].resident--;
		d->evict->released(d->evict_p, b);
	}
	uvm_pool_use(d->dep.pool, -(int64_t)n);
}

void uvm_driver_book(struct uvm_driver *d, enum uvm_dir dir, uint64_t bytes)
{
	uint64_t end = uvm_link_book(d->dep.link, dir, bytes, uvm_now_ns());

	if (end > d->model_end)
		d->model_end = end;
}

void uvm_op_zero_fill(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	uint64_t t;
	int rc;

	uvm_tracker_settle(&d->tracker, first, n);
	t = uvm_now_ns();
	/* A copy from zero pages gives the device real frames, as a GPU's
	 * zeroed chunk would be; no bytes cross the link. */
	rc = uvm_uffd_copy(d->dep.uffd, uvm_dev_addr(d->dep.arena, off), d->zeros, len,
			   d->wake_at_copy);
	if (rc)
		uvm_driver_bug("zero-filling device blocks", first, rc);
	d->st.ns.map += uvm_driver_elapsed(t);
	to_state(d, first, n, UVM_DEVICE);
	uvm_ops_became_resident(d, first, n);
	d->st.blocks_zero_filled += n;
}

void uvm_op_to_device(struct uvm_driver *d, size_t first, size_t n)
{
	const struct uvm_arena *a = d->dep.arena;
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	uint64_t t;
	int rc;

	uvm_tracker_settle(&d->tracker, first, n);
	uvm_op_zap_host(d, first, n);

	t = uvm_now_ns();
	rc = uvm_uffd_copy(d->dep.uffd, uvm_dev_addr(a, off), uvm_dma_addr(a, off), len,
			   d->wake_at_copy);
	if (rc)
		uvm_driver_bug("copying blocks to the device", first, rc);
	d->st.ns.copy += uvm_driver_elapsed(t);
	uvm_driver_book(d, UVM_H2D, len);

	t = uvm_now_ns();
	uvm_tracker_punch(&d->tracker, a->memfd, off, len, first, n, d->seq);
	d->st.ns.unmap += uvm_driver_elapsed(t);

	to_state(d, first, n, UVM_DEVICE);
	uvm_ops_became_resident(d, first, n);
	d->st.bytes_h2d += len;
	d->st.blocks_h2d += n;
}

/* Writes the device copy into the page cache without mapping the host view:
 * the CPU must not see (and write) the host copy while the device copy is
 * still readable, or a GPU load could read stale data after a CPU write. */
static void write_back(struct uvm_driver *d, uint64_t off, uint64_t len, size_t first)
{
	const struct uvm_arena *a = d->dep.arena;
	uint64_t done = 0;

	while (done < len) {
		/*
		 * The system call itself, not libc's wrapper: the kernel copies,
		 * ordered after the GPU's last write by the write-protect above
		 * (and its TLB shootdown), an order thread sanitizers cannot see
		 * through an intercepted pwrite. UFFDIO_COPY, its counterpart the
		 * other way, is an ioctl they never interpret either.
		 */
		ssize_t w =
		    syscall(SYS_pwrite64, a->memfd, (const void *)(uvm_dev_addr(a, off) + done),
			    len - done, (off_t)(off + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			uvm_driver_bug("writing device blocks back to host frames", first,
				       w < 0 ? errno : EIO);
		done += (uint64_t)w;
	}
}

void uvm_op_to_host(struct uvm_driver *d, size_t first, size_t n, bool evicting)
{
	const struct uvm_arena *a = d->dep.arena;
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	uint64_t t;
	int rc;

	uvm_tracker_settle(&d->tracker, first, n);
	t = uvm_now_ns();
	rc = uvm_uffd_writeprotect(d->dep.uffd, uvm_dev_addr(a, off), len, true, false);
	if (rc)
		uvm_driver_bug("write-protecting device blocks", first, rc);
	d->st.ns.unmap += uvm_driver_elapsed(t);

	t = uvm_now_ns();
	write_back(d, off, len, first);
	d->st.ns.copy += uvm_driver_elapsed(t);
	uvm_driver_book(d, UVM_D2H, len);

	t = uvm_now_ns();
	uvm_tracker_dontneed(&d->tracker, uvm_dev_addr(a, off), len, first, n, d->seq);
	if (!evicting) {
		/* A CPU thread waits on this block: its pages are mapped once
		 * the device copy is gone (an eviction's are mapped at the CPU's
		 * next fault, which settles first as well). */
		uvm_tracker_settle(&d->tracker, first, n);
		d->st.ns.unmap += uvm_driver_elapsed(t);
		uvm_op_host_map(d, first, n, 0);
	} else {
		d->st.ns.unmap += uvm_driver_elapsed(t);
	}

	to_state(d, first, n, UVM_HOST);
	uvm_ops_left_device(d, first, n, evicting);
	d->st.bytes_d2h += len;
	d->st.blocks_d2h += n;
}

void uvm_op_host_fill(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	uint64_t t = uvm_now_ns();
	int rc;

	rc = uvm_uffd_zeropage(d->dep.uffd, uvm_host_addr(d->dep.arena, off), len, d->wake_at_copy);
	if (rc)
		uvm_driver_bug("populating fresh host memory", first, rc);
	d->st.ns.map += uvm_driver_elapsed(t);
	to_state(d, first, n, UVM_HOST);
	d->st.host_fill_bytes += len;
}

void uvm_op_zap_host(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t t = uvm_now_ns();

	if (madvise((void *)uvm_host_addr(d->dep.arena, (uint64_t)first << UVM_BLOCK_SHIFT),
		    (uint64_t)n << UVM_BLOCK_SHIFT, MADV_DONTNEED))
		uvm_driver_bug("unmapping blocks from the host view", first, errno);
	d->st.ns.unmap += uvm_driver_elapsed(t);
}

void uvm_op_host_map(struct uvm_driver *d, size_t first, size_t n, unsigned flags)
{
	uintptr_t addr = uvm_host_addr(d->dep.arena, (uint64_t)first << UVM_BLOCK_SHIFT);
	uint64_t t;

	/* An eviction's device unmap may still be in flight: the host copy is
	 * mapped only once the device copy is gone. */
	uvm_tracker_settle(&d->tracker, first, n);
	t = uvm_now_ns();
	/* Pages already mapped answer EEXIST and are skipped one by one. */
	for (uint64_t p = 0; p < (uint64_t)n << UVM_BLOCK_SHIFT; p += UVM_PAGE_SIZE) {
		int rc = uvm_uffd_continue(d->dep.uffd, addr + p, UVM_PAGE_SIZE, flags);

		if (rc && rc != -EEXIST)
			uvm_driver_bug("mapping host pages", first, rc);
	}
	d->st.ns.map += uvm_driver_elapsed(t);
}

void uvm_op_evict(struct uvm_driver *d, const struct uvm_victim *v)
{
	const struct uvm_space *s = d->dep.space;
	size_t b = v->first, end = v->first + v->n, evicted = 0;

	while (b < end) {
		uint8_t st = s->block[b].state;
		size_t run = 0;

		if (st != UVM_DEVICE && st != UVM_DUPLICATED) {
			b++;
			continue;
		}
		while (b + run < end && s->block[b + run].state == st &&
		       uvm_vablock_of(b + run) == uvm_vablock_of(b))
			run++;
		/* A duplicated block's host copy is valid: it only loses its
		 * device copy. */
		if (st == UVM_DEVICE)
			uvm_op_to_host(d, b, run, true);
		else
			uvm_op_dup_to_host(d, b, run, true);
		evicted += run;
		b += run;
	}
	if (evicted == 0)
		uvm_driver_bug("the eviction policy chose a victim with nothing on the device",
			       v->first, EINVAL);
	d->st.blocks_evicted += evicted;
	d->st.vablocks_evicted++;
}
