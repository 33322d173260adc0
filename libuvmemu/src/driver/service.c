// SPDX-License-Identifier: MIT
/*
 * service.c - servicing a preprocessed batch, one vablock at a time.
 *
 * For the GPU faults of a vablock, each faulted block gets one decision, in
 * the real driver's order (nvidia-uvm-driver.md, "Memory advice"): thrashing
 * mitigation first (throttle: the fault waits; pinned on the host: read
 * remotely), then advice (zero-copy memory stays on the host; read-mostly
 * reads duplicate; a preferred device location migrates; resident nowhere
 * goes to the preferred location or the faulting side; accessed-by and a
 * preferred host location map remotely), then writes always migrate, then
 * the migration policy (first touch, thresholds). The prefetcher adds blocks
 * to the ones that migrate; the eviction policy makes room; the operations
 * run per run of blocks. CPU faults of the vablock follow; one on a block the
 * GPU also faulted in this batch waits for the next batch, so the block does
 * not bounce within one batch.
 */
#include "driver_int.h"
#include "timing.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

enum action {
	ACT_NONE,	  /* already mapped for this access: stale */
	ACT_MIGRATE,	  /* to the device */
	ACT_REMOTE,	  /* read where it is (zero-copy) */
	ACT_DUPLICATE,	  /* read-only copy on the device too */
	ACT_DUP_COLLAPSE, /* a GPU write to a duplicated block */
	ACT_DUP_ADD,	  /* a read of a duplicated block another GPU holds */
	ACT_PEER_MAP,	  /* on another GPU: map it from there (peer mapping) */
	ACT_TO_PREFERRED, /* to its preferred GPU, another one, then ACT_PEER_MAP */
	ACT_THROTTLE,	  /* thrashing: the fault waits */
	ACT_N
};

/* Masks over one vablock's blocks, indexed from its first block. */
struct decisions {
	struct uvm_vbmask mask[ACT_N];
	struct uvm_vbmask probed;  /* resident blocks a reuse probe had unmapped: mapped again */
	struct uvm_vbmask counted; /* sampled REMOTE blocks that migrate: counter migrations */
	struct uvm_vbmask below; /* far faults mapped REMOTE: their count is below the threshold */
	struct uvm_vbmask peer_sampled; /* peer mappings sampling had unmapped: mapped again */
	/* Throttled blocks: when they may go. Written for every faulted block
	 * (decide_gpu), read for throttled ones: never cleared (4 KB of a
	 * vablock at the 4 KB unit, per vablock serviced). */
	uint64_t until[UVM_BLOCKS_PER_VABLOCK];
};

/* Decisions with every mask empty; `until` is left as it is. */
static void decisions_clear(struct decisions *dec)
{
	memset(dec, 0, offsetof(struct decisions, until));
}

/* Block b's index in its vablock's masks; first is the vablock's first block. */
static unsigned index_in(size_t b, size_t first)
{
	return (unsigned)(b - first);
}

/* ------------------------------------------------------------- room */

/* Vablocks in use only when nothing else can go (and from then on), where
 * the caller may take them. */
static int pick_victim(struct uvm_driver *d, struct uvm_evict_ctx *ctx, bool may_take_in_use,
		       struct uvm_victim *v)
{
	void *p = d->evict_p[ctx->gpu];

	if (d->evict->pick(p, ctx, v) == 0)
		return 0;
	if (!may_take_in_use)
		return -ENOENT;
	ctx->allow_in_use = true;
	return d->evict->pick(p, ctx, v);
}

/*
 * Evicts until `blocks` more fit on GPU d->target, never from keep_vablock
 * nor, unless nothing else can go and may_take_in_use, from a vablock with
 * in_batch >= in_use_from. The victims' device unmaps run asynchronously,
 * overlapping each other, but their frames are free before anything is
 * copied in: device memory in use never exceeds its capacity, not even for
 * the length of a batch.
 */
static int evict_until(struct uvm_driver *d, uint64_t blocks, size_t keep_vablock,
		       uint64_t in_use_from, bool may_take_in_use)
{
	struct uvm_evict_ctx ctx = {
	    .space = d->dep.space,
	    .batch = in_use_from,
	    .launch = d->launch_seen ? d->launch_seen - 1 : 0,
	    .keep_vablock = keep_vablock,
	    .gpu = d->target,
	};
	struct uvm_victim v;
	bool evicted = false;
	int rc = 0;

	while (uvm_pool_free(uvm_driver_pool(d, d->target)) < blocks) {
		UVM_TIMED(d->st.ns.policy, rc = pick_victim(d, &ctx, may_take_in_use, &v));
		if (rc) {
			rc = -ENOSPC;
			break;
		}
		uvm_op_evict(d, &v);
		evicted = true;
	}
	if (evicted) {
		d->oversubscribed = true;
		/* Waiting for unmaps inside service counts as unmap time (the
		 * tracker_wait stage is the end-of-batch wait). */
		UVM_GPU_UNMAP_TIMED(&d->backend, uvm_tracker_wait_device_unmaps(&d->tracker));
	}
	return rc;
}

int uvm_service_make_room(struct uvm_driver *d, uint64_t blocks, size_t keep_vablock)
{
	return evict_until(d, blocks, keep_vablock, d->seq, true);
}

int uvm_service_make_spare_room(struct uvm_driver *d, uint64_t blocks, uint64_t in_use_from)
{
	return evict_until(d, blocks, SIZE_MAX, in_use_from, false);
}

void uvm_service_evict_all_excess(struct uvm_driver *d)
{
	for (unsigned g = 0; g < d->ngpus; g++) {
		struct uvm_evict_ctx ctx = {.space = d->dep.space,
					    .batch = d->seq,
					    .keep_vablock = SIZE_MAX,
					    .allow_in_use = true,
					    .gpu = g};
		struct uvm_victim v;

		d->target = g;
		while (uvm_pool_excess(uvm_driver_pool(d, g)) > 0 &&
		       d->evict->pick(d->evict_p[g], &ctx, &v) == 0) {
			uvm_op_evict(d, &v);
			d->oversubscribed = true;
		}
	}
	uvm_tracker_wait_device_unmaps(&d->tracker);
}

/* -------------------------------------------------------- decisions */

/* The migration policy's context for block b (its counts not read yet) on
 * GPU gpu's memory as it is now. */
static struct uvm_migrate_ctx migrate_ctx(const struct uvm_driver *d, size_t b, bool write,
					  unsigned gpu)
{
	struct uvm_pool snap;

	uvm_pool_snapshot(uvm_driver_pool(d, gpu), &snap);
	return (struct uvm_migrate_ctx){.space = d->dep.space,
					.block = b,
					.write = write,
					.capacity_blocks = snap.resolved ? snap.capacity : 0,
					.used_blocks = snap.used + snap.pinned,
					.oversubscribed = d->oversubscribed};
}

