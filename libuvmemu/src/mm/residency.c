// SPDX-License-Identifier: MIT
/* residency.c - block states, the counts that follow from them, their events. */
#include "residency.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bug.h"
#include "uvmemu_gmmu.h"

/* The arena's geometry and the access counters' layout are stated in the
 * public headers too; they must agree with the metadata's. */
_Static_assert(UVM_BLOCK_SHIFT == 16 || UVM_BLOCK_SHIFT == 12,
	       "the migration unit is 64 KB or 4 KB (--page-size)");
_Static_assert(UVM_BASIC_SHIFT >= UVM_BLOCK_SHIFT, "a basic block holds whole blocks");
_Static_assert(UVM_BLOCKS_PER_VABLOCK <= UINT16_MAX, "struct uvm_vablock counts blocks in 16 bits");
_Static_assert(UVMEMU_COUNTER_ACCESS_BITS == 27 && UVMEMU_COUNTER_TRIPS_SHIFT == 27,
	       "access counters: 27 access bits, 5 round-trip bits");

#define EACH_OBSERVER(r, o)                                                                        \
	for (const struct uvm_res_observer *o = (r)->obs; o < (r)->obs + (r)->nobs; o++)

void uvm_res_init(struct uvm_residency *r, struct uvm_space *space, struct uvm_pool *pool,
		  struct uvm_stats *st)
{
	memset(r, 0, sizeof(*r));
	r->space = space;
	r->pool = pool;
	r->ngpus = 1;
	r->st = st;
}

void uvm_res_set_gpus(struct uvm_residency *r, unsigned ngpus)
{
	if (ngpus == 0 || ngpus > UVM_MAX_GPUS)
		uvm_bug("a run of no GPU, or of more than a block's dups can hold", 0, EINVAL);
	r->ngpus = ngpus;
}

void uvm_res_observe(struct uvm_residency *r, const struct uvm_res_observer *o)
{
	if (r->nobs == UVM_RES_MAX_OBSERVERS) {
		fprintf(stderr, "uvmemu: internal error: too many residency observers\n");
		abort();
	}
	r->obs[r->nobs++] = *o;
	if (o->res)
		*o->res = r;
}

static void gmmu_bits(struct uvm_space *s, size_t b, uint8_t set, uint8_t clear)
{
	_Atomic uint8_t *g = &s->gmmu_state[b];

	if (clear)
		atomic_fetch_and_explicit(g, (uint8_t)~clear, memory_order_relaxed);
	if (set)
		atomic_fetch_or_explicit(g, set, memory_order_relaxed);
}

/* A copy of block b on GPU g came (delta +1) or went (-1): its vablock's
 * mask of that GPU's copies follows, the GPU's pool counts it (in deltas,
 * applied once per call: the pool's lock is taken once), and the observers
 * hear it with the GPU to read. */
static void copy_changed(struct uvm_residency *r, size_t b, unsigned g, int delta, int64_t *deltas)
{
	struct uvm_vbmask *on = &r->space->on_gpu[uvm_vablock_of(b) * UVM_MAX_GPUS + g];
	unsigned i = (unsigned)(b - uvm_vablock_first(uvm_vablock_of(b)));

	if (delta > 0)
		uvm_vbmask_set(on, i);
	else
		uvm_vbmask_clear(on, i);
	deltas[g] += delta;
	r->event_gpu = g;
	EACH_OBSERVER(r, o)
	if (delta > 0 ? o->resident != NULL : o->released != NULL)
		(delta > 0 ? o->resident : o->released)(o->p, b);
}

/* The GPUs holding a copy of a block in state st (gpu, dups: its fields). */
static unsigned copies_of(uint8_t st, uint8_t gpu, uint8_t dups)
{
	if (st == UVM_DEVICE)
		return 1u << gpu;
	return st == UVM_DUPLICATED ? dups : 0;
}

