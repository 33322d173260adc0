// SPDX-License-Identifier: MIT
/*
 * backend_copy.c - two sets of frames: device frames are the device view's
 * private pages, and data really moves between them and the memfd.
 *
 * Host to device, in the real driver's order: unmap the host view first
 * (MADV_DONTNEED on the shared mapping zaps the PTEs and keeps the page
 * cache; a CPU touch from now on takes a MINOR fault and waits), copy through
 * the DMA view into the device view with UFFDIO_COPY, then punch the memfd to
 * free the host frames. Copy-then-unmap would lose a CPU write made during
 * the copy.
 *
 * Device to host: write-protect the device range first (a GPU write from now
 * on waits), write the data into the page cache (the host view stays
 * unmapped), MADV_DONTNEED the device range, and map the host pages only once
 * the device copy is gone, so that no GPU load reads a copy older than a CPU
 * write.
 *
 * A REMOTE block gets a copy on the device (a GPU access that faulted must be
 * able to retry through the device view) that takes the GPU's stores, as
 * zero-copy memory would; its host view is unmapped, so that a CPU touch
 * drops the copy, writing back what the GPU stored, before the CPU could
 * read stale data or leave the copy stale. Punches and device unmaps go
 * through the tracker (io_uring), and every operation first settles its
 * blocks.
 */
#include "backend.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bug.h"
#include "timing.h"

static uintptr_t dev(const struct uvm_backend *be, size_t b)
{
	return uvm_dev_addr_g(be->arena, be->gpu, uvm_be_off(b));
}

static uintptr_t dma(const struct uvm_backend *be, size_t b)
{
	return uvm_dma_addr(be->arena, uvm_be_off(b));
}

static void punch(struct uvm_backend *be, size_t first, size_t n)
{
	UVM_TIMED(be->st->ns.unmap,
		  uvm_tracker_punch(be->tracker, be->arena->memfd, uvm_be_off(first), uvm_be_off(n),
				    first, n, *be->seq));
}

/* Whether drop_device returns before the frames are gone (the tracker
 * completes the unmap, and a later operation on the blocks settles first) or
 * after. */
enum drop { DROP_ASYNC, DROP_WAIT };

static void drop_device(struct uvm_backend *be, size_t first, size_t n, enum drop drop)
{
	UVM_GPU_UNMAP_TIMED(be, {
		uvm_tracker_dontneed(be->tracker, dev(be, first), uvm_be_off(n), first, n,
				     *be->seq);
		if (drop == DROP_WAIT)
			uvm_tracker_settle(be->tracker, first, n);
	});
}

static void copy_in(struct uvm_backend *be, size_t first, size_t n, uintptr_t src, unsigned flags,
		    const char *what)
{
	int rc;

	UVM_TIMED(be->st->ns.copy, rc = uvm_uffd_copy(be->uffd, dev(be, first), src, uvm_be_off(n),
						      flags | be->wake));
	if (rc)
		uvm_bug(what, first, rc);
}

static void zero_fill(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	uvm_tracker_settle(be->tracker, first, n);
	/* A copy from zero pages gives the device real frames, as a GPU's
	 * zeroed chunk would be. */
	UVM_GPU_MAP_TIMED(
	    be, rc = uvm_uffd_copy(be->uffd, dev(be, first), be->zeros, uvm_be_off(n), be->wake));
	if (rc)
		uvm_bug("zero-filling device blocks", first, rc);
}

static void to_device(struct uvm_backend *be, size_t first, size_t n)
{
	uvm_tracker_settle(be->tracker, first, n);
	uvm_be_zap_host(be, first, n);
	copy_in(be, first, n, dma(be, first), 0, "copying blocks to the device");
	punch(be, first, n);
}

/* Writes the device copy into the page cache without mapping the host view:
 * the CPU must not see (and write) the host copy while the device copy is
 * still readable, or a GPU load could read stale data after a CPU write. */