static enum action migrate_or_remote(struct uvm_driver *d, size_t b, bool write)
{
	struct uvm_migrate_ctx m = migrate_ctx(d, b, write, d->target);

	m.accesses = uvm_counter_accesses(d->dep.space, b);
	m.trips = uvm_counter_trips(d->dep.space, b);
	return d->migrate->decide(d->migrate_p, &m) == UVM_MIGRATE ? ACT_MIGRATE : ACT_REMOTE;
}

/* Whether a GPU can map data another GPU holds (a peer mapping): every
 * pair of GPUs has a peer link, but only shared frames are coherent. The
 * copy backend honours preferred location and accessed-by by migration. */
static bool peer_ok(const struct uvm_driver *d)
{
	return d->backend.ops->peer_map != NULL;
}

/* Whether block blk's preferred location is GPU g. */
static bool prefers(const struct uvm_block *blk, unsigned g)
{
	return (blk->advice & UVM_ADV_PREFER_DEVICE) && blk->prefer_gpu == g;
}

/* Thrashing detection's word on moving block b to processor `to`
 * (uvm_thrash_proc), counted in the statistics; *pinned_on: the processor a
 * pinned block stays on; *newly_pinned: this check pinned it. */
static enum uvm_thrash_verdict thrash_counted(struct uvm_driver *d, size_t b, uint8_t to,
					      uint64_t *until, uint8_t *pinned_on,
					      bool *newly_pinned)
{
	enum uvm_thrash_verdict v = uvm_thrash_check(&d->thrash, b, to, uvm_driver_thrash_now(d),
						     d->dep.model, until, pinned_on, newly_pinned);

	if (v == UVM_THRASH_THROTTLE)
		d->st.thrashing_throttles++;
	else if (v == UVM_THRASH_PIN)
		d->st.thrashing_pins += *newly_pinned;
	return v;
}

/* The same for moving block b to the faulting GPU. */
static enum uvm_thrash_verdict thrash_verdict(struct uvm_driver *d, size_t b, uint64_t *until,
					      uint8_t *pinned_on)
{
	bool newly_pinned;

	return thrash_counted(d, b, uvm_thrash_proc(UVM_SIDE_DEVICE, d->target), until, pinned_on,
			      &newly_pinned);
}

/*
 * A fault on a block DEVICE on another GPU, in the real driver's order:
 * the faulting GPU is the preferred location: migrate; it is given
 * accessed-by: map it where it is; a preferred GPU elsewhere: the data
 * goes (or stays) there and the faulting GPU maps it; otherwise migrate
 * GPU to GPU, the host orchestrating. Thrashing mitigation comes first,
 * as in decide_gpu: two GPUs taking a block in turns thrash as a GPU and
 * the host do, are throttled alike, and once the block is pinned on its
 * GPU the other maps it where a peer mapping can be (remap).
 */
static enum action on_other_gpu(struct uvm_driver *d, size_t b, uint64_t *until)
{
	const struct uvm_block *blk = &d->dep.space->block[b];
	uint8_t pinned_on = 0;

	switch (thrash_verdict(d, b, until, &pinned_on)) {
	case UVM_THRASH_THROTTLE:
		return ACT_THROTTLE;
	case UVM_THRASH_PIN:
		if (peer_ok(d) && pinned_on == uvm_thrash_proc(UVM_SIDE_DEVICE, blk->gpu))
			return ACT_PEER_MAP;
		break;
	case UVM_THRASH_NONE:
		break;
	}
	if (!peer_ok(d) || prefers(blk, d->target))
		return ACT_MIGRATE;
	if (uvm_block_accessed_by(blk, d->target))
		return ACT_PEER_MAP;
	if (blk->advice & UVM_ADV_PREFER_DEVICE)
		return prefers(blk, blk->gpu) ? ACT_PEER_MAP : ACT_TO_PREFERRED;
	return ACT_MIGRATE;
}

static enum action decide_gpu(struct uvm_driver *d, size_t b, bool write, uint64_t *until,
			      bool *below)
{
	const struct uvm_block *blk = &d->dep.space->block[b];
	uint8_t pinned_on = 0;

	*until = 0;
	switch (blk->state) {
	case UVM_DEVICE:
		/* Here, or mapped here since the fault was queued. */
		if (blk->gpu == d->target || uvm_block_peer_mapped(blk, d->target))
			return ACT_NONE;
		return on_other_gpu(d, b, until);
	case UVM_DUPLICATED:
		if (write)
			return ACT_DUP_COLLAPSE;
		return uvm_block_on_gpu(blk, d->target) ? ACT_NONE : ACT_DUP_ADD;
	case UVM_REMOTE:
		/* Mapped again since the fault was queued. */
		if ((blk->flags & UVM_BF_DEV_MAPPED) && blk->gpu == d->target)
			return ACT_NONE;
		break;
	default:
		break;
	}
	switch (thrash_verdict(d, b, until, &pinned_on)) {
	case UVM_THRASH_THROTTLE:
		return ACT_THROTTLE;
	case UVM_THRASH_PIN:
		if (pinned_on == UVM_THRASH_HOST && blk->state != UVM_EMPTY)
			return ACT_REMOTE;
		break;
	case UVM_THRASH_NONE:
		break;
	}
	if (blk->advice & UVM_ADV_PIN_HOST)
		return ACT_REMOTE;
	if ((blk->advice & UVM_ADV_READ_MOSTLY) && !write && blk->state == UVM_HOST)
		return ACT_DUPLICATE;
	/* A preferred GPU: the faulting one, or one it cannot map from (copy):
	 * migrate here. Another: host data the faulting GPU has accessed-by
	 * is mapped where it is; otherwise (resident nowhere included) the
	 * data goes to its preferred GPU and the faulting GPU maps it there. */
	if (blk->advice & UVM_ADV_PREFER_DEVICE) {
		if (prefers(blk, d->target) || !peer_ok(d))
			return ACT_MIGRATE;
		if (blk->state != UVM_EMPTY && uvm_block_accessed_by(blk, d->target))
			return ACT_REMOTE;
		return ACT_TO_PREFERRED;
	}
	if (blk->state == UVM_EMPTY)
		return (blk->advice & UVM_ADV_PREFER_HOST) ? ACT_REMOTE : ACT_MIGRATE;
	if (uvm_block_accessed_by(blk, d->target) || (blk->advice & UVM_ADV_PREFER_HOST))
		return ACT_REMOTE;
	*below = migrate_or_remote(d, b, write) == ACT_REMOTE;
	return *below ? ACT_REMOTE : ACT_MIGRATE;
}

/*
 * A fault on a REMOTE block that sampling had unmapped is the emulator's way
 * of counting a remote access (no GPU faults on zero-copy memory). When the
 * count it adds meets the threshold, the migration that follows is what a
 * GPU's access counter notification starts: no warp waits for a far fault,
 * as none does when GMMU accessors count (uvm_service_counter_migrations).
 */
