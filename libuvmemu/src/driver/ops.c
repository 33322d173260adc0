// SPDX-License-Identifier: MIT
/*
 * ops.c - the driver's operations on runs of blocks within one vablock.
 *
 * Each has three parts, always in this order: the backend carries out the
 * page-table work (backend.h: remap or copy), the model books the link for
 * the bytes a GPU's copy engines would move (the modelled DMA, whether or not
 * the backend copies), and the residency module records the new state, which
 * updates every count and tells the observers. The batch's statistics count
 * the blocks and bytes.
 */
#include "driver_int.h"
#include "timing.h"

#include <errno.h>

void uvm_op_zero_fill(struct uvm_driver *d, size_t first, size_t n)
{
	/* Real frames, as a GPU's zeroed chunk would be; no bytes cross the link. */
	d->backend.ops->zero_fill(uvm_driver_backend_on(d, d->target), first, n);
	uvm_res_move_gpu(&d->res, first, n, UVM_DEVICE, UVM_RES_MIGRATE, d->target);
	d->st.blocks_zero_filled += n;
	uvm_op_arrived(d, first, n);
	uvm_op_follow_accessed_by(d, first, n);
}

void uvm_op_to_device(struct uvm_driver *d, size_t first, size_t n)
{
	uint64_t len = uvm_be_off(n);

	d->backend.ops->to_device(uvm_driver_backend_on(d, d->target), first, n);
	uvm_model_book(d->dep.model, &d->bt, UVM_H2D, len);
	uvm_res_move_gpu(&d->res, first, n, UVM_DEVICE, UVM_RES_MIGRATE, d->target);
	d->st.bytes_h2d += len;
	d->st.blocks_h2d += n;
	uvm_op_arrived(d, first, n);
	uvm_op_follow_accessed_by(d, first, n);
}

void uvm_op_to_host(struct uvm_driver *d, size_t first, size_t n, bool evicting)
{
	uint64_t len = uvm_be_off(n);

	uvm_op_peer_unmap_all(d, first, n);
	/* A CPU fault's own migration maps the host pages for the waiting
	 * thread; an eviction's map at the CPU's next touch. */
	d->backend.ops->to_host(uvm_driver_backend_of(d, first), first, n, !evicting);
	uvm_model_book(d->dep.model, &d->bt, UVM_D2H, len);
	uvm_res_move(&d->res, first, n, UVM_HOST, evicting ? UVM_RES_EVICT : UVM_RES_MIGRATE);
	d->st.bytes_d2h += len;
	d->st.blocks_d2h += n;
	uvm_op_follow_accessed_by(d, first, n);
}

void uvm_op_host_fill(struct uvm_driver *d, size_t first, size_t n)
{
	uvm_be_host_fill(&d->backend, first, n);
	uvm_res_move(&d->res, first, n, UVM_HOST, UVM_RES_MIGRATE);
	d->st.host_fill_bytes += uvm_be_off(n);
	d->st.host_fills++;
	uvm_op_follow_accessed_by(d, first, n);
}

void uvm_op_arrived(struct uvm_driver *d, size_t first, size_t n)
{
	unsigned c = d->arrived.count;

	if (!d->arrived.open)
		return;
	if (c > 0 && d->arrived.first[c - 1] + d->arrived.n[c - 1] == first) {
		d->arrived.n[c - 1] += n;
	} else if (c < sizeof(d->arrived.first) / sizeof(d->arrived.first[0])) {
		d->arrived.first[c] = first;
		d->arrived.n[c] = n;
		d->arrived.count = c + 1;
	}
}

void uvm_op_probe(struct uvm_driver *d, size_t first, size_t n)
{
	d->backend.ops->probe(uvm_driver_backend_of(d, first), first, n);
	uvm_res_probed(&d->res, first, n, true);
}

void uvm_op_unprobe(struct uvm_driver *d, size_t first, size_t n)
{
	d->backend.ops->unprobe(uvm_driver_backend_of(d, first), first, n);
	uvm_res_probed(&d->res, first, n, false);
}

/* A run of blocks of one vablock sharing a state. */
struct run_list {
	size_t first[UVM_ZAP_RUNS], n[UVM_ZAP_RUNS];
	uint8_t state[UVM_ZAP_RUNS];
	size_t count;
};

void uvm_op_peer(struct uvm_driver *d, size_t first, size_t n, enum uvm_res_how how)
{
	unsigned from = d->dep.space->block[first].gpu;
	uint64_t len = uvm_be_off(n);

	uvm_op_peer_unmap_all(d, first, n);
	d->backend.ops->peer(uvm_driver_backend_on(d, d->target), first, n, from);
	uvm_model_book_peer(d->dep.model, &d->bt, from, d->target, len);
	uvm_res_peer(&d->res, first, n, d->target, how);
	d->st.bytes_p2p += len;
	d->st.blocks_p2p += n;
	uvm_op_arrived(d, first, n);
	uvm_op_follow_accessed_by(d, first, n);
}

/* Each run's own operation to the host, the device views unmapped first in
 * one batch where the frames are shared (remap; the copy backend drops device
 * frames through its tracker). */