/* Block b has a device copy again, on some GPU, after none. */
static void became_resident(struct uvm_residency *r, size_t b)
{
	struct uvm_space *s = r->space;
	struct uvm_block *blk = &s->block[b];

	if (blk->flags & UVM_BF_EVICTED) {
		r->st->thrashed_blocks++;
		EACH_OBSERVER(r, o)
		if (o->returned)
			o->returned(o->p, b, s->vablock[uvm_vablock_of(b)].alloc, blk->trips);
		if (blk->trips < UINT8_MAX)
			blk->trips++;
		blk->flags &= (uint8_t)~UVM_BF_EVICTED;
	}
	s->vablock[uvm_vablock_of(b)].resident++;
	gmmu_bits(s, b, UVMEMU_GMMU_DEVICE, 0);
}

/* Block b has no device copy left on any GPU. trip: count a round trip in
 * b's access counter. The counter is its basic block's, which one eviction
 * of sixteen 4 KB blocks must count once. */
static void left_device(struct uvm_residency *r, size_t b, enum uvm_res_how how, bool trip)
{
	struct uvm_space *s = r->space;
	struct uvm_block *blk = &s->block[b];

	if (how == UVM_RES_EVICT) {
		blk->flags |= UVM_BF_EVICTED;
		if (trip && uvm_counter_trip(s, b))
			r->halve_trips = true;
		if (blk->flags & UVM_BF_PREFETCHED)
			r->st->blocks_prefetch_wasted++;
	}
	blk->flags &= (uint8_t) ~(UVM_BF_PREFETCHED | UVM_BF_WRITTEN | UVM_BF_PROBED);
	gmmu_bits(s, b, 0, UVMEMU_GMMU_WRITTEN | UVMEMU_GMMU_DEVICE);
	s->vablock[uvm_vablock_of(b)].resident--;
}

/* Block b leaves the GPU it is on: its peer mappings went first (the
 * operations unmap them), and what sampling knew of them goes with it. */
static void leave_peers(struct uvm_block *blk, size_t b)
{
	if (blk->peers)
		uvm_bug("a block left its GPU with peer mappings left", b, EINVAL);
	blk->peers_sampled = 0;
}

static void left_remote(struct uvm_residency *r, size_t b)
{
	struct uvm_block *blk = &r->space->block[b];

	r->remote_blocks--;
	if (blk->flags & UVM_BF_DEV_MAPPED) {
		blk->flags &= (uint8_t)~UVM_BF_DEV_MAPPED;
		atomic_fetch_sub_explicit(&r->remote_mapped, 1, memory_order_relaxed);
	}
	gmmu_bits(r->space, b, 0, UVMEMU_GMMU_REMOTE | UVMEMU_GMMU_PINNED);
}

static void became_remote(struct uvm_residency *r, size_t b)
{
	bool pinned = r->space->block[b].advice & UVM_ADV_PIN_HOST;

	r->remote_blocks++;
	gmmu_bits(r->space, b, UVMEMU_GMMU_REMOTE | (pinned ? UVMEMU_GMMU_PINNED : 0), 0);
}

static void apply_pools(struct uvm_residency *r, const int64_t *deltas)
{
	for (unsigned g = 0; g < r->ngpus; g++)
		if (deltas[g])
			uvm_pool_use(&r->pool[g], deltas[g]);
}

/* Tells the copies that went and came between sets was and now (a bit per
 * GPU); those that went, went `how`. */
static void copies_changed(struct uvm_residency *r, size_t b, unsigned was, unsigned now,
			   enum uvm_res_how how, int64_t *deltas)
{
	r->event_how = how;
	for (unsigned g = 0; g < r->ngpus; g++) {
		if ((was >> g & 1) && !(now >> g & 1))
			copy_changed(r, b, g, -1, deltas);
		else if (!(was >> g & 1) && (now >> g & 1))
			copy_changed(r, b, g, +1, deltas);
	}
}

void uvm_res_move_gpu(struct uvm_residency *r, size_t first, size_t n, enum uvm_block_state to,
		      enum uvm_res_how how, unsigned gpu)
{
	struct uvm_space *s = r->space;
	int64_t deltas[UVM_MAX_GPUS] = {0};
	size_t tripped = SIZE_MAX; /* the counter a trip was counted in last */

	if (gpu >= r->ngpus)
		uvm_bug("moved to a GPU the run does not have", first, EINVAL);
	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &s->block[b];
		uint8_t from = blk->state;
		unsigned was = copies_of(from, blk->gpu, blk->dups);