static bool sampled(const struct uvm_driver *d, size_t b)
{
	const struct uvm_block *blk = &d->dep.space->block[b];

	return blk->state == UVM_REMOTE && !(blk->flags & UVM_BF_DEV_MAPPED);
}

/*
 * Prefetch only plain blocks (no advice) that a migration would move. A
 * REMOTE block is data on the host like a HOST one: the adaptive-migration
 * paper's simulator prefetches it with its neighbours whatever its count (a
 * zero-copy page is just a page not on the device there). With thrashing
 * mitigation on, a REMOTE block may be pinned on the host, and a prefetch
 * must not undo the pin: then it is left to its own faults.
 */
static bool prefetchable(const struct uvm_driver *d, size_t b)
{
	const struct uvm_block *blk = &d->dep.space->block[b];
	bool remote = blk->state == UVM_REMOTE && !d->thrash.enabled;
	bool peer = blk->state == UVM_DEVICE && blk->gpu != d->target;

	return (blk->state == UVM_EMPTY || blk->state == UVM_HOST || remote || peer) &&
	       blk->advice == 0;
}

/* The prefetchable blocks of `picks` (a vablock's, from its first block):
 * only the picks are looked at, not every block of the vablock. */
static struct uvm_vbmask prefetchable_of(const struct uvm_driver *d, size_t first,
					 struct uvm_vbmask picks)
{
	uvm_vbmask_for_each(i, picks)
		if (!prefetchable(d, first + i))
			uvm_vbmask_clear(&picks, i);
	return picks;
}

/*
 * The prefetcher's picks around the blocks of vablock `vab` that migrate
 * (`migrating`): the prefetchable ones neither resident nor among `asked`
 * (the blocks that faulted, or that the access counters chose).
 */
static struct uvm_vbmask prefetch_around(struct uvm_driver *d, size_t vab,
					 struct uvm_vbmask migrating, struct uvm_vbmask resident,
					 struct uvm_vbmask asked)
{
	const struct uvm_space *s = d->dep.space;
	struct uvm_prefetch_ctx pctx = {s, vab, migrating, resident,
					uvm_vbmask_run(0, s->vablock[vab].nvalid)};
	struct uvm_vbmask picks =
	    prefetchable_of(d, uvm_vablock_first(vab), d->prefetch->pick(d->prefetch_p, &pctx));

	return uvm_vbmask_andnot(picks, uvm_vbmask_or(resident, asked));
}

/*
 * Room on the target for `need` blocks of vablock `vab` and the prefetcher's
 * `*extra`; without room for both the prefetch is dropped (*extra cleared).
 * Nonzero when not even `need` fits.
 */
static int make_room_with(struct uvm_driver *d, size_t vab, struct uvm_vbmask need,
			  struct uvm_vbmask *extra)
{
	if (!uvm_service_make_room(d, uvm_vbmask_count(uvm_vbmask_or(need, *extra)), vab))
		return 0;
	*extra = uvm_vbmask_zero();
	return uvm_service_make_room(d, uvm_vbmask_count(need), vab);
}

/* The prefetched blocks of a vablock (from its first block) once moved. */
static void note_prefetched(struct uvm_driver *d, size_t first, struct uvm_vbmask extra)
{
	uvm_vbmask_for_each(i, extra) {
		/* A row per prefetched block, so traces show what came unasked. */
		struct uvm_fault row = {.page = (first + i) << UVM_BLOCK_SHIFT,
					.gpu = 1,
					.dev = (uint8_t)d->target,
					.outcome = UVM_OUT_PREFETCHED};

		uvm_res_prefetched(&d->res, first + i);
		uvm_driver_trace_fault(d, &row);
	}
	d->st.blocks_prefetched += uvm_vbmask_count(extra);
}

/*
 * Far faults below the migration threshold start a tree walk too, and the
 * prefetcher's picks around them are mapped REMOTE in the same batch, as
 * Baseline would have migrated them. The adaptive-migration paper's
 * simulator reads a page below the threshold from host memory with no fault
 * at all; here, as on a GPU, a page must fault once to be mapped remotely,
 * so without this every block of a dense vablock first touched below the
 * threshold costs a far fault of its own. Blocks the GPU has reached
 * (resident, or REMOTE, mapped or unmapped by sampling) are the walk's
 * occupied leaves: under Baseline they would be on the device; the faults
 * below the threshold (HOST or EMPTY blocks) are the leaves walked. Only
 * plain blocks resident nowhere or on the host are mapped: a REMOTE block
 * that sampling unmapped waits for its own access, which counts.
 */
static struct uvm_vbmask remote_neighbours(const struct uvm_driver *d, size_t vab,
					   const struct decisions *dec, struct uvm_vbmask taken)
{
	const struct uvm_space *s = d->dep.space;
	unsigned nvalid = s->vablock[vab].nvalid;

	/* The common case, on every serviced vablock: no fault below it. */
	if (uvm_vbmask_empty(dec->below))
		return uvm_vbmask_zero();

	struct uvm_vbmask remote = uvm_vablock_state_mask(s, vab, UVM_REMOTE);
	struct uvm_prefetch_ctx pctx = {s, vab, dec->below, uvm_vbmask_or(taken, remote),
					uvm_vbmask_run(0, nvalid)};

	/* Of the picks, the plain HOST and EMPTY blocks: prefetchable, but not
	 * a REMOTE one (those wait for their own, counted, access). */
	return uvm_vbmask_andnot(
	    prefetchable_of(d, uvm_vablock_first(vab), d->prefetch->pick(d->prefetch_p, &pctx)),
	    remote);
}

/* ------------------------------------------------------------ operations */

static void migrate_run(struct uvm_driver *d, size_t b, size_t n, uint8_t st)
{
	if (st == UVM_EMPTY)
		uvm_op_zero_fill(d, b, n);
	else if (st == UVM_HOST)
		uvm_op_to_device(d, b, n);
	else if (st == UVM_DEVICE)
		uvm_op_peer(d, b, n, UVM_RES_MIGRATE);
	else
		uvm_op_remote_to_device(d, b, n);
}

/* Blocks of one run share their state, their GPU (DEVICE: where it is;
 * REMOTE: which view maps it), their copies (DUPLICATED) and, REMOTE,
 * whether a device view maps them. */
static unsigned run_key(const struct uvm_space *s, size_t b)
{
	const struct uvm_block *blk = &s->block[b];

	return (unsigned)blk->state << 24 | (unsigned)blk->dups << 16 | (unsigned)blk->gpu << 8 |
	       (blk->flags & UVM_BF_DEV_MAPPED);
}

static void act_on_runs(struct uvm_driver *d, enum action act, size_t b, size_t end);

