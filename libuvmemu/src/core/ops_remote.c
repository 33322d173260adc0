// SPDX-License-Identifier: MIT
/*
 * ops_remote.c - blocks the GPU reads where they are: REMOTE (zero-copy,
 * data stays on the host) and DUPLICATED (read-mostly: both copies valid).
 *
 * A GPU thread that faulted on a load retries the same load through the
 * device view, so a REMOTE block must be readable there: it gets a
 * write-protected read-only copy that does not count against device memory,
 * charged to the link as remote bytes. GMMU accessors (when built in) read the
 * host data through the DMA view instead and charge each 32-byte sector. The
 * host view of a REMOTE block is unmapped, so that a CPU touch faults and the
 * device copy is dropped before the CPU's write could leave it stale.
 *
 * A DUPLICATED block has a read-only device copy that does count against
 * device memory, and keeps its host pages, write-protected where the kernel
 * can write-protect shared memory (else unmapped). The first write from
 * either side collapses it to that side.
 */
#include "driver_int.h"
#include "clock.h"

#include <errno.h>
#include <sys/mman.h>

static unsigned wake_flag(const struct uvm_driver *d)
{
	return d->wake_at_copy ? UVM_MAP_WAKE : 0;
}

static void set_state(struct uvm_driver *d, size_t first, size_t n, enum uvm_block_state st)
{
	for (size_t b = first; b < first + n; b++)
		if (d->dep.space->block[b].state != st)
			uvm_block_move(d->dep.space, b, st);
}

static void gmmu_bits(struct uvm_driver *d, size_t first, size_t n, uint8_t set, uint8_t clear)
{
	for (size_t b = first; b < first + n; b++) {
		_Atomic uint8_t *g = &d->dep.space->gmmu_state[b];

		atomic_fetch_and_explicit(g, (uint8_t)~clear, memory_order_relaxed);
		atomic_fetch_or_explicit(g, set, memory_order_relaxed);
	}
}

/* A read-only copy of the host data at the device view. */
static void ro_copy(struct uvm_driver *d, uint64_t off, uint64_t len, size_t first)
{
	const struct uvm_arena *a = d->dep.arena;
	uint64_t t = uvm_now_ns();
	int rc = uvm_uffd_copy_ex(d->dep.uffd, uvm_dev_addr(a, off), uvm_dma_addr(a, off), len,
				  UVM_MAP_WP | wake_flag(d));

	if (rc)
		uvm_driver_bug("mapping a read-only copy on the device", first, rc);
	d->st.ns.copy += uvm_driver_elapsed(t);
	uvm_driver_book(d, UVM_H2D, len);
}

void uvm_op_map_remote(struct uvm_driver *d, size_t first, size_t n)
{
	struct uvm_space *s = d->dep.space;
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	bool pinned = s->block[first].advice & UVM_ADV_PIN_HOST;

	uvm_tracker_settle(&d->tracker, first, n);
	if (s->block[first].state == UVM_HOST)
		uvm_op_zap_host(d, first, n);
	ro_copy(d, off, len, first);
	for (size_t b = first; b < first + n; b++)
		d->remote_blocks += s->block[b].state != UVM_REMOTE;
	set_state(d, first, n, UVM_REMOTE);
	for (size_t b = first; b < first + n; b++) {
		d->ro_copies += !(s->block[b].flags & UVM_BF_RO_COPY);
		s->block[b].flags |= UVM_BF_RO_COPY;
	}
	gmmu_bits(d, first, n, UVMEMU_GMMU_REMOTE | (pinned ? UVMEMU_GMMU_PINNED : 0), 0);
	d->st.remote_bytes += len;
	d->st.blocks_remote += n;
}

void uvm_op_remote_forget(struct uvm_driver *d, size_t first, size_t n)
{
	struct uvm_space *s = d->dep.space;

	for (size_t b = first; b < first + n; b++) {
		if (s->block[b].state != UVM_REMOTE || !(s->block[b].flags & UVM_BF_RO_COPY))
			continue;
		uvm_tracker_dontneed(&d->tracker, uvm_dev_addr(d->dep.arena, b << UVM_BLOCK_SHIFT),
				     UVM_BLOCK_SIZE, b, 1, d->seq);
		s->block[b].flags &= (uint8_t)~UVM_BF_RO_COPY;
		d->ro_copies--;
	}
}

