// SPDX-License-Identifier: MIT
/*
 * backend_remap.c - one set of frames: residency is which view has
 * page-table entries.
 *
 * The memfd holds a managed page's data for the allocation's whole life; the
 * host view and the device view both map it MAP_SHARED and are registered
 * MISSING | MINOR | WP. A migration unmaps one view and maps the other:
 *
 *   host -> device   MADV_DONTNEED on the host view (the real host unmap and
 *                    TLB shootdown: a CPU touch from now on takes a MINOR
 *                    fault and waits), then UFFDIO_CONTINUE on the device
 *                    view; the bytes are booked on the link by the caller
 *                    (the modelled DMA), not copied.
 *   device -> host   MADV_DONTNEED on the device view; the host view maps on
 *                    the CPU's touch (at once when a CPU waits).
 *   first touch      UFFDIO_ZEROPAGE on the touching side's view puts zeroed
 *                    pages in the page cache.
 *   REMOTE           both views map the frames: GPU loads and stores reach
 *                    host data at memory speed.
 *   DUPLICATED       both views map the frames write-protected; the first
 *                    write from either side collapses it.
 *   peer mapping     a DEVICE block's frames mapped on another GPU's view
 *                    too (--gpus: preferred location, accessed-by): its
 *                    loads and stores reach them over the peer link.
 *
 * A page can lose its mapping behind the driver's back: reclaim unmaps
 * shared memory it cannot free (DAMON's pageout on a machine without swap),
 * so a fault on a page the state says is mapped maps it again (refresh).
 *
 * Frames are shared, so no CPU/GPU race can lose a write; unmaps are
 * synchronous anyway, so residency stays exact: once a block is DEVICE, a
 * CPU access faults, and once it is HOST, a GPU access does. Nothing is
 * punched in the fault path; free punches the range.
 */
#include "backend.h"

#include <errno.h>
#include <sys/mman.h>

#include "bug.h"
#include "timing.h"

static uintptr_t dev(const struct uvm_backend *be, size_t b)
{
	return uvm_dev_addr_g(be->arena, be->gpu, uvm_be_off(b));
}

static void zap_device(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	if (be->zapped & UVM_VIEW_DEVICE)
		return;
	UVM_GPU_UNMAP_TIMED(be, rc = uvm_uffd_zap(be->uffd, dev(be, first), uvm_be_off(n)));
	if (rc)
		uvm_bug("unmapping blocks from the device view", first, rc);
}

static void map_device(struct uvm_backend *be, size_t first, size_t n, unsigned flags,
		       const char *what)
{
	int rc;

	UVM_GPU_MAP_TIMED(
	    be, rc = uvm_uffd_continue(be->uffd, dev(be, first), uvm_be_off(n), flags | be->wake));
	if (rc)
		uvm_bug(what, first, rc);
}

static void unprotect_device(struct uvm_backend *be, size_t first, size_t n, const char *what)
{
	int rc;

	UVM_GPU_MAP_TIMED(
	    be, rc = uvm_uffd_unprotect(be->uffd, dev(be, first), uvm_be_off(n), be->wake));
	if (rc)
		uvm_bug(what, first, rc);
}

static void zero_fill(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	UVM_GPU_MAP_TIMED(
	    be, rc = uvm_uffd_zeropage(be->uffd, dev(be, first), uvm_be_off(n), be->wake));
	if (rc)
		uvm_bug("zero-filling device blocks", first, rc);
}

static void to_device(struct uvm_backend *be, size_t first, size_t n)
{
	uvm_be_zap_host(be, first, n);
	map_device(be, first, n, 0, "mapping blocks on the device");
}

static void to_host(struct uvm_backend *be, size_t first, size_t n, bool map_host)
{
	zap_device(be, first, n);
	if (map_host)
		uvm_be_host_map(be, first, n, 0);
}

static void map_remote(struct uvm_backend *be, size_t first, size_t n)
{
	map_device(be, first, n, 0, "mapping host frames on the device");
}