static void remote_run(struct uvm_driver *d, size_t b, size_t n, uint8_t st)
{
	const struct uvm_space *s = d->dep.space;

	if (st == UVM_EMPTY) {
		/* Resident nowhere: the host is preferred. Accessed-by GPUs may
		 * have mapped some of it ahead: each run as it is now. */
		uvm_op_host_fill(d, b, n);
		act_on_runs(d, ACT_REMOTE, b, b + n);
		return;
	}
	if (st == UVM_REMOTE && (s->block[b].flags & UVM_BF_DEV_MAPPED)) {
		if (s->block[b].gpu == d->target)
			return; /* mapped here ahead (accessed-by) */
		/* Mapped on another GPU's view: it moves to this one's. */
		uvm_op_remote_unmap(d, b, n);
	}
	uvm_op_map_remote(d, b, n);
}

static void act_on_run(struct uvm_driver *d, enum action act, size_t b, size_t n, uint8_t st)
{
	switch (act) {
	case ACT_MIGRATE:
		migrate_run(d, b, n, st);
		break;
	case ACT_REMOTE:
		remote_run(d, b, n, st);
		break;
	case ACT_DUPLICATE:
		uvm_op_duplicate(d, b, n);
		break;
	case ACT_DUP_COLLAPSE:
		uvm_op_dup_to_device(d, b, n);
		break;
	case ACT_DUP_ADD:
		uvm_op_dup_add(d, b, n);
		break;
	case ACT_PEER_MAP:
		/* Still on another GPU (an eviction to make room may have taken
		 * it: then the access faults again). */
		if (st == UVM_DEVICE && d->dep.space->block[b].gpu != d->target)
			uvm_op_peer_map(d, b, n, d->target, true);
		break;
	default:
		break;
	}
}

/* act on the blocks [b, end), a run of like blocks (run_key) at a time. */
static void act_on_runs(struct uvm_driver *d, enum action act, size_t b, size_t end)
{
	const struct uvm_space *s = d->dep.space;

	for (size_t i = b, j; i < end; i = j) {
		for (j = i + 1; j < end && run_key(s, j) == run_key(s, i); j++)
			;
		act_on_run(d, act, i, j - i, s->block[i].state);
	}
}

/* Runs the action on each run of blocks of `mask` that share a state. */
static void run_action(struct uvm_driver *d, size_t first, struct uvm_vbmask mask, enum action act)
{
	bool zapped = act == ACT_MIGRATE && uvm_op_zap_host_first(d, first, mask);

	uvm_vbmask_for_each_run(lo, hi, mask)
		act_on_runs(d, act, first + lo, first + hi);
	if (zapped)
		d->backend.zapped = 0;
}

/*
 * The blocks of `mask` go to their preferred GPU (each block's own; another
 * GPU than d->target), which makes room for them, before d->target maps
 * them there. With no room to be made there, they come here instead.
 */
static void to_preferred(struct uvm_driver *d, size_t vab, struct uvm_vbmask mask)
{
	const struct uvm_space *s = d->dep.space;
	size_t first = uvm_vablock_first(vab);
	unsigned target = d->target;

	for (unsigned g = 0; g < d->ngpus && !uvm_vbmask_empty(mask); g++) {
		struct uvm_vbmask on = uvm_vbmask_zero();

		uvm_vbmask_for_each(i, mask)
			if (s->block[first + i].prefer_gpu == g)
				uvm_vbmask_set(&on, i);
		if (uvm_vbmask_empty(on))
			continue;
		mask = uvm_vbmask_andnot(mask, on);
		d->target = g;
		if (uvm_service_make_room(d, uvm_vbmask_count(on), vab)) {
			d->target = target;
			if (uvm_service_make_room(d, uvm_vbmask_count(on), vab))
				uvm_bug("no device memory for one vablock's faults", first, ENOSPC);
		}
		run_action(d, first, on, ACT_MIGRATE);
		d->target = target;
	}
}

static void record_migrations(struct uvm_driver *d, size_t first, struct uvm_vbmask mask,
			      enum uvm_side side)
{
	uvm_vbmask_for_each(i, mask)
		uvm_res_migrated(&d->res, first + i, side);
}

/* ------------------------------------------------------------ GPU side */

/*
 * A touch past an allocation's end, in the rest of its last 2 MB slot (mapped
 * whole so that neighbouring allocations' mappings merge): that rest is
 * unmapped, so that the access, retried on wake-up, fails as it does natively
 * (SIGSEGV; in a kernel, cudaErrorIllegalAddress) instead of faulting here
 * for ever. The next allocation in the slot maps it whole again.
 */
static void retire_tail(struct uvm_driver *d, size_t vab)
{
	uint64_t valid = (uint64_t)d->dep.space->vablock[vab].nvalid << UVM_BLOCK_SHIFT;
	int rc = uvm_arena_unmap(d->dep.arena, ((uint64_t)vab << UVM_VABLOCK_SHIFT) + valid,
				 UVM_VABLOCK_SIZE - valid);

	if (rc)
		uvm_bug("unmapping past an allocation's end", uvm_vablock_first(vab), rc);
}

static void service_gpu(struct uvm_driver *d, size_t vab, struct uvm_vbmask faulted,
			struct uvm_vbmask written, struct decisions *dec)
{
	struct uvm_space *s = d->dep.space;
	size_t first = uvm_vablock_first(vab);
	unsigned nvalid = s->vablock[vab].nvalid;
	struct uvm_vbmask valid = uvm_vbmask_run(0, nvalid);
	struct uvm_vbmask resident = uvm_res_gpu_mask(&d->res, vab, d->target);
	struct uvm_vbmask extra = uvm_vbmask_zero();
	struct uvm_vbmask room, remote_extra, peer;
	uint64_t t = uvm_now_ns();

	if (!uvm_vbmask_empty(uvm_vbmask_andnot(faulted, valid)))
		retire_tail(d, vab);
	uvm_vbmask_for_each(i, uvm_vbmask_and(faulted, valid)) {
		bool below = false;
		enum action act =
		    decide_gpu(d, first + i, uvm_vbmask_test(written, i), &dec->until[i], &below);

		uvm_vbmask_set(&dec->mask[act], i);
		if (act == ACT_PEER_MAP && (s->block[first + i].peers_sampled >> d->target & 1))
			uvm_vbmask_set(&dec->peer_sampled, i);
		/* A sampled fault counts a block the GPU already reaches. */
		if (below && s->block[first + i].state != UVM_REMOTE)
			uvm_vbmask_set(&dec->below, i);
		if (act == ACT_MIGRATE && sampled(d, first + i))
			uvm_vbmask_set(&dec->counted, i);
	}
	d->st.blocks_counter_migrated += uvm_vbmask_count(dec->counted);
	uvm_vbmask_for_each(i, uvm_vbmask_and(dec->mask[ACT_NONE], resident)) {
		if (s->block[first + i].flags & UVM_BF_PROBED) {
			uvm_op_unprobe(d, first + i, 1);
			uvm_vbmask_set(&dec->probed, i);
		}
		uvm_res_touched(&d->res, first + i, uvm_vbmask_test(written, i));
	}
	d->st.stale_faults += uvm_vbmask_count(dec->mask[ACT_NONE]);
	/* The prefetcher sees the faults that migrate: blocks read remotely
	 * or duplicated start no tree walk. Prefetchable blocks are valid ones. */
	if (!uvm_vbmask_empty(dec->mask[ACT_MIGRATE]))
		extra = prefetch_around(d, vab, dec->mask[ACT_MIGRATE], resident, faulted);
	remote_extra = remote_neighbours(
	    d, vab, dec,
	    uvm_vbmask_or(uvm_vbmask_or(resident, extra), uvm_vbmask_andnot(faulted, dec->below)));
	d->st.ns.policy += uvm_elapsed_ns(t);