void uvm_op_remote_to_device(struct uvm_driver *d, size_t first, size_t n)
{
	const struct uvm_arena *a = d->dep.arena;
	struct uvm_space *s = d->dep.space;

	uvm_tracker_settle(&d->tracker, first, n);
	for (size_t b = first; b < first + n; b++) {
		uint64_t off = (uint64_t)b << UVM_BLOCK_SHIFT, t = uvm_now_ns();
		int rc;

		if (s->block[b].flags & UVM_BF_RO_COPY) {
			/* The data crossed when the copy was made: lifting the
			 * protection makes it the device's own. */
			rc = uvm_uffd_writeprotect(d->dep.uffd, uvm_dev_addr(a, off),
						   UVM_BLOCK_SIZE, false, d->wake_at_copy);
			d->st.ns.map += uvm_driver_elapsed(t);
		} else {
			rc = uvm_uffd_copy(d->dep.uffd, uvm_dev_addr(a, off), uvm_dma_addr(a, off),
					   UVM_BLOCK_SIZE, d->wake_at_copy);
			d->st.ns.copy += uvm_driver_elapsed(t);
			uvm_driver_book(d, UVM_H2D, UVM_BLOCK_SIZE);
			d->st.bytes_h2d += UVM_BLOCK_SIZE;
		}
		if (rc)
			uvm_driver_bug("migrating a remote block to the device", b, rc);
		d->ro_copies -= (s->block[b].flags & UVM_BF_RO_COPY) != 0;
		s->block[b].flags &= (uint8_t)~UVM_BF_RO_COPY;
		t = uvm_now_ns();
		uvm_tracker_punch(&d->tracker, a->memfd, off, UVM_BLOCK_SIZE, b, 1, d->seq);
		d->st.ns.unmap += uvm_driver_elapsed(t);
	}
	gmmu_bits(d, first, n, 0, UVMEMU_GMMU_REMOTE | UVMEMU_GMMU_PINNED);
	set_state(d, first, n, UVM_DEVICE);
	d->remote_blocks -= n;
	uvm_ops_became_resident(d, first, n);
	d->st.blocks_h2d += n;
}

/* Drops device copies and waits: a GPU load must not read a stale copy once
 * the CPU, woken at replay, writes the host data. */
static void drop_device_copy(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t t = uvm_now_ns();

	uvm_tracker_dontneed(&d->tracker,
			     uvm_dev_addr(d->dep.arena, (uint64_t)first << UVM_BLOCK_SHIFT),
			     (uint64_t)n << UVM_BLOCK_SHIFT, first, n, d->seq);
	uvm_tracker_settle(&d->tracker, first, n);
	d->st.ns.unmap += uvm_driver_elapsed(t);
}

void uvm_op_remote_to_host(struct uvm_driver *d, size_t first, size_t n)
{
	struct uvm_space *s = d->dep.space;

	uvm_tracker_settle(&d->tracker, first, n);
	for (size_t b = first; b < first + n; b++) {
		if (s->block[b].flags & UVM_BF_RO_COPY) {
			drop_device_copy(d, b, 1);
			d->ro_copies--;
		}
		s->block[b].flags &= (uint8_t)~UVM_BF_RO_COPY;
	}
	gmmu_bits(d, first, n, 0, UVMEMU_GMMU_REMOTE | UVMEMU_GMMU_PINNED);
	set_state(d, first, n, UVM_HOST);
	d->remote_blocks -= n;
	uvm_op_host_map(d, first, n, 0);
}

void uvm_op_duplicate(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	uint64_t t;
	int rc;

	uvm_tracker_settle(&d->tracker, first, n);
	t = uvm_now_ns();
	if (d->dep.uffd->shmem_wp) {
		/* CPU reads go on; a CPU write takes a write-protect fault. */
		rc = uvm_uffd_writeprotect(d->dep.uffd, uvm_host_addr(d->dep.arena, off), len, true,
					   false);
		if (rc)
			uvm_driver_bug("write-protecting host pages", first, rc);
		d->st.ns.unmap += uvm_driver_elapsed(t);
	} else {
		uvm_op_zap_host(d, first, n);
	}
	ro_copy(d, off, len, first);
	set_state(d, first, n, UVM_DUPLICATED);
	uvm_ops_became_resident(d, first, n);
	d->st.bytes_h2d += len;
	d->st.blocks_duplicated += n;
}

void uvm_op_dup_to_device(struct uvm_driver *d, size_t first, size_t n)
{
	const struct uvm_arena *a = d->dep.arena;
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	uint64_t t;
	int rc;

	uvm_tracker_settle(&d->tracker, first, n);
	uvm_op_zap_host(d, first, n);
	t = uvm_now_ns();
	rc = uvm_uffd_writeprotect(d->dep.uffd, uvm_dev_addr(a, off), len, false, d->wake_at_copy);
	if (rc)
		uvm_driver_bug("collapsing a duplicated block to the device", first, rc);
	d->st.ns.map += uvm_driver_elapsed(t);
	t = uvm_now_ns();
	uvm_tracker_punch(&d->tracker, a->memfd, off, len, first, n, d->seq);
	d->st.ns.unmap += uvm_driver_elapsed(t);
	set_state(d, first, n, UVM_DEVICE);
}

void uvm_op_dup_to_host(struct uvm_driver *d, size_t first, size_t n, bool evicting)
{
	uint64_t off = (uint64_t)first << UVM_BLOCK_SHIFT, len = (uint64_t)n << UVM_BLOCK_SHIFT;
	int rc;

	/* Nothing to write back: the host copy is valid. The device copy goes
	 * before the host pages become writable again. */
	uvm_tracker_settle(&d->tracker, first, n);
	drop_device_copy(d, first, n);
	if (d->dep.uffd->shmem_wp) {
		rc = uvm_uffd_writeprotect(d->dep.uffd, uvm_host_addr(d->dep.arena, off), len,
					   false, false);
		if (rc)
			uvm_driver_bug("lifting write protection from host pages", first, rc);
	}
	set_state(d, first, n, UVM_HOST);
	uvm_ops_left_device(d, first, n, evicting);
}