static uint64_t unmap_remote(struct uvm_backend *be, size_t first, size_t n)
{
	zap_device(be, first, n);
	return 0; /* GPU stores went to the host frames themselves */
}

static void remote_to_device(struct uvm_backend *be, size_t first, size_t n, bool mapped)
{
	uvm_be_zap_host(be, first, n);
	if (!mapped)
		map_device(be, first, n, 0, "mapping blocks on the device");
}

static void duplicate(struct uvm_backend *be, size_t first, size_t n)
{
	/* CPU reads go on; a CPU write takes a write-protect fault. */
	uvm_be_protect_host(be, first, n);
	map_device(be, first, n, UVM_MAP_WP, "mapping a read-only copy on the device");
}

static void dup_to_device(struct uvm_backend *be, size_t first, size_t n)
{
	uvm_be_zap_host(be, first, n);
	unprotect_device(be, first, n, "collapsing a duplicated block to the device");
}

static void dup_to_host(struct uvm_backend *be, size_t first, size_t n)
{
	/* The device mapping goes before the host pages become writable. */
	zap_device(be, first, n);
	uvm_be_unprotect_host(be, first, n);
}

static void dup_add(struct uvm_backend *be, size_t first, size_t n)
{
	map_device(be, first, n, UVM_MAP_WP, "mapping another GPU's read-only copy");
}

static void dup_drop(struct uvm_backend *be, size_t first, size_t n)
{
	zap_device(be, first, n);
}

/* The source GPU's view goes first: a store through it must not land after
 * the destination has the frames (shared frames make that harmless for the
 * data, but residency must be exact). */
static void peer(struct uvm_backend *be, size_t first, size_t n, unsigned from)
{
	int rc;

	UVM_GPU_UNMAP_TIMED(
	    be, rc = uvm_uffd_zap(be->uffd, uvm_dev_addr_g(be->arena, from, uvm_be_off(first)),
				  uvm_be_off(n)));
	if (rc)
		uvm_bug("unmapping blocks from the source GPU's view", first, rc);
	map_device(be, first, n, 0, "mapping blocks on the destination GPU");
}

/* The holder's frames are the memfd's, as every view's: mapping them on
 * another GPU's view shares them, coherent, with nothing copied. */
static void peer_map(struct uvm_backend *be, size_t first, size_t n)
{
	map_device(be, first, n, 0, "mapping blocks on a peer GPU's view");
}

static void peer_unmap(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	UVM_GPU_UNMAP_TIMED(be, rc = uvm_uffd_zap(be->uffd, dev(be, first), uvm_be_off(n)));
	if (rc)
		uvm_bug("unmapping blocks from a peer GPU's view", first, rc);
}

static bool refresh(struct uvm_backend *be, uint64_t page_off, bool wp)
{
	int rc;

	UVM_GPU_MAP_TIMED(
	    be, rc = uvm_uffd_continue(be->uffd, uvm_dev_addr_g(be->arena, be->gpu, page_off),
				       UVM_PAGE_SIZE, (wp ? UVM_MAP_WP : 0) | be->wake));
	/* Mapped already: the fault was stale indeed. */
	if (rc && rc != -EEXIST)
		uvm_bug("mapping a page on the device again", page_off >> UVM_BLOCK_SHIFT,
			       rc);
	return rc == 0;
}

static void probe(struct uvm_backend *be, size_t first, size_t n)
{
	zap_device(be, first, n);
}

static void unprobe(struct uvm_backend *be, size_t first, size_t n)
{
	map_device(be, first, n, 0, "mapping probed blocks on the device again");
}

static uint64_t register_mode(const struct uvm_uffd *u, bool device_view)
{
	(void)u;
	(void)device_view;
	return UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_MINOR | UFFDIO_REGISTER_MODE_WP;
}

const struct uvm_backend_ops uvm_backend_remap = {
    .name = "remap",
    .shared_frames = true,
    .coherent_remote = true,
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
    .peer_map = peer_map,
    .peer_unmap = peer_unmap,
    .refresh = refresh,
    .probe = probe,
    .unprobe = unprobe,
    .register_mode = register_mode,
};