	/* A collapse takes room where this GPU had no copy of the block. */
	room = uvm_vbmask_or(
	    uvm_vbmask_or(dec->mask[ACT_MIGRATE], dec->mask[ACT_DUPLICATE]),
	    uvm_vbmask_andnot(uvm_vbmask_or(dec->mask[ACT_DUP_ADD], dec->mask[ACT_DUP_COLLAPSE]),
			      resident));
	/* No room for the prefetch: bring the faulted blocks alone. */
	if (!uvm_vbmask_empty(uvm_vbmask_or(room, extra)) && make_room_with(d, vab, room, &extra))
		uvm_bug("no device memory for one vablock's faults", first, ENOSPC);
	run_action(d, first, uvm_vbmask_or(dec->mask[ACT_MIGRATE], extra), ACT_MIGRATE);
	run_action(d, first, uvm_vbmask_or(dec->mask[ACT_REMOTE], remote_extra), ACT_REMOTE);
	d->st.blocks_remote_prefetched += uvm_vbmask_count(remote_extra);
	run_action(d, first, dec->mask[ACT_DUPLICATE], ACT_DUPLICATE);
	run_action(d, first, dec->mask[ACT_DUP_ADD], ACT_DUP_ADD);
	run_action(d, first, dec->mask[ACT_DUP_COLLAPSE], ACT_DUP_COLLAPSE);
	to_preferred(d, vab, dec->mask[ACT_TO_PREFERRED]);
	peer = uvm_vbmask_or(dec->mask[ACT_PEER_MAP], dec->mask[ACT_TO_PREFERRED]);
	run_action(d, first, peer, ACT_PEER_MAP);
	uvm_vbmask_for_each(i, uvm_vbmask_and(uvm_vbmask_or(dec->mask[ACT_MIGRATE], peer), written))
		if (s->block[first + i].state == UVM_DEVICE)
			uvm_res_written(&d->res, first + i);
	note_prefetched(d, first, extra);
	record_migrations(
	    d, first,
	    uvm_vbmask_or(uvm_vbmask_or(dec->mask[ACT_MIGRATE], dec->mask[ACT_DUP_COLLAPSE]),
			  dec->mask[ACT_TO_PREFERRED]),
	    UVM_SIDE_DEVICE);
	uvm_vbmask_for_each(i, uvm_vbmask_andnot(faulted, dec->mask[ACT_THROTTLE]))
		uvm_batch_add_wake(
		    d, uvm_driver_dev_addr(d, d->target, (first + i) << UVM_BLOCK_SHIFT),
		    UVM_BLOCK_SIZE);
}

/* ------------------------------------------------------------ CPU side */

/* Holds fault f back to a later batch (until: not before then, on the
 * clock thrashing reads; 0: the next batch). Under the model clock the hold
 * is real time as long as the modelled one, so that the block stays where
 * it is meanwhile, and the fault keeps its stamp: its warp goes on no
 * earlier than the modelled end of the hold. */
static void defer(struct uvm_driver *d, struct uvm_fault *f, enum uvm_fault_outcome why,
		  uint64_t until)
{
	f->outcome = (uint8_t)why;
	f->not_before = until;
	if (d->dep.gpu) {
		uint64_t now = uvm_driver_thrash_now(d);

		f->hold = until;
		f->not_before = until ? uvm_now_ns() + (until > now ? until - now : 0) : 0;
		if (f->gpu)
			f->stamp = uvm_driver_stamp_of(d, f->page);
	}
	d->deferred[d->ndeferred++] = *f;
}

static void host_fill(struct uvm_driver *d, size_t b)
{
	const struct uvm_space *s = d->dep.space;
	size_t fill = d->host_fill >> UVM_BLOCK_SHIFT;
	size_t vfirst = uvm_vablock_first(uvm_vablock_of(b));
	size_t lo, hi, wlo = b - (b - vfirst) % fill, whi = wlo + fill;

	/* First touch of fresh memory: fill the EMPTY run around the fault
	 * within its aligned --host-fill window, so that initialising an array
	 * does not cost a round trip per page. */
	if (whi > vfirst + s->vablock[uvm_vablock_of(b)].nvalid)
		whi = vfirst + s->vablock[uvm_vablock_of(b)].nvalid;
	for (lo = b; lo > wlo && s->block[lo - 1].state == UVM_EMPTY; lo--)
		;
	for (hi = b + 1; hi < whi && s->block[hi].state == UVM_EMPTY; hi++)
		;
	uvm_op_host_fill(d, lo, hi - lo);
}

/*
 * A CPU fault on a DEVICE block brings it back with what the CPU's prefetcher
 * (--cpu-prefetch: the GPU's unless set) picks around it in its vablock, as
 * the driver's prefetcher serves CPU faults too
 * (the faulting page's region grows by the same density rule, the blocks
 * already on the host counting as occupied). Only plain DEVICE blocks come
 * along, none thrashing; a thrashing fault brings its block alone, and so
 * does one in a vablock the GPU faulted in this batch. Every
 * run's device view is zapped in one batch.
 */
static void cpu_bring_back(struct uvm_driver *d, size_t b, bool newly_pinned, bool gpu_too)
{
	const struct uvm_space *s = d->dep.space;
	size_t vab = uvm_vablock_of(b), first = uvm_vablock_first(vab);
	unsigned nvalid = s->vablock[vab].nvalid;
	struct uvm_vbmask movable = uvm_vbmask_zero();
	struct uvm_vbmask faulted = uvm_vbmask_zero(), extra = uvm_vbmask_zero();
	uint64_t now = uvm_driver_thrash_now(d), t = uvm_now_ns();

	uvm_vbmask_set(&faulted, index_in(b, first));
	/* The driver prefetches only when every page serviced in the vablock
	 * goes to one side: none when the GPU faulted in it this batch. */
	if (!gpu_too && !newly_pinned && !uvm_thrash_busy(&d->thrash, b, now)) {
		struct uvm_prefetch_ctx pctx = {s, vab, faulted, uvm_vbmask_zero(),
						uvm_vbmask_run(0, nvalid)};

		for (unsigned i = 0; i < nvalid; i++) {
			const struct uvm_block *blk = &s->block[first + i];

			if (blk->state == UVM_HOST || blk->state == UVM_DUPLICATED ||
			    blk->state == UVM_REMOTE)
				uvm_vbmask_set(&pctx.resident, i);
			if (blk->state == UVM_DEVICE && blk->advice == 0 &&
			    !uvm_thrash_busy(&d->thrash, first + i, now))
				uvm_vbmask_set(&movable, i);
		}
		extra = uvm_vbmask_andnot(
		    uvm_vbmask_and(d->cpu_prefetch->pick(d->cpu_prefetch_p, &pctx), movable),
		    faulted);
		d->st.ns.policy += uvm_elapsed_ns(t);
	}
	uvm_op_to_host_mask(d, first, uvm_vbmask_or(faulted, extra));
	d->st.blocks_cpu_prefetched += uvm_vbmask_count(extra);
}

