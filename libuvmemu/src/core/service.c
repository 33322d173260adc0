// SPDX-License-Identifier: MIT
/*
 * service.c - servicing a preprocessed batch, one vablock at a time.
 *
 * For the GPU faults of a vablock: ask the migration policy about each
 * faulted block, the prefetcher for extra blocks, make room with the
 * eviction policy, then run the operations (zero-fill for EMPTY runs,
 * host-to-device migration for HOST runs). CPU faults of the vablock follow;
 * one on a block the GPU also faulted in this batch waits for the next batch,
 * so the block does not bounce within one batch.
 */
#include "driver_int.h"
#include "clock.h"

#include <errno.h>

static uint32_t resident_mask(const struct uvm_space *s, size_t first, unsigned nvalid)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < nvalid; i++) {
		uint8_t st = s->block[first + i].state;

		if (st == UVM_DEVICE || st == UVM_DUPLICATED)
			m |= 1u << i;
	}
	return m;
}

/* Runs of blocks in one state within `mask`, each handed to its operation. */
static void run_ops(struct uvm_driver *d, size_t first, uint32_t mask)
{
	const struct uvm_space *s = d->dep.space;

	while (mask) {
		unsigned i = (unsigned)__builtin_ctz(mask), j = i;
		uint8_t st = s->block[first + i].state;

		while (j + 1 < 32 && (mask >> (j + 1) & 1) && s->block[first + j + 1].state == st)
			j++;
		if (st == UVM_EMPTY)
			uvm_op_zero_fill(d, first + i, j - i + 1);
		else if (st == UVM_HOST)
			uvm_op_to_device(d, first + i, j - i + 1);
		else
			uvm_driver_bug("migrating a block in an unexpected state", first + i, EINVAL);
		mask &= ~(uvm_mask_below(j + 1) & ~uvm_mask_below(i));
	}
}

/*
 * Evicts until `blocks` more fit. The victims' device unmaps run
 * asynchronously, overlapping each other, but their frames are free before
 * anything is copied in: device memory in use never exceeds its capacity,
 * not even for the length of a batch.
 */
int uvm_service_make_room(struct uvm_driver *d, uint64_t blocks, size_t keep_vablock)
{
	struct uvm_evict_ctx ctx = {
		.space = d->dep.space,
		.batch = d->seq,
		.launch = d->launch_seen ? d->launch_seen - 1 : 0,
		.keep_vablock = keep_vablock,
	};
	struct uvm_victim v;
	bool evicted = false;
	int rc = 0;
	uint64_t t;

	while (uvm_pool_free(d->dep.pool) < blocks) {
		t = uvm_now_ns();
		if (d->evict->pick(d->evict_p, &ctx, &v)) {
			ctx.allow_in_use = true;
			if (d->evict->pick(d->evict_p, &ctx, &v)) {
				d->st.ns.policy += uvm_driver_elapsed(t);
				rc = -ENOSPC;
				break;
			}
		}
		d->st.ns.policy += uvm_driver_elapsed(t);
		uvm_op_evict(d, &v);
		evicted = true;
	}
	if (evicted) {
		t = uvm_now_ns();
		/* Waiting for unmaps inside service counts as unmap time (the
		 * tracker_wait stage is the end-of-batch wait). */
		uvm_tracker_wait_device_unmaps(&d->tracker);
		d->st.ns.unmap += uvm_driver_elapsed(t);
	}
	return rc;
}

void uvm_service_evict_all_excess(struct uvm_driver *d)
{
	struct uvm_evict_ctx ctx = {.space = d->dep.space, .batch = d->seq,
				    .keep_vablock = SIZE_MAX, .allow_in_use = true};
	struct uvm_victim v;

	while (uvm_pool_excess(d->dep.pool) > 0 && d->evict->pick(d->evict_p, &ctx, &v) == 0)
		uvm_op_evict(d, &v);
	uvm_tracker_wait_device_unmaps(&d->tracker);
}

/* What happened to each faulted block of a vablock, for fault outcomes. */
struct gpu_result {
	uint32_t stale, zero_filled;
};

