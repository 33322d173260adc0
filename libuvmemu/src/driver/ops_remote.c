// SPDX-License-Identifier: MIT
/*
 * ops_remote.c - blocks the GPU reaches where they are: REMOTE (zero-copy,
 * data stays on the host) and DUPLICATED (read-mostly: both sides read it).
 *
 * A REMOTE block is mapped on the device view until sampling unmaps it, so
 * that the next access faults and counts (without GMMU accessors nothing
 * else sees remote accesses). What a mapping charges to the link differs:
 * GMMU accessors (--gmmu count) charge the sectors warps really move, and
 * the mapping nothing, under either backend (the copy backend's copy is
 * then the emulator's view, booked when the block migrates); without them
 * the copy backend's copy is charged as it crosses (a block each way: to
 * the device when it is made, back when it is dropped if the GPU stored
 * into it), and under remap, where the GPU reaches the host frames
 * themselves, each sampled access is charged --remote-sample-bytes, an
 * estimate the report names (and --gmmu measure sets beside the exact
 * figure).
 *
 * A DUPLICATED block counts against device memory and is mapped read-only on
 * both sides; the first write from either side collapses it to that side.
 */
#include "driver_int.h"
#include "timing.h"

/* REMOTE blocks of [first, first + n) whose device mapping is `mapped`. */
static bool all_mapped(const struct uvm_driver *d, size_t first, size_t n, bool mapped)
{
	for (size_t b = first; b < first + n; b++)
		if (((d->dep.space->block[b].flags & UVM_BF_DEV_MAPPED) != 0) != mapped)
			return false;
	return true;
}

/*
 * Whether the copy backend's copy of a block mapped REMOTE is the link's
 * traffic: without GMMU accessors it is all the model sees of the remote
 * accesses; with them (--gmmu count) they charge the sectors warps move,
 * and the copy is only the emulator's way of giving them a view, its
 * transfer booked when the block migrates.
 */
static bool snapshot_booked(const struct uvm_driver *d)
{
	return !d->backend.ops->shared_frames && uvm_driver_counts_faults(d);
}

void uvm_op_map_remote_on(struct uvm_driver *d, size_t first, size_t n, unsigned gpu, bool charge)
{
	uint64_t booked = snapshot_booked(d) ? uvm_be_off(n) : 0;

	/* Shared frames: the estimate, unless the accessors charge exactly. A
	 * mapping ahead of any access (accessed-by) charges nothing there. */
	if (d->backend.ops->shared_frames)
		booked = charge && uvm_driver_counts_faults(d) ? d->remote_sample_bytes * n : 0;

	d->backend.ops->map_remote(uvm_driver_backend_on(d, gpu), first, n);
	if (booked)
		uvm_model_book(d->dep.model, &d->bt, UVM_H2D, booked);
	if (d->dep.space->block[first].state != UVM_REMOTE)
		uvm_res_move_gpu(&d->res, first, n, UVM_REMOTE, UVM_RES_MIGRATE, gpu);
	uvm_res_remote_map_on(&d->res, first, n, gpu);
	d->st.remote_bytes += booked;
	/* Booked as one transfer per mapping: one latency for the run. */
	d->st.remote_xacts += booked ? 1 : 0;
	d->st.blocks_remote += n;
}

void uvm_op_map_remote(struct uvm_driver *d, size_t first, size_t n)
{
	uvm_op_map_remote_on(d, first, n, d->target, true);
}

void uvm_op_remote_unmap(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t back;

	if (!all_mapped(d, first, n, true))
		uvm_bug("unmapping remote blocks that are not mapped", first, EINVAL);
	back = d->backend.ops->unmap_remote(uvm_driver_backend_of(d, first), first, n);
	uvm_res_remote_mapped(&d->res, first, n, false);
	d->st.blocks_remote_written_back += back >> UVM_BLOCK_SHIFT;
	/* A copy charged as it crossed: the GPU's stores cross back. */
	if (back && snapshot_booked(d)) {
		uvm_model_book(d->dep.model, &d->bt, UVM_D2H, back);
		d->st.remote_bytes += back;
		d->st.remote_xacts++;
	}
}