static void service_cpu(struct uvm_driver *d, struct uvm_fault *f, bool gpu_too)
{
	struct uvm_space *s = d->dep.space;
	size_t b = f->page >> UVM_BLOCK_SHIFT;
	uint8_t pinned_on;
	uint64_t until = 0;
	bool newly_pinned;

	switch (s->block[b].state) {
	case UVM_DEVICE:
		/* Pinned on the device or not, the CPU cannot read device
		 * memory remotely here: only throttling holds it back. */
		if (thrash_counted(d, b, UVM_THRASH_HOST, &until, &pinned_on, &newly_pinned) ==
		    UVM_THRASH_THROTTLE) {
			defer(d, f, UVM_OUT_THROTTLED, until);
			return;
		}
		cpu_bring_back(d, b, newly_pinned, gpu_too);
		uvm_res_migrated(&d->res, b, UVM_SIDE_HOST);
		f->outcome = UVM_OUT_MIGRATED;
		break;
	case UVM_DUPLICATED:
		/* Reads share the host copy read-only where the kernel can
		 * write-protect it; a write collapses to the host. */
		if (!f->write && d->dep.uffd->shmem_wp) {
			uvm_be_host_map(&d->backend, b, 1, UVM_MAP_WP);
			f->outcome = UVM_OUT_REMAPPED;
		} else {
			uvm_op_dup_to_host(d, b, 1, false);
			f->outcome = UVM_OUT_MIGRATED;
		}
		break;
	case UVM_REMOTE:
		/* Shared frames: the CPU maps them too and the block stays remote.
		 * The copy backend's device copy goes first, its GPU stores
		 * written back, before the CPU reads or writes. */
		if (d->backend.ops->coherent_remote)
			uvm_be_host_map(&d->backend, b, 1, 0);
		else
			uvm_op_remote_to_host(d, b, 1, true);
		f->outcome = UVM_OUT_REMAPPED;
		break;
	case UVM_EMPTY:
		host_fill(d, b);
		f->outcome = UVM_OUT_HOST_FILL;
		break;
	case UVM_HOST:
		/* Mapped again after a migration raced with this access, or
		 * never mapped here: map what the page cache holds. */
		uvm_be_host_map(&d->backend, b, 1, 0);
		f->outcome = UVM_OUT_REMAPPED;
		break;
	case UVM_UNALLOCATED:
		/* Past the allocation's end (the whole vablock unallocated is
		 * handled before: a freed range). */
		retire_tail(d, uvm_vablock_of(b));
		f->outcome = UVM_OUT_FREED;
		break;
	default:
		uvm_bug("CPU fault on a block in an unexpected state", b, EINVAL);
	}
	uvm_batch_add_wake(d, d->dep.arena->host + (b << UVM_BLOCK_SHIFT), UVM_BLOCK_SIZE);
}

/* Far faults are the access counters' source when no accessors count. */
static void count_access(struct uvm_driver *d, const struct uvm_fault *f)
{
	if (uvm_driver_counts_faults(d) &&
	    uvm_counter_add(d->dep.space, f->page >> UVM_BLOCK_SHIFT, f->count))
		d->halve_accesses = true;
}

static enum uvm_fault_outcome gpu_outcome(const struct decisions *dec, unsigned i,
					  uint8_t state_before)
{
	if (uvm_vbmask_test(dec->probed, i))
		return UVM_OUT_PROBED;
	if (uvm_vbmask_test(dec->mask[ACT_NONE], i))
		return UVM_OUT_STALE;
	if (uvm_vbmask_test(dec->mask[ACT_REMOTE], i) || uvm_vbmask_test(dec->counted, i))
		return state_before == UVM_REMOTE ? UVM_OUT_SAMPLED : UVM_OUT_REMOTE;
	/* Mapped from the GPU holding it: a remote mapping too. */
	if (uvm_vbmask_test(dec->mask[ACT_PEER_MAP], i) ||
	    uvm_vbmask_test(dec->mask[ACT_TO_PREFERRED], i))
		return uvm_vbmask_test(dec->peer_sampled, i) ? UVM_OUT_SAMPLED : UVM_OUT_REMOTE;
	if (uvm_vbmask_test(dec->mask[ACT_DUPLICATE], i) ||
	    uvm_vbmask_test(dec->mask[ACT_DUP_ADD], i))
		return UVM_OUT_READ_DUP;
	if (uvm_vbmask_test(dec->mask[ACT_THROTTLE], i))
		return UVM_OUT_THROTTLED;
	return state_before == UVM_EMPTY ? UVM_OUT_ZERO_FILL : UVM_OUT_MIGRATED;
}

/*
 * Faults a GPU would not take are counted apart from far faults (and their
 * duplicates): sampled and probe faults are the emulator's own way of seeing
 * accesses made without faulting, and a refreshed one found a page the
 * kernel had unmapped behind the driver's back.
 */
static void account_emulated(struct uvm_driver *d, const struct uvm_fault *f)
{
	uint64_t *stat;

	switch (f->outcome) {
	case UVM_OUT_SAMPLED:
		stat = &d->st.remote_samples;
		break;
	case UVM_OUT_PROBED:
		stat = &d->st.probe_faults;
		break;
	case UVM_OUT_REFRESHED:
		stat = &d->st.refreshed_faults;
		break;
	default:
		return;
	}
	*stat += f->count;
	d->st.gpu_faults -= f->count;
	d->st.duplicate_faults -= f->count - 1;
}

bool uvm_fault_emulated(const struct uvm_fault *f)
{
	return f->outcome == UVM_OUT_SAMPLED || f->outcome == UVM_OUT_PROBED ||
	       f->outcome == UVM_OUT_REFRESHED;
}