		leave_peers(blk, b);
		uvm_block_move(s, b, to);
		if (from == UVM_REMOTE)
			left_remote(r, b);
		if (to == UVM_REMOTE)
			became_remote(r, b);
		/* A device copy becoming the duplicated one stays where it is. */
		if (to == UVM_DUPLICATED)
			blk->dups = (uint8_t)(from == UVM_DEVICE ? was : 1u << gpu);
		else
			blk->dups = 0;
		if (to == UVM_DEVICE || to == UVM_REMOTE)
			blk->gpu = (uint8_t)gpu;
		if (!uvm_state_on_device(from) && uvm_state_on_device(to)) {
			became_resident(r, b);
		} else if (uvm_state_on_device(from) && !uvm_state_on_device(to)) {
			left_device(r, b, how, uvm_counter_of(b) != tripped);
			tripped = uvm_counter_of(b);
		}
		copies_changed(r, b, was, copies_of(to, blk->gpu, blk->dups), how, deltas);
	}
	apply_pools(r, deltas);
}

void uvm_res_peer(struct uvm_residency *r, size_t first, size_t n, unsigned gpu,
		  enum uvm_res_how how)
{
	struct uvm_space *s = r->space;
	int64_t deltas[UVM_MAX_GPUS] = {0};

	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &s->block[b];
		unsigned was = blk->gpu;

		if (blk->state != UVM_DEVICE || was == gpu || gpu >= r->ngpus)
			uvm_bug("a peer migration of a block not on another GPU", b, EINVAL);
		leave_peers(blk, b);
		/* Prefetched, written and probed are what happened on the GPU it
		 * leaves. */
		blk->flags &= (uint8_t) ~(UVM_BF_PREFETCHED | UVM_BF_WRITTEN | UVM_BF_PROBED);
		gmmu_bits(s, b, 0, UVMEMU_GMMU_WRITTEN);
		blk->gpu = (uint8_t)gpu;
		copies_changed(r, b, 1u << was, 1u << gpu, how, deltas);
	}
	apply_pools(r, deltas);
}

void uvm_res_dup_add(struct uvm_residency *r, size_t first, size_t n, unsigned gpu)
{
	struct uvm_space *s = r->space;
	int64_t deltas[UVM_MAX_GPUS] = {0};

	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &s->block[b];

		if (blk->state != UVM_DUPLICATED || (blk->dups >> gpu & 1) || gpu >= r->ngpus)
			uvm_bug("a read-only copy added where it cannot be", b, EINVAL);
		copies_changed(r, b, blk->dups, blk->dups | 1u << gpu, UVM_RES_MIGRATE, deltas);
		blk->dups |= (uint8_t)(1u << gpu);
	}
	apply_pools(r, deltas);
}

void uvm_res_dup_drop(struct uvm_residency *r, size_t first, size_t n, unsigned gpu,
		      enum uvm_res_how how)
{
	struct uvm_space *s = r->space;
	int64_t deltas[UVM_MAX_GPUS] = {0};

	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &s->block[b];

		if (blk->state != UVM_DUPLICATED || !(blk->dups >> gpu & 1))
			uvm_bug("dropping a read-only copy a GPU does not hold", b, EINVAL);
		/* The last copy: the block is the host's alone. */
		if (blk->dups == 1u << gpu) {
			uvm_res_move_gpu(r, b, 1, UVM_HOST, how, gpu);
			continue;
		}
		copies_changed(r, b, blk->dups, blk->dups & ~(1u << gpu), how, deltas);
		blk->dups &= (uint8_t) ~(1u << gpu);
	}
	apply_pools(r, deltas);
}

void uvm_res_remote_mapped(struct uvm_residency *r, size_t first, size_t n, bool mapped)
{
	struct uvm_space *s = r->space;

	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &s->block[b];
		bool was = blk->flags & UVM_BF_DEV_MAPPED;

		if (blk->state != UVM_REMOTE) {
			fprintf(stderr,
				"uvmemu: internal error: block %zu in state %s cannot be mapped "
				"remotely\n",
				b, uvm_state_name(blk->state));
			abort();
		}
		if (was == mapped)
			continue;
		if (mapped) {
			blk->flags |= UVM_BF_DEV_MAPPED;
			atomic_fetch_add_explicit(&r->remote_mapped, 1, memory_order_relaxed);
		} else {
			blk->flags &= (uint8_t)~UVM_BF_DEV_MAPPED;
			atomic_fetch_sub_explicit(&r->remote_mapped, 1, memory_order_relaxed);
		}
	}
}

