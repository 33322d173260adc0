// SPDX-License-Identifier: MIT
/*
 * ops_peer.c - advice that names a device (--gpus N): peer mappings, and
 * the accessed-by mappings that follow the data.
 *
 * A peer mapping is a DEVICE block on GPU h mapped on another GPU's device
 * view as well. Under remap every view maps the memfd's frames, so it is a
 * UFFDIO_CONTINUE of the same frames: zero copies, and coherent, as a GPU's
 * loads and stores over NVLink or PCIe peer access are. Under the copy
 * backend a second view of private frames could not be coherent, so there
 * is none: the fault path migrates instead (backend.h's peer_map is NULL).
 *
 * Every peer mapping goes before its block leaves its GPU (residency stops
 * the process otherwise), and accessed-by GPUs map the data again where it
 * lands, as the real driver re-creates their mappings after a migration or
 * an eviction rather than letting them fault.
 *
 * Traffic through a peer mapping is charged as zero-copy traffic is: under
 * shared frames without GMMU accessors, each mapping made at a fault (the
 * first, and every one after sampling unmapped it) charges
 * --remote-sample-bytes per block on the peer link, from the holder to the
 * mapping GPU. Mappings made ahead of any access (advice, migrations) charge
 * nothing. GMMU accessors do not see peer mappings (their state is per
 * block, not per GPU): the traffic is not charged then.
 */
#include "driver_int.h"

#include <errno.h>

/* Whether the ops that follow data may map ahead of an access: a peer
 * needs shared frames; host data is mapped ahead with several GPUs only,
 * so that a run of one GPU keeps accessed-by as it was (mapped at the
 * first fault). */
static bool maps_ahead(const struct uvm_driver *d)
{
	return d->backend.ops->peer_map && d->ngpus > 1;
}

/* Maps blocks [first, first + n) (DEVICE on one other GPU) on GPU gpu's
 * view, those not mapped there yet; charge: a fault's mapping. */
void uvm_op_peer_map(struct uvm_driver *d, size_t first, size_t n, unsigned gpu, bool charge)
{
	const struct uvm_space *s = d->dep.space;
	unsigned holder = s->block[first].gpu;

	if (!d->backend.ops->peer_map)
		uvm_bug("a peer mapping where device frames are private", first, EINVAL);
	for (size_t b = first, e; b < first + n; b = e) {
		uint64_t bytes;

		if (uvm_block_peer_mapped(&s->block[b], gpu)) { /* mapped already */
			e = b + 1;
			continue;
		}
		for (e = b + 1; e < first + n && !uvm_block_peer_mapped(&s->block[e], gpu); e++)
			;
		if (s->block[b].state != UVM_DEVICE || s->block[e - 1].gpu != holder)
			uvm_bug("a peer mapping of a run not on one GPU", b, EINVAL);
		d->backend.ops->peer_map(uvm_driver_backend_on(d, gpu), b, e - b);
		uvm_res_peer_map(&d->res, b, e - b, gpu);
		d->st.blocks_peer_mapped += e - b;
		bytes =
		    charge && uvm_driver_counts_faults(d) ? d->remote_sample_bytes * (e - b) : 0;
		if (bytes) {
			uvm_model_book_peer(d->dep.model, &d->bt, holder, gpu, bytes);
			d->st.peer_remote_bytes += bytes;
		}
	}
}

void uvm_op_peer_unmap(struct uvm_driver *d, size_t first, size_t n, unsigned gpu, bool sampled)
{
	const struct uvm_space *s = d->dep.space;

	for (size_t b = first, e; b < first + n; b = e) {
		if (!uvm_block_peer_mapped(&s->block[b], gpu)) {
			e = b + 1;
			continue;
		}
		for (e = b + 1; e < first + n && uvm_block_peer_mapped(&s->block[e], gpu); e++)
			;
		d->backend.ops->peer_unmap(uvm_driver_backend_on(d, gpu), b, e - b);
		uvm_res_peer_unmap(&d->res, b, e - b, gpu, sampled);
	}
}

void uvm_op_peer_unmap_all(struct uvm_driver *d, size_t first, size_t n)
{
	unsigned any = 0;

	if (!d->res.peer_mapped) /* the common case: one GPU, or no such advice */
		return;
	for (size_t b = first; b < first + n; b++)
		any |= d->dep.space->block[b].peers;
	for (unsigned g = 0; any; g++, any >>= 1)
		if (any & 1)
			uvm_op_peer_unmap(d, first, n, g, false);
}

/* Whether block b, where it is now, wants a mapping ahead on GPU g: data
 * on another GPU that g has not mapped, or host data no view maps, whose
 * mapping goes to the lowest accessed-by GPU (a REMOTE block is mapped on
 * one view). */
static bool wants(const struct uvm_block *blk, unsigned g)
{
	if (!uvm_block_accessed_by(blk, g))
		return false;
	if (blk->state == UVM_DEVICE)
		return blk->gpu != g && !uvm_block_peer_mapped(blk, g);
	return blk->state == UVM_HOST && (unsigned)__builtin_ctz(blk->accessed_by) == g;
}

void uvm_op_follow_accessed_by(struct uvm_driver *d, size_t first, size_t n)
{
	const struct uvm_space *s = d->dep.space;
	unsigned any = 0;

	if (!maps_ahead(d))
		return;
	for (size_t b = first; b < first + n; b++)
		any |= s->block[b].accessed_by;
	for (unsigned g = 0; g < d->ngpus; g++) {
		if (!(any >> g & 1))
			continue;
		for (size_t b = first, e; b < first + n; b = e) {
			const struct uvm_block *blk = &s->block[b];

			if (!wants(blk, g)) {
				e = b + 1;
				continue;
			}
			for (e = b + 1; e < first + n && wants(&s->block[e], g) &&
					uvm_block_same_copies(&s->block[e], blk);
			     e++)
				;
			if (blk->state == UVM_DEVICE)
				uvm_op_peer_map(d, b, e - b, g, false);
			else
				uvm_op_map_remote_on(d, b, e - b, g, false);
		}
	}
}