static void runs_to_host(struct uvm_driver *d, const struct run_list *l, bool evicting)
{
	struct uvm_backend *be = &d->backend;

	/* One batched zap of every run's device view: one TLB shootdown for
	 * the lot where the kernel batches them. With several GPUs the runs'
	 * copies may be on different views: each run zaps its own. */
	if (be->ops->shared_frames && l->count > 1 && d->ngpus == 1) {
		uvm_be_zap_runs(uvm_driver_backend_on(d, 0), UVM_VIEW_DEVICE, l->first, l->n,
				l->count);
		be->zapped = UVM_VIEW_DEVICE;
	}
	for (size_t i = 0; i < l->count; i++) {
		/* A duplicated block's host copy is valid: it only loses its
		 * device copy. */
		if (l->state[i] == UVM_DEVICE)
			uvm_op_to_host(d, l->first[i], l->n[i], evicting);
		else
			uvm_op_dup_to_host(d, l->first[i], l->n[i], evicting);
	}
	be->zapped = 0;
}

/* A GPU other than d->target with room for n blocks (--evict-to peer), or
 * -1: the one with the most room, so that evictions spread. */
static int peer_with_room(struct uvm_driver *d, size_t n)
{
	uint64_t best = 0;
	int which = -1;

	for (unsigned g = 0; g < d->ngpus; g++) {
		uint64_t free_blocks = uvm_pool_free(uvm_driver_pool(d, g));

		if (g != d->target && free_blocks >= n && free_blocks > best) {
			best = free_blocks;
			which = (int)g;
		}
	}
	return which;
}

/* A run of blocks on GPU d->target being evicted: DUPLICATED ones lose this
 * GPU's copy (others' and the host's stay valid); DEVICE ones go to a peer
 * with room under --evict-to peer, else to the host. Returns whether it
 * went to the host (its part of a batched write-back). */
static bool evict_run(struct uvm_driver *d, size_t first, size_t n, uint8_t st)
{
	unsigned target = d->target;
	int peer;

	if (st == UVM_DUPLICATED && d->dep.space->block[first].dups != 1u << target) {
		d->backend.ops->dup_drop(uvm_driver_backend_on(d, target), first, n);
		uvm_res_dup_drop(&d->res, first, n, target, UVM_RES_EVICT);
		return false;
	}
	if (st != UVM_DEVICE || !d->evict_to_peer || (peer = peer_with_room(d, n)) < 0)
		return true;
	d->target = (unsigned)peer;
	uvm_op_peer(d, first, n, UVM_RES_EVICT);
	d->target = target;
	d->st.blocks_evicted_peer += n;
	return false;
}

void uvm_op_evict(struct uvm_driver *d, const struct uvm_victim *v)
{
	const struct uvm_space *s = d->dep.space;
	size_t b = v->first, end = v->first + v->n, evicted = 0;
	struct run_list l = {.count = 0};

	while (b < end) {
		uint8_t st = s->block[b].state;
		size_t run = 0;

		if (!uvm_block_on_gpu(&s->block[b], d->target)) {
			b++;
			continue;
		}
		while (b + run < end && uvm_block_same_copies(&s->block[b + run], &s->block[b]) &&
		       uvm_vablock_of(b + run) == uvm_vablock_of(b))
			run++;
		evicted += run;
		if (!evict_run(d, b, run, st)) {
			b += run;
			continue;
		}
		if (l.count == UVM_ZAP_RUNS) {
			runs_to_host(d, &l, true);
			l.count = 0;
		}
		l.first[l.count] = b;
		l.n[l.count] = run;
		l.state[l.count++] = st;
		b += run;
	}
	runs_to_host(d, &l, true);
	if (evicted == 0)
		uvm_bug("the eviction policy chose a victim with nothing on the device",
			       v->first, EINVAL);
	d->st.blocks_evicted += evicted;
	d->st.vablocks_evicted++;
}

/* The runs of blocks of `mask` (vablock from `first`) sharing a state, those
 * whose state is in `states` (a bit per state); returns how many blocks of
 * other states it left out. */
static size_t collect_runs(const struct uvm_space *s, size_t first, struct uvm_vbmask mask,
			   unsigned states, struct run_list *l)
{
	size_t left_out = 0;

	l->count = 0;
	uvm_vbmask_for_each_run(lo, hi, mask) {
		for (unsigned i = lo, j; i < hi; i = j) {
			const struct uvm_block *blk = &s->block[first + i];
			uint8_t st = blk->state;

			for (j = i + 1; j < hi && uvm_block_same_copies(&s->block[first + j], blk);
			     j++)
				;
			if (!(states & 1u << st)) {
				left_out += j - i;
				continue;
			}
			l->first[l->count] = first + i;
			l->n[l->count] = j - i;
			l->state[l->count++] = st;
		}
	}
	return left_out;
}

void uvm_op_to_host_mask(struct uvm_driver *d, size_t first, struct uvm_vbmask mask)
{
	struct run_list l;

	if (collect_runs(d->dep.space, first, mask, 1u << UVM_DEVICE | 1u << UVM_DUPLICATED, &l))
		uvm_bug("bringing back a block not on the device", first, EINVAL);
	runs_to_host(d, &l, false);
}

bool uvm_op_zap_host_first(struct uvm_driver *d, size_t first, struct uvm_vbmask mask)
{
	struct run_list l;

	collect_runs(d->dep.space, first, mask, 1u << UVM_HOST | 1u << UVM_REMOTE, &l);
	/* One run: its own operation zaps it, as before. */
	if (l.count < 2)
		return false;
	uvm_be_zap_runs(uvm_driver_backend_on(d, d->target), UVM_VIEW_HOST, l.first, l.n, l.count);
	d->backend.zapped = UVM_VIEW_HOST;
	return true;
}