void uvm_res_remote_map_on(struct uvm_residency *r, size_t first, size_t n, unsigned gpu)
{
	if (gpu >= r->ngpus)
		uvm_bug("mapped remotely on a GPU the run does not have", first, EINVAL);
	for (size_t b = first; b < first + n; b++)
		r->space->block[b].gpu = (uint8_t)gpu;
	uvm_res_remote_mapped(r, first, n, true);
}

void uvm_res_peer_map(struct uvm_residency *r, size_t first, size_t n, unsigned gpu)
{
	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &r->space->block[b];

		if (blk->state != UVM_DEVICE || blk->gpu == gpu || gpu >= r->ngpus)
			uvm_bug("a peer mapping of a block not DEVICE on another GPU", b, EINVAL);
		blk->peers_sampled &= (uint8_t) ~(1u << gpu);
		if (uvm_block_peer_mapped(blk, gpu))
			continue;
		blk->peers |= (uint8_t)(1u << gpu);
		r->peer_mapped++;
		r->event_gpu = gpu;
		EACH_OBSERVER(r, o)
		if (o->peer_mapped)
			o->peer_mapped(o->p, b);
	}
}

void uvm_res_peer_unmap(struct uvm_residency *r, size_t first, size_t n, unsigned gpu, bool sampled)
{
	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &r->space->block[b];

		if (!uvm_block_peer_mapped(blk, gpu))
			continue;
		blk->peers &= (uint8_t) ~(1u << gpu);
		r->peer_mapped--;
		if (sampled)
			blk->peers_sampled |= (uint8_t)(1u << gpu);
	}
}

void uvm_res_probed(struct uvm_residency *r, size_t first, size_t n, bool probed)
{
	for (size_t b = first; b < first + n; b++) {
		struct uvm_block *blk = &r->space->block[b];

		if (blk->state != UVM_DEVICE) {
			fprintf(stderr,
				"uvmemu: internal error: block %zu in state %s cannot be probed\n",
				b, uvm_state_name(blk->state));
			abort();
		}
		if (probed)
			blk->flags |= UVM_BF_PROBED;
		else
			blk->flags &= (uint8_t)~UVM_BF_PROBED;
	}
}

void uvm_res_touched(struct uvm_residency *r, size_t b, bool write)
{
	struct uvm_block *blk = &r->space->block[b];

	blk->flags &= (uint8_t)~UVM_BF_PREFETCHED;
	if (write)
		blk->flags |= UVM_BF_WRITTEN;
	EACH_OBSERVER(r, o)
	if (o->touched)
		o->touched(o->p, b, write);
}

void uvm_res_prefetched(struct uvm_residency *r, size_t b)
{
	r->space->block[b].flags |= UVM_BF_PREFETCHED;
}

void uvm_res_written(struct uvm_residency *r, size_t b)
{
	r->space->block[b].flags |= UVM_BF_WRITTEN;
}

void uvm_res_migrated(struct uvm_residency *r, size_t b, enum uvm_side to)
{
	EACH_OBSERVER(r, o)
	if (o->migrated)
		o->migrated(o->p, b, to);
}

void uvm_res_launch(struct uvm_residency *r, uint64_t index)
{
	EACH_OBSERVER(r, o)
	if (o->launch)
		o->launch(o->p, index);
}

bool uvm_res_wants_faults(const struct uvm_residency *r)
{
	EACH_OBSERVER(r, o)
	if (o->fault)
		return true;
	return false;
}

void uvm_res_fault(struct uvm_residency *r, const struct uvm_fault_event *f)
{
	EACH_OBSERVER(r, o)
	if (o->fault)
		o->fault(o->p, f);
}

void uvm_res_batch(struct uvm_residency *r, const struct uvm_batch_event *b)
{
	EACH_OBSERVER(r, o)
	if (o->batch)
		o->batch(o->p, b);
}