static struct gpu_result service_gpu(struct uvm_driver *d, size_t vab, uint32_t faulted,
				     uint32_t written)
{
	struct gpu_result res = {0};
	struct uvm_space *s = d->dep.space;
	size_t first = uvm_vablock_first(vab);
	unsigned nvalid = s->vablock[vab].nvalid;
	uint32_t valid = uvm_mask_below(nvalid);
	uint32_t resident = resident_mask(s, first, nvalid);
	uint32_t need = faulted & ~resident & valid, extra = 0;
	struct uvm_prefetch_ctx pctx = {s, vab, faulted, resident, valid};
	struct uvm_pool snap;
	uint64_t t = uvm_now_ns();

	for (uint32_t m = faulted & resident; m; m &= m - 1) {
		size_t b = first + (size_t)__builtin_ctz(m);

		s->block[b].flags &= (uint8_t)~UVM_BF_PREFETCHED;
		if (written >> __builtin_ctz(m) & 1)
			s->block[b].flags |= UVM_BF_WRITTEN;
		if (d->evict->touched)
			d->evict->touched(d->evict_p, b, written >> __builtin_ctz(m) & 1);
	}
	d->st.stale_faults += (uint64_t)__builtin_popcount(faulted & resident);
	res.stale = faulted & resident;
	for (uint32_t m = need; m; m &= m - 1)
		if (s->block[first + (size_t)__builtin_ctz(m)].state == UVM_EMPTY)
			res.zero_filled |= m & -m;
	uvm_pool_snapshot(d->dep.pool, &snap);
	for (uint32_t m = need; m; m &= m - 1) {
		struct uvm_migrate_ctx mctx = {
			.space = s,
			.block = first + (size_t)__builtin_ctz(m),
			.write = written >> __builtin_ctz(m) & 1,
			.capacity_blocks = snap.resolved ? snap.capacity : 0,
			.used_blocks = snap.used + snap.pinned,
		};

		/* Remote mapping arrives with the zero-copy policies; until a
		 * policy asks for it every block migrates. */
		(void)d->migrate->decide(d->migrate_p, &mctx);
	}
	if (need)
		extra = d->prefetch->pick(d->prefetch_p, &pctx) & valid & ~resident & ~need;
	d->st.ns.policy += uvm_driver_elapsed(t);

	if (need | extra) {
		uint32_t want = need | extra;

		if (uvm_service_make_room(d, (uint64_t)__builtin_popcount(want), vab)) {
			/* No room for the prefetch: bring the faulted blocks alone. */
			want = need;
			extra = 0;
			if (uvm_service_make_room(d, (uint64_t)__builtin_popcount(want), vab))
				uvm_driver_bug("no device memory for one vablock's faults", first,
					       ENOSPC);
		}
		run_ops(d, first, want);
		for (uint32_t m = extra; m; m &= m - 1)
			s->block[first + (size_t)__builtin_ctz(m)].flags |= UVM_BF_PREFETCHED;
		for (uint32_t m = need & written; m; m &= m - 1)
			s->block[first + (size_t)__builtin_ctz(m)].flags |= UVM_BF_WRITTEN;
		d->st.blocks_prefetched += (uint64_t)__builtin_popcount(extra);
	}
	for (uint32_t m = faulted; m; m &= m - 1)
		uvm_batch_add_wake(d, d->dep.arena->dev + ((first + (size_t)__builtin_ctz(m))
							   << UVM_BLOCK_SHIFT),
				   UVM_BLOCK_SIZE);
	return res;
}