/* The GPU faults [i, j) of vablock vab. */
static void gpu_faults(struct uvm_driver *d, size_t vab, size_t i, size_t j)
{
	struct uvm_space *s = d->dep.space;
	size_t vfirst = uvm_vablock_first(vab);
	struct uvm_vbmask faulted = uvm_vbmask_zero(), written = uvm_vbmask_zero();
	uint8_t before[UVM_BLOCKS_PER_VABLOCK]; /* the faulted blocks' states: read for no other */
	struct decisions dec;

	decisions_clear(&dec);
	for (size_t k = i; k < j; k++) {
		unsigned idx = index_in(d->fault[k].page >> UVM_BLOCK_SHIFT, vfirst);

		uvm_vbmask_set(&faulted, idx);
		before[idx] = s->block[vfirst + idx].state;
		if (d->fault[k].write)
			uvm_vbmask_set(&written, idx);
		if (!(s->block[d->fault[k].page >> UVM_BLOCK_SHIFT].flags & UVM_BF_PROBED))
			count_access(d, &d->fault[k]);
	}
	service_gpu(d, vab, faulted, written, &dec);
	for (size_t k = i; k < j; k++) {
		unsigned idx = index_in(d->fault[k].page >> UVM_BLOCK_SHIFT, vfirst);

		d->fault[k].outcome = (uint8_t)gpu_outcome(&dec, idx, before[idx]);
		if (d->fault[k].outcome == UVM_OUT_STALE && d->backend.ops->refresh &&
		    d->backend.ops->refresh(uvm_driver_backend_on(d, d->target), d->fault[k].page,
					    s->block[vfirst + idx].state == UVM_DUPLICATED))
			d->fault[k].outcome = UVM_OUT_REFRESHED;
		account_emulated(d, &d->fault[k]);
		uvm_res_gpu_fault(&d->res, vfirst + idx, before[idx],
				uvm_vbmask_test(dec.probed, idx));
		if (uvm_vbmask_test(dec.mask[ACT_THROTTLE], idx))
			defer(d, &d->fault[k], UVM_OUT_THROTTLED, dec.until[idx]);
	}
}

/*
 * A freed allocation keeps its mappings, without frames (arena.h), so a touch
 * of it faults here. If its slot is still free, unmap the slot so that the
 * access, retried on wake-up, fails as a touch of unmapped memory does
 * (SIGSEGV; in a kernel, cudaErrorIllegalAddress). A slot not free is still
 * being freed (the thread retries until it is) or belongs to a new
 * allocation, whose faults these then are.
 */
static void retire_freed_slot(struct uvm_driver *d, size_t vab)
{
	struct uvm_arena *a = d->dep.arena;
	uint64_t off = (uint64_t)vab << UVM_VABLOCK_SHIFT;
	int rc;

	if (uvm_arena_take_at(a, off, UVM_VABLOCK_SIZE))
		return;
	rc = uvm_arena_unmap(a, off, UVM_VABLOCK_SIZE);
	if (rc)
		uvm_bug("unmapping a freed slot", uvm_vablock_first(vab), rc);
	uvm_arena_give(a, off, UVM_VABLOCK_SIZE);
}

/* Whether fault f is one its device or host would have taken. */
static bool real_fault(const struct uvm_fault *f)
{
	return !uvm_fault_emulated(f) && f->outcome != UVM_OUT_FREED;
}

/* The first of faults [i, j) a GPU would have taken (NULL: none). */
static const struct uvm_fault *lead_fault(const struct uvm_driver *d, size_t i, size_t j)
{
	for (; i < j; i++)
		if (d->fault[i].gpu && real_fault(&d->fault[i]))
			return &d->fault[i];
	return NULL;
}

/* Whether faults [i, j) hold one of the host's. */
static bool host_fault(const struct uvm_driver *d, size_t i, size_t j)
{
	for (; i < j; i++)
		if (!d->fault[i].gpu && real_fault(&d->fault[i]))
			return true;
	return false;
}

void uvm_service_batch(struct uvm_driver *d)
{
	struct uvm_space *s = d->dep.space;
	size_t i = 0;

	uvm_assert_driver_thread(d);
	while (i < d->nfault) {
		size_t vab = d->fault[i].page >> UVM_VABLOCK_SHIFT;
		size_t vfirst = uvm_vablock_first(vab);
		struct uvm_vbmask gpu_blocks = uvm_vbmask_zero();
		size_t j = i, gpu_end;

		if (s->vablock[vab].nvalid == 0) {
			/* A freed range (or one being freed): wake its faults
			 * to fault on the unmapped range and report their
			 * program's bug. */
			retire_freed_slot(d, vab);
			for (; j < d->nfault && d->fault[j].page >> UVM_VABLOCK_SHIFT == vab; j++) {
				d->fault[j].outcome = UVM_OUT_FREED;
				uvm_batch_add_wake(d, uvm_fault_addr(d, &d->fault[j]),
						   UVM_PAGE_SIZE);
			}
			i = j;
			continue;
		}
		s->vablock[vab].in_batch = d->seq;
		d->st.vablocks_serviced++;
		d->arrived.open = d->dep.gpu != NULL;
		d->arrived.count = 0;
		/* Each GPU's faults of the vablock, in GPU order. */
		while (j < d->nfault && d->fault[j].page >> UVM_VABLOCK_SHIFT == vab &&
		       d->fault[j].gpu) {
			size_t k = j;

			for (; k < d->nfault && d->fault[k].page >> UVM_VABLOCK_SHIFT == vab &&
			       d->fault[k].gpu && d->fault[k].dev == d->fault[j].dev;
			     k++)
				uvm_vbmask_set(
				    &gpu_blocks,
				    index_in(d->fault[k].page >> UVM_BLOCK_SHIFT, vfirst));
			d->target = d->fault[j].dev;
			gpu_faults(d, vab, j, k);
			j = k;
		}
		gpu_end = j;
		for (; j < d->nfault && d->fault[j].page >> UVM_VABLOCK_SHIFT == vab; j++) {
			if (uvm_vbmask_test(gpu_blocks,
					    index_in(d->fault[j].page >> UVM_BLOCK_SHIFT, vfirst)))
				defer(d, &d->fault[j], UVM_OUT_DEFERRED, 0);
			else
				service_cpu(d, &d->fault[j], !uvm_vbmask_empty(gpu_blocks));
		}
		/* The model clock: what the vablock's service moved waits for
		 * the first modelled batch holding its first far fault. */
		uvm_driver_claim(d, lead_fault(d, i, gpu_end), host_fault(d, gpu_end, j));
		i = j;
		if (d->replay == UVM_REPLAY_BLOCK)
			uvm_driver_replay(d, true);
	}
	for (size_t k = 0; k < d->nfault; k++)
		uvm_driver_trace_fault(d, &d->fault[k]);
}

/* ----------------------------------------------------- explicit moves */

/* Sampling's part for peer mappings: GPU g's runs of them in [b, end),
 * up to `budget` blocks; returns how many it unmapped. */
static size_t sample_peers(struct uvm_driver *d, size_t b, size_t end, unsigned g, size_t budget)
{
	const struct uvm_space *s = d->dep.space;
	size_t done = 0;

	while (b < end && done < budget) {
		size_t run = 0;

		while (b + run < end && done + run < budget &&
		       uvm_block_peer_mapped(&s->block[b + run], g))
			run++;
		if (run)
			uvm_op_peer_unmap(d, b, run, g, true);
		done += run;
		b += run ? run : 1;
	}
	return done;
}