void uvm_res_gpu_fault(struct uvm_residency *r, size_t b, uint8_t before, bool probe_hit)
{
	EACH_OBSERVER(r, o)
	if (o->gpu_fault)
		o->gpu_fault(o->p, b, before, probe_hit);
}

size_t uvm_res_probe(struct uvm_residency *r, bool gmmu, bool can_probe, struct uvm_res_run *runs)
{
	EACH_OBSERVER(r, o)
	if (o->probe)
		return o->probe(o->p, gmmu, can_probe, runs);
	return 0;
}

void uvm_res_free(struct uvm_residency *r, uint64_t off, uint64_t len)
{
	struct uvm_space *s = r->space;
	size_t first = off >> UVM_BLOCK_SHIFT;
	size_t n = (len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;
	int64_t deltas[UVM_MAX_GPUS] = {0};

	for (size_t b = first; b < first + n; b++) {
		const struct uvm_block *blk = &s->block[b];
		uint8_t st = blk->state;

		if (st == UVM_REMOTE)
			left_remote(r, b);
		/* The views go with the allocation, peer mappings included. */
		r->peer_mapped -= (unsigned)__builtin_popcount(blk->peers);
		if (!uvm_state_on_device(st))
			continue;
		/* The frames go with the views; only the books change here. */
		s->vablock[uvm_vablock_of(b)].resident--;
		copies_changed(r, b, copies_of(st, blk->gpu, blk->dups), 0, UVM_RES_MIGRATE,
			       deltas);
	}
	apply_pools(r, deltas);
	uvm_space_remove(s, off, len);
}

/* ------------------------------------------------------------------- check */

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

/* Flags each state may carry (EVICTED outlives the device copy by design). */
static const uint8_t flags_allowed[UVM_NSTATES] = {
    [UVM_UNALLOCATED] = 0,
    [UVM_EMPTY] = 0,
    [UVM_HOST] = UVM_BF_EVICTED,
    [UVM_DEVICE] = UVM_BF_PREFETCHED | UVM_BF_WRITTEN | UVM_BF_PROBED,
    [UVM_REMOTE] = UVM_BF_EVICTED | UVM_BF_DEV_MAPPED,
    [UVM_DUPLICATED] = UVM_BF_PREFETCHED | UVM_BF_WRITTEN,
};

static int check_block(const struct uvm_space *s, size_t b, unsigned ngpus, char *err,
		       size_t errlen)
{
	const struct uvm_block *blk = &s->block[b];
	uint8_t g = atomic_load_explicit(&s->gmmu_state[b], memory_order_relaxed);

	if (blk->state >= UVM_NSTATES || blk->state == UVM_UNALLOCATED)
		FAIL("block %zu of a live allocation is in state %u", b, blk->state);
	if (blk->flags & ~flags_allowed[blk->state])
		FAIL("block %zu in state %s has flags %#x", b, uvm_state_name(blk->state),
		     blk->flags);
	if (!(g & UVMEMU_GMMU_REMOTE) != (blk->state != UVM_REMOTE) ||
	    !(g & UVMEMU_GMMU_DEVICE) != !uvm_state_on_device(blk->state))
		FAIL("block %zu in state %s has gmmu bits %#x", b, uvm_state_name(blk->state), g);
	if (blk->state == UVM_DEVICE && blk->gpu >= ngpus)
		FAIL("block %zu is DEVICE on GPU %u of %u", b, blk->gpu, ngpus);
	if ((blk->state == UVM_DUPLICATED) != (blk->dups != 0) || blk->dups >> ngpus)
		FAIL("block %zu in state %s has copies on GPUs %#x of %u", b,
		     uvm_state_name(blk->state), blk->dups, ngpus);
	if ((blk->flags & UVM_BF_DEV_MAPPED) && blk->gpu >= ngpus)
		FAIL("block %zu is mapped remotely on GPU %u of %u", b, blk->gpu, ngpus);
	/* Peer mappings: only of a DEVICE block, on GPUs the run has, never
	 * its own; sampled ones are not mapped. */
	if (((blk->peers | blk->peers_sampled) && blk->state != UVM_DEVICE) ||
	    ((blk->peers | blk->peers_sampled) >> blk->gpu & 1) ||
	    (blk->peers | blk->peers_sampled) >> ngpus || (blk->peers & blk->peers_sampled))
		FAIL("block %zu in state %s on GPU %u has peer mappings on GPUs %#x (sampled %#x) "
		     "of %u",
		     b, uvm_state_name(blk->state), blk->gpu, blk->peers, blk->peers_sampled,
		     ngpus);
	if (((blk->advice & UVM_ADV_PREFER_DEVICE) && blk->prefer_gpu >= ngpus) ||
	    blk->accessed_by >> ngpus || !(blk->advice & UVM_ADV_ACCESSED_BY) != !blk->accessed_by)
		FAIL("block %zu has advice %#x naming GPUs %u (preferred) and %#x (accessed-by) "
		     "of %u",
		     b, blk->advice, blk->prefer_gpu, blk->accessed_by, ngpus);
	/* UVMEMU_GMMU_WRITTEN is not checked: an accessor that passed its
	 * fault may set it just after an eviction cleared it. */
	return 0;
}

int uvm_res_check(const struct uvm_residency *r, char *err, size_t errlen)
{
	const struct uvm_space *s = r->space;
	uint64_t remote = 0, mapped = 0, peer = 0, copies[UVM_MAX_GPUS] = {0};
	struct uvm_pool p;

	for (size_t v = 0; v < s->used_vablocks; v++) {
		const struct uvm_vablock *va = &s->vablock[v];
		size_t first = uvm_vablock_first(v);
		unsigned on_device = 0;

		if (va->nvalid > UVM_BLOCKS_PER_VABLOCK)
			FAIL("vablock %zu claims %u blocks", v, va->nvalid);
		for (size_t b = first; b < first + va->nvalid; b++) {
			const struct uvm_block *blk = &s->block[b];
			int rc = check_block(s, b, r->ngpus, err, errlen);

			if (rc)
				return rc;
			on_device += uvm_state_on_device(blk->state);
			for (unsigned g = 0; g < r->ngpus; g++)
				copies[g] += uvm_block_on_gpu(blk, g);
			remote += s->block[b].state == UVM_REMOTE;
			mapped += (s->block[b].flags & UVM_BF_DEV_MAPPED) != 0;
			peer += (unsigned)__builtin_popcount(blk->peers);
		}
		for (size_t b = first + va->nvalid; b < first + UVM_BLOCKS_PER_VABLOCK; b++)
			if (s->block[b].state != UVM_UNALLOCATED)
				FAIL("block %zu past its allocation's end is in state %s", b,
				     uvm_state_name(s->block[b].state));
		if (va->resident != on_device)
			FAIL("vablock %zu counts %u resident blocks, %u are on the device", v,
			     va->resident, on_device);
	}
	for (unsigned g = 0; g < r->ngpus; g++) {
		uvm_pool_snapshot(&r->pool[g], &p);
		if (p.used != copies[g])
			FAIL("GPU %u's pool counts %llu blocks in use, %llu are on it", g,
			     (unsigned long long)p.used, (unsigned long long)copies[g]);
	}
	if (r->remote_blocks != remote)
		FAIL("%llu blocks counted REMOTE, %llu are", (unsigned long long)r->remote_blocks,
		     (unsigned long long)remote);
	if (atomic_load(&r->remote_mapped) != mapped)
		FAIL("%llu REMOTE blocks counted mapped on the device, %llu are",
		     (unsigned long long)atomic_load(&r->remote_mapped),
		     (unsigned long long)mapped);
	if (r->peer_mapped != peer)
		FAIL("%llu peer mappings counted, %llu blocks' are",
		     (unsigned long long)r->peer_mapped, (unsigned long long)peer);
	/* Last: a block's copy corrupted is the pool's complaint first. */
	for (size_t v = 0; v < s->used_vablocks; v++)
		for (unsigned g = 0; g < r->ngpus; g++)
			if (!uvm_vbmask_equal(uvm_res_gpu_mask(r, v, g),
					      uvm_vablock_gpu_mask(s, v, g)))
				FAIL("vablock %zu's mask of GPU %u's copies differs from its "
				     "blocks'",
				     v, g);
	return 0;
}