static void service_cpu(struct uvm_driver *d, struct uvm_fault *f)
{
	struct uvm_space *s = d->dep.space;
	size_t b = f->page >> UVM_BLOCK_SHIFT;
	size_t fill = d->host_fill >> UVM_BLOCK_SHIFT;
	size_t vfirst = uvm_vablock_first(uvm_vablock_of(b));
	size_t lo, hi, wlo, whi;

	switch (s->block[b].state) {
	case UVM_DEVICE:
		uvm_op_to_host(d, b, 1, false);
		f->outcome = UVM_OUT_MIGRATED;
		break;
	case UVM_EMPTY:
		/* First touch of fresh memory: fill the EMPTY run around the
		 * fault within its aligned --host-fill window, so that
		 * initialising an array does not cost a round trip per page. */
		wlo = b - (b - vfirst) % fill;
		whi = wlo + fill;
		if (whi > vfirst + s->vablock[uvm_vablock_of(b)].nvalid)
			whi = vfirst + s->vablock[uvm_vablock_of(b)].nvalid;
		for (lo = b; lo > wlo && s->block[lo - 1].state == UVM_EMPTY; lo--)
			;
		for (hi = b + 1; hi < whi && s->block[hi].state == UVM_EMPTY; hi++)
			;
		uvm_op_host_fill(d, lo, hi - lo);
		f->outcome = UVM_OUT_HOST_FILL;
		break;
	case UVM_HOST:
		/* Mapped again after a migration raced with this access, or
		 * never mapped here: map what the page cache holds. */
		uvm_op_host_remap(d, b, 1);
		f->outcome = UVM_OUT_REMAPPED;
		break;
	case UVM_UNALLOCATED:
		/* The range was freed after the fault was queued. */
		f->outcome = UVM_OUT_FREED;
		break;
	default:
		uvm_driver_bug("CPU fault on a block in an unexpected state", b, EINVAL);
	}
	uvm_batch_add_wake(d, d->dep.arena->host + (b << UVM_BLOCK_SHIFT), UVM_BLOCK_SIZE);
}

static void defer(struct uvm_driver *d, struct uvm_fault *f)
{
	f->outcome = UVM_OUT_DEFERRED;
	d->deferred[d->ndeferred++] = *f;
}

/* Far faults are the access counters' source when no accessors count. */
static void count_access(struct uvm_driver *d, const struct uvm_fault *f)
{
	if (uvm_driver_counts_faults(d) &&
	    uvm_counter_add(d->dep.space, f->page >> UVM_BLOCK_SHIFT, f->count))
		d->halve_accesses = true;
}

void uvm_service_batch(struct uvm_driver *d)
{
	struct uvm_space *s = d->dep.space;
	size_t i = 0;

	while (i < d->nfault) {
		size_t vab = d->fault[i].page >> UVM_VABLOCK_SHIFT;
		size_t vfirst = uvm_vablock_first(vab);
		uint32_t faulted = 0, written = 0;
		struct gpu_result res;
		size_t j = i;

		if (s->vablock[vab].nvalid == 0) {
			/* Freed while its faults waited: wake them to fault on
			 * the unmapped range and report their program's bug. */
			for (; j < d->nfault && d->fault[j].page >> UVM_VABLOCK_SHIFT == vab; j++) {
				d->fault[j].outcome = UVM_OUT_FREED;
				uvm_batch_add_wake(d, (d->fault[j].gpu ? d->dep.arena->dev
								       : d->dep.arena->host) +
							      d->fault[j].page,
						   UVM_PAGE_SIZE);
			}
			i = j;
			continue;
		}
		s->vablock[vab].in_batch = d->seq;
		d->st.vablocks_serviced++;
		for (; j < d->nfault && d->fault[j].page >> UVM_VABLOCK_SHIFT == vab &&
		       d->fault[j].gpu;
		     j++) {
			uint32_t bit = 1u << ((d->fault[j].page >> UVM_BLOCK_SHIFT) - vfirst);

			faulted |= bit;
			if (d->fault[j].write)
				written |= bit;
			count_access(d, &d->fault[j]);
		}
		if (faulted) {
			res = service_gpu(d, vab, faulted, written);
			for (size_t k = i; k < j; k++) {
				uint32_t bit = 1u << ((d->fault[k].page >> UVM_BLOCK_SHIFT) - vfirst);

				d->fault[k].outcome = res.stale & bit	    ? UVM_OUT_STALE
						      : res.zero_filled & bit ? UVM_OUT_ZERO_FILL
									      : UVM_OUT_MIGRATED;
			}
		}
		for (; j < d->nfault && d->fault[j].page >> UVM_VABLOCK_SHIFT == vab; j++) {
			uint32_t bit = 1u << ((d->fault[j].page >> UVM_BLOCK_SHIFT) - vfirst);

			if (faulted & bit)
				defer(d, &d->fault[j]);
			else
				service_cpu(d, &d->fault[j]);
		}
		i = j;
	}
	for (size_t k = 0; k < d->nfault; k++)
		uvm_driver_trace_fault(d, &d->fault[k]);
}