void uvm_op_remote_to_device(struct uvm_driver *d, size_t first, size_t n)
{
	bool mapped = d->dep.space->block[first].flags & UVM_BF_DEV_MAPPED;
	uint64_t len = uvm_be_off(n);

	if (!all_mapped(d, first, n, mapped))
		uvm_bug("a run of remote blocks mapped in part", first, EINVAL);
	/* Mapped on another GPU's view: that mapping goes first. */
	if (mapped && d->dep.space->block[first].gpu != d->target) {
		uvm_op_remote_unmap(d, first, n);
		mapped = false;
	}
	d->backend.ops->remote_to_device(uvm_driver_backend_on(d, d->target), first, n, mapped);
	/* A snapshot booked when it was mapped has crossed; anything else
	 * crosses now. */
	if (!mapped || !snapshot_booked(d)) {
		uvm_model_book(d->dep.model, &d->bt, UVM_H2D, len);
		d->st.bytes_h2d += len;
	}
	uvm_res_move_gpu(&d->res, first, n, UVM_DEVICE, UVM_RES_MIGRATE, d->target);
	d->st.blocks_h2d += n;
	uvm_op_follow_accessed_by(d, first, n);
}

void uvm_op_remote_to_host(struct uvm_driver *d, size_t first, size_t n, bool map_host)
{
	for (size_t b = first; b < first + n; b++)
		if (d->dep.space->block[b].flags & UVM_BF_DEV_MAPPED)
			uvm_op_remote_unmap(d, b, 1);
	uvm_res_move(&d->res, first, n, UVM_HOST, UVM_RES_MIGRATE);
	if (map_host)
		uvm_be_host_map(&d->backend, first, n, 0);
	uvm_op_follow_accessed_by(d, first, n);
}

void uvm_op_duplicate(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t len = uvm_be_off(n);

	d->backend.ops->duplicate(uvm_driver_backend_on(d, d->target), first, n);
	uvm_model_book(d->dep.model, &d->bt, UVM_H2D, len);
	uvm_res_move_gpu(&d->res, first, n, UVM_DUPLICATED, UVM_RES_MIGRATE, d->target);
	d->st.bytes_h2d += len;
	d->st.blocks_duplicated += n;
}

void uvm_op_dup_add(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t len = uvm_be_off(n);

	/* From the host's copy, which is valid: over the CPU-GPU link. */
	d->backend.ops->dup_add(uvm_driver_backend_on(d, d->target), first, n);
	uvm_model_book(d->dep.model, &d->bt, UVM_H2D, len);
	uvm_res_dup_add(&d->res, first, n, d->target);
	d->st.bytes_h2d += len;
	d->st.blocks_duplicated += n;
}

/* Drops the copies of a run of DUPLICATED blocks (they share their
 * copies) on every GPU but `keep`, whose copy the caller's final operation
 * takes. */
static void drop_copies(struct uvm_driver *d, size_t first, size_t n, unsigned keep)
{
	unsigned dups = d->dep.space->block[first].dups;

	for (unsigned g = 0; g < d->ngpus; g++) {
		if (!(dups >> g & 1) || g == keep)
			continue;
		d->backend.ops->dup_drop(uvm_driver_backend_on(d, g), first, n);
		uvm_res_dup_drop(&d->res, first, n, g, UVM_RES_MIGRATE);
	}
}

void uvm_op_dup_to_device(struct uvm_driver *d, size_t first, size_t n)
{
	/* This GPU's own copy first (a write from a GPU without one), then
	 * every other GPU's goes: one valid copy, this GPU's. */
	if (!(d->dep.space->block[first].dups >> d->target & 1))
		uvm_op_dup_add(d, first, n);
	drop_copies(d, first, n, d->target);
	d->backend.ops->dup_to_device(uvm_driver_backend_on(d, d->target), first, n);
	uvm_res_move_gpu(&d->res, first, n, UVM_DEVICE, UVM_RES_MIGRATE, d->target);
	uvm_op_follow_accessed_by(d, first, n);
}

void uvm_op_dup_to_host(struct uvm_driver *d, size_t first, size_t n, bool evicting)
{
	/* Every GPU's copy but the highest goes alone; the highest's drop
	 * makes the host pages writable again. */
	unsigned last = 31u - (unsigned)__builtin_clz(d->dep.space->block[first].dups);

	drop_copies(d, first, n, last);
	d->backend.ops->dup_to_host(uvm_driver_backend_on(d, last), first, n);
	uvm_res_move(&d->res, first, n, UVM_HOST, evicting ? UVM_RES_EVICT : UVM_RES_MIGRATE);
	uvm_op_follow_accessed_by(d, first, n);
}