static void write_back(struct uvm_backend *be, size_t first, size_t n)
{
	uint64_t off = uvm_be_off(first), len = uvm_be_off(n), done = 0;

	while (done < len) {
		/*
		 * The system call itself, not libc's wrapper: the kernel copies,
		 * ordered after the GPU's last write by the write-protect before
		 * it (and its TLB shootdown), an order thread sanitizers cannot
		 * see through an intercepted pwrite. UFFDIO_COPY, its counterpart
		 * the other way, is an ioctl they never interpret either.
		 */
		ssize_t w =
		    syscall(SYS_pwrite64, be->arena->memfd, (const void *)(dev(be, first) + done),
			    len - done, (off_t)(off + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			uvm_bug("writing device blocks back to host frames", first,
				       w < 0 ? errno : EIO);
		done += (uint64_t)w;
	}
}

/* Settles the blocks and write-protects their device pages: a GPU store from
 * now on waits, and the stores made so far can be written back before the
 * device copy goes. */
static void freeze_device(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	uvm_tracker_settle(be->tracker, first, n);
	UVM_GPU_UNMAP_TIMED(be, rc = uvm_uffd_protect(be->uffd, dev(be, first), uvm_be_off(n)));
	if (rc)
		uvm_bug("write-protecting device blocks", first, rc);
}

static void to_host(struct uvm_backend *be, size_t first, size_t n, bool map_host)
{
	freeze_device(be, first, n);
	UVM_TIMED(be->st->ns.copy, write_back(be, first, n));
	/* A CPU thread waits on this block: its pages map once the device copy
	 * is gone (an eviction's map at the CPU's next fault, which settles
	 * first as well). */
	drop_device(be, first, n, map_host ? DROP_WAIT : DROP_ASYNC);
	if (map_host)
		uvm_be_host_map(be, first, n, 0);
}

static void map_remote(struct uvm_backend *be, size_t first, size_t n)
{
	uvm_tracker_settle(be->tracker, first, n);
	uvm_be_zap_host(be, first, n);
	copy_in(be, first, n, dma(be, first), 0, "mapping a remote copy on the device");
}

/*
 * Whether block b's device copy differs from its host frames, that is,
 * whether the GPU stored into it since it was made. Called with the copy
 * write-protected, so no store is in flight: an order made by the kernel's
 * TLB shootdown, which a thread sanitizer cannot see (write_back leaves its
 * reads to a system call for the same reason), so it does not instrument
 * these loads.
 */
__attribute__((no_sanitize("thread"))) static bool stored_into(const struct uvm_backend *be,
							       size_t b)
{
	const uint64_t *d = (const uint64_t *)dev(be, b), *h = (const uint64_t *)dma(be, b);

	for (size_t i = 0; i < UVM_BLOCK_SIZE / sizeof(*d); i++)
		if (d[i] != h[i])
			return true;
	return false;
}

/* Writes back the blocks of [first, first + n) the GPU stored into; returns
 * their bytes. */
static uint64_t write_back_stored(struct uvm_backend *be, size_t first, size_t n)
{
	uint64_t back = 0;

	for (size_t b = first; b < first + n; b++)
		if (stored_into(be, b)) {
			write_back(be, b, 1);
			back += UVM_BLOCK_SIZE;
		}
	return back;
}

static uint64_t unmap_remote(struct uvm_backend *be, size_t first, size_t n)
{
	uint64_t back;

	freeze_device(be, first, n);
	UVM_TIMED(be->st->ns.copy, back = write_back_stored(be, first, n));
	/* Waited for: a GPU load must not read a stale copy once the CPU,
	 * woken at replay, writes the host data. */
	drop_device(be, first, n, DROP_WAIT);
	return back;
}

static void remote_to_device(struct uvm_backend *be, size_t first, size_t n, bool mapped)
{
	uvm_tracker_settle(be->tracker, first, n);
	/* Mapped: the data crossed when the copy was made, and the GPU's
	 * stores since are in it; it becomes the device's own as it is. */
	if (!mapped)
		copy_in(be, first, n, dma(be, first), 0, "migrating a remote block to the device");
	punch(be, first, n);
}

static void duplicate(struct uvm_backend *be, size_t first, size_t n)
{
	uvm_tracker_settle(be->tracker, first, n);
	/* CPU reads go on; a CPU write takes a write-protect fault. */
	if (be->uffd->shmem_wp)
		uvm_be_protect_host(be, first, n);
	else
		uvm_be_zap_host(be, first, n);
	copy_in(be, first, n, dma(be, first), UVM_MAP_WP, "mapping a read-only copy on the device");
}

static void dup_to_device(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	uvm_tracker_settle(be->tracker, first, n);
	uvm_be_zap_host(be, first, n);
	UVM_GPU_MAP_TIMED(
	    be, rc = uvm_uffd_unprotect(be->uffd, dev(be, first), uvm_be_off(n), be->wake));
	if (rc)
		uvm_bug("collapsing a duplicated block to the device", first, rc);
	punch(be, first, n);
}

static void dup_to_host(struct uvm_backend *be, size_t first, size_t n)
{
	/* Nothing to write back: the host copy is valid. The device copy goes
	 * before the host pages become writable again. */
	uvm_tracker_settle(be->tracker, first, n);
	drop_device(be, first, n, DROP_WAIT);
	if (be->uffd->shmem_wp)
		uvm_be_unprotect_host(be, first, n);
}

static void dup_add(struct uvm_backend *be, size_t first, size_t n)
{
	uvm_tracker_settle(be->tracker, first, n);
	copy_in(be, first, n, dma(be, first), UVM_MAP_WP,
		"copying a read-only copy to another GPU");
}

static void dup_drop(struct uvm_backend *be, size_t first, size_t n)
{
	uvm_tracker_settle(be->tracker, first, n);
	drop_device(be, first, n, DROP_WAIT);
}

/*
 * As the real driver does, the source stops writing before the copy: its
 * view is write-protected (a store through it waits for the driver), the
 * data copied into the destination's frames, then the source's freed. No
 * store may land in the destination's copy before the source's is gone, or
 * a load through the source's view could still read the stale copy there.
 * Not waking the destination's waiters until then is not enough: a thread
 * whose wait in its fault a signal interrupted, or one that finds the PTE
 * already there when it checks before sleeping, goes on without a wake-up
 * as soon as the copy lands. So the copy lands write-protected (loads read
 * the same data as the source's), and lifting the protection once the
 * source's copy is gone lets stores in and wakes the waiters.
 */
static void peer(struct uvm_backend *be, size_t first, size_t n, unsigned from)
{
	unsigned to = be->gpu, wake = be->wake;
	int rc;

	uvm_tracker_settle(be->tracker, first, n);
	be->gpu = from;
	UVM_GPU_UNMAP_TIMED(be, rc = uvm_uffd_protect(be->uffd, dev(be, first), uvm_be_off(n)));
	be->gpu = to;
	if (rc)
		uvm_bug("write-protecting blocks on the source GPU", first, rc);
	be->wake = 0;
	copy_in(be, first, n, uvm_dev_addr_g(be->arena, from, uvm_be_off(first)), UVM_MAP_WP,
		"copying blocks to the destination GPU");
	be->wake = wake;
	be->gpu = from;
	drop_device(be, first, n, DROP_WAIT);
	be->gpu = to;
	UVM_GPU_MAP_TIMED(be,
			  rc = uvm_uffd_unprotect(be->uffd, dev(be, first), uvm_be_off(n), wake));
	if (rc)
		uvm_bug("making blocks writable on the destination GPU", first, rc);
}

static uint64_t register_mode(const struct uvm_uffd *u, bool device_view)
{
	if (device_view)
		return UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_WP;
	/* Write-protect on the host view, where the kernel has it, lets a
	 * read-duplicated block stay readable on the CPU side. */
	return UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_MINOR |
	       (u->shmem_wp ? UFFDIO_REGISTER_MODE_WP : 0);
}

const struct uvm_backend_ops uvm_backend_copy = {
    .name = "copy",
    .shared_frames = false,
    .coherent_remote = false,
    .zero_fill = zero_fill,
    .to_device = to_device,
    .to_host = to_host,
    .map_remote = map_remote,
    .unmap_remote = unmap_remote,
    .remote_to_device = remote_to_device,
    .duplicate = duplicate,
    .dup_to_device = dup_to_device,
    .dup_to_host = dup_to_host,
    .dup_add = dup_add,
    .dup_drop = dup_drop,
    .peer = peer,
    .register_mode = register_mode,
};