static bool sampled_anything(const struct uvm_driver *d)
{
	return atomic_load(&d->res.remote_mapped) || d->res.peer_mapped;
}

size_t uvm_service_sample_remote(struct uvm_driver *d, size_t budget)
{
	struct uvm_space *s = d->dep.space;
	size_t done = 0, v = d->sample_cursor;

	/* Round robin over vablocks from where the last scan stopped, as NUMA
	 * balancing's scanner resumes at its offset; a run of mapped REMOTE
	 * blocks unmaps in one call, and so does a GPU's run of peer
	 * mappings. */
	for (size_t looked = 0; looked < s->used_vablocks && done < budget && sampled_anything(d);
	     looked++, v = (v + 1) % s->used_vablocks) {
		size_t first = uvm_vablock_first(v), end = first + s->vablock[v].nvalid;

		for (unsigned g = 0; d->res.peer_mapped && g < d->ngpus && done < budget; g++)
			done += sample_peers(d, first, end, g, budget - done);

		for (size_t b = first; b < end && done < budget;) {
			size_t run = 0;

			while (b + run < end && done + run < budget &&
			       s->block[b + run].state == UVM_REMOTE &&
			       (s->block[b + run].flags & UVM_BF_DEV_MAPPED) &&
			       s->block[b + run].gpu == s->block[b].gpu)
				run++;
			if (run)
				uvm_op_remote_unmap(d, b, run);
			done += run;
			b += run ? run : 1;
		}
	}
	d->sample_cursor = v;
	return done;
}

/* A prefetch to the host: whatever the block's state, its data ends there. */
static void to_host(struct uvm_driver *d, size_t b)
{
	switch (d->dep.space->block[b].state) {
	case UVM_DEVICE:
		uvm_op_to_host(d, b, 1, false);
		break;
	case UVM_DUPLICATED:
		uvm_op_dup_to_host(d, b, 1, false);
		break;
	case UVM_REMOTE:
		uvm_op_remote_to_host(d, b, 1, false);
		break;
	case UVM_EMPTY:
		uvm_op_host_fill(d, b, 1);
		break;
	default:
		break;
	}
}

uint32_t uvm_service_notify_threshold(struct uvm_driver *d)
{
	struct uvm_migrate_ctx m = migrate_ctx(d, 0, false, 0);
	uint32_t lo = 1, hi = UVMEMU_COUNTER_ACCESS_MASK;

	/* The policies' decisions grow with the count: the lowest count that
	 * migrates, by bisection (27 decisions at most). */
	m.accesses = hi;
	if (d->migrate->decide(d->migrate_p, &m) != UVM_MIGRATE)
		return 0;
	while (lo < hi) {
		m.accesses = lo + (hi - lo) / 2;
		if (d->migrate->decide(d->migrate_p, &m) == UVM_MIGRATE)
			hi = m.accesses;
		else
			lo = m.accesses + 1;
	}
	return lo;
}

void uvm_service_counter_migrations(struct uvm_driver *d)
{
	struct uvm_space *s = d->dep.space;
	uint64_t seen = 0;

	for (size_t v = 0; v < s->used_vablocks && seen < d->res.remote_blocks; v++) {
		size_t first = uvm_vablock_first(v);
		struct uvm_vbmask want = uvm_vbmask_zero(), resident, extra;

		/* Towards the GPU whose view maps the blocks (GPU 0 for those no
		 * view maps): one GPU per pass over the vablock. */
		d->target = 0;
		for (size_t b = first; b < first + s->vablock[v].nvalid; b++) {
			if (s->block[b].state != UVM_REMOTE)
				continue;
			if (uvm_vbmask_empty(want) && (s->block[b].flags & UVM_BF_DEV_MAPPED))
				d->target = s->block[b].gpu;
			else if ((s->block[b].flags & UVM_BF_DEV_MAPPED) &&
				 s->block[b].gpu != d->target)
				continue;
			seen++;
			/* Counters move data towards the accessing processor, but
			 * never away from a preferred location (the real driver
			 * selects residency with the preferred location first). */
			if (!(s->block[b].advice & (UVM_ADV_PIN_HOST | UVM_ADV_PREFER_HOST)) &&
			    migrate_or_remote(d, b, false) == ACT_MIGRATE)
				uvm_vbmask_set(&want, index_in(b, first));
		}
		if (uvm_vbmask_empty(want))
			continue;
		/* A count that reaches the threshold is a far fault in the
		 * adaptive-migration paper's simulator, and its block comes
		 * with the prefetcher's picks, as a faulted one does. */
		resident = uvm_res_gpu_mask(&d->res, v, d->target);
		extra = prefetch_around(d, v, want, resident, want);
		s->vablock[v].in_batch = d->seq;
		/* Nothing may be evicted now: try again at the next scan. */
		if (make_room_with(d, v, want, &extra))
			continue;
		run_action(d, first, uvm_vbmask_or(want, extra), ACT_MIGRATE);
		d->st.blocks_counter_migrated += uvm_vbmask_count(want);
		note_prefetched(d, first, extra);
	}
}

void uvm_service_prefetch(struct uvm_driver *d, size_t first, size_t n, bool to_device)
{
	struct uvm_space *s = d->dep.space;

	uvm_assert_driver_thread(d);
	for (size_t v = uvm_vablock_of(first); v <= uvm_vablock_of(first + n - 1); v++) {
		size_t vfirst = uvm_vablock_first(v), lo = vfirst, hi = lo + s->vablock[v].nvalid;
		struct uvm_vbmask want = uvm_vbmask_zero();

		lo = lo < first ? first : lo;
		hi = hi > first + n ? first + n : hi;
		if (lo >= hi)
			continue;
		s->vablock[v].in_batch = d->seq;
		for (size_t b = lo; b < hi; b++) {
			uint8_t st = s->block[b].state;

			if (to_device && !uvm_block_on_gpu(&s->block[b], d->target))
				uvm_vbmask_set(&want, index_in(b, vfirst));
			if (!to_device && st != UVM_HOST)
				uvm_vbmask_set(&want, index_in(b, vfirst));
		}
		if (uvm_vbmask_empty(want))
			continue;
		d->st.blocks_prefetch_api += uvm_vbmask_count(want);
		if (to_device) {
			if (uvm_service_make_room(d, uvm_vbmask_count(want), v))
				uvm_bug("no device memory for a prefetch of one vablock", lo,
					       ENOSPC);
			/* Another GPU's read-only copies stay: this one gets its own. */
			struct uvm_vbmask dup = uvm_vablock_state_mask(s, v, UVM_DUPLICATED);

			run_action(d, vfirst, uvm_vbmask_andnot(want, dup), ACT_MIGRATE);
			run_action(d, vfirst, uvm_vbmask_and(want, dup), ACT_DUP_ADD);
			continue;
		}
		uvm_vbmask_for_each(i, want)
			to_host(d, vfirst + i);
	}
}
