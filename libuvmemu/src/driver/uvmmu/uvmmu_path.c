// SPDX-License-Identifier: MIT
/* uvmmu_path.c - the driver thread resolving far faults as UVMMU's hardware
 * would (uvmmu.h): one at a time, critical page first. */
#include "driver_int.h"
#include "uvmmu.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "timing.h"

/* Gaps between wake-ups shorter than this are waited on the driver thread
 * with the yielding wait instead of a poll timeout, which overshoots by tens
 * of microseconds on a VM. */
#define SETTLE_NS 100000u

struct uvm_uvmmu {
	struct uvm_cq cq;
	struct uvm_uvmmu_sched sched;
	uint64_t refills, stalls; /* the queue's counts already published */
};

/* Residency's observer: device frames follow the blocks. */
static void frame_taken(void *p, size_t b)
{
	struct uvm_uvmmu *u = p;

	/* The pool never lets more blocks in than there are frames; a block
	 * the queue cannot place is one the limit was lowered under. */
	(void)uvm_cq_take(&u->cq, b);
}

static void frame_released(void *p, size_t b)
{
	uvm_cq_release(&((struct uvm_uvmmu *)p)->cq, b);
}

static uint32_t frame_limit(struct uvm_driver *d)
{
	struct uvm_pool snap;

	uvm_pool_snapshot(d->dep.pool, &snap);
	if (!snap.resolved || snap.capacity == 0)
		return (uint32_t)d->dep.space->nblocks;
	return snap.capacity > snap.pinned ? (uint32_t)(snap.capacity - snap.pinned) : 0;
}

int uvm_uvmmu_create(struct uvm_driver *d, char *err, size_t errlen)
{
	struct uvm_uvmmu *u = calloc(1, sizeof(*u));
	int rc;

	if (!u) {
		snprintf(err, errlen, "out of memory for the UVMMU fault path");
		return -ENOMEM;
	}
	rc = uvm_cq_init(&u->cq, d->dep.space->nblocks, frame_limit(d));
	if (rc) {
		free(u);
		snprintf(err, errlen, "UVMMU candidate queue: %s", strerror(-rc));
		return rc;
	}
	uvm_cq_refill(&u->cq);
	u->refills = u->cq.refills; /* the start's fill is no fault's */
	d->uvmmu = u;
	uvm_res_observe(&d->res, &(struct uvm_res_observer){
				     .p = u,
				     .resident = frame_taken,
				     .released = frame_released,
				 });
	return 0;
}

static void wake(struct uvm_driver *d, const struct uvm_uvmmu_wake *w)
{
	/* A range freed since its fault was read may be gone: its threads were
	 * woken by the unmap and fault again, so a failed wake loses nothing. */
	(void)uvm_uffd_wake(d->dep.uffd, w->addr, w->len);
}

void uvm_uvmmu_destroy(struct uvm_driver *d)
{
	struct uvm_uvmmu *u = d->uvmmu;
	struct uvm_uvmmu_wake w;

	if (!u)
		return;
	while (uvm_uvmmu_sched_pop(&u->sched, UINT64_MAX, &w, 1))
		wake(d, &w);
	uvm_uvmmu_sched_destroy(&u->sched);
	uvm_cq_destroy(&u->cq);
	free(u);
	d->uvmmu = NULL;
}

static void schedule(struct uvm_driver *d, size_t b, uintptr_t addr, uint64_t len, uint64_t at)
{
	if (!uvm_uvmmu_sched_other(&d->uvmmu->sched, b, addr, len, at))
		uvm_bug("growing the UVMMU wake-up list", b, ENOMEM);
}

/* One fault, alone: the batched path's decisions and operations on a batch
 * of one, with the transfers issued after the hardware latency. A direct
 * fault (GMMU accessors) has no thread waiting in userfaultfd: it returns
 * when its page is due instead of scheduling its wake-up.
 *
 * arrived: when the fault reached the driver. The hardware starts on every
 * fault as it arrives, so the model starts there too, not when the driver
 * thread gets round to it: the real time spent on the faults before it in
 * the same read is the emulator's, to be hidden under the model's time or
 * counted as an overrun, never added to the modelled time. */
static uint64_t resolve_one(struct uvm_driver *d, struct uvm_fault *f, bool direct,
			    uint64_t arrived)
{
	struct uvm_uvmmu *u = d->uvmmu;
	size_t b = f->page >> UVM_BLOCK_SHIFT;
	uint64_t t0 = arrived;
	uint64_t lat_end = uvm_model_uvmmu_end(d->dep.model, t0);
	uint64_t due = 0;
	bool far = f->gpu;

	uvm_model_batch_begin(&d->bt, t0);
	d->bt.not_before = far ? lat_end : 0;
	d->fault = f;
	d->nfault = 1;
	uvm_service_batch(d);
	d->bt.not_before = 0;
	/* The model clock computes the migration's time (gpu.h): the threads
	 * it holds wake as soon as the fault is committed, their warps go on
	 * when the GPU's clock says. */
	if (d->dep.gpu) {
		d->st.uvmmu_faults +=
		    far && (f->outcome == UVM_OUT_MIGRATED || f->outcome == UVM_OUT_ZERO_FILL);
		if (far && !direct)
			uvm_batch_add_wake(d, d->dep.arena->dev + (b << UVM_BLOCK_SHIFT),
					   UVM_BLOCK_SIZE);
		return 0;
	}
	if (far && (f->outcome == UVM_OUT_MIGRATED || f->outcome == UVM_OUT_ZERO_FILL)) {
		uint64_t crit = uvm_model_critical(d->dep.model, lat_end, d->bt.h2d_end, d->bt.h2d_bytes);
		uint64_t end = d->bt.end > lat_end ? d->bt.end : lat_end;

		d->st.uvmmu_faults++;
		d->st.modelled_batches++;
		if (uvm_now_ns() > crit)
			d->st.model_overruns++;
		/* The block's end wakes whoever else waits on it; a direct
		 * fault's thread is not asleep: it waits for `due` itself. */
		if (uvm_uvmmu_sched_migrated(&u->sched, b, d->dep.arena->dev + f->page,
					     d->dep.arena->dev + (b << UVM_BLOCK_SHIFT),
					     direct ? end : crit, end, lat_end))
			uvm_bug("growing the UVMMU wake-up list", b, ENOMEM);
		d->bt.end = end;
		due = crit;
	} else {
		/* Stale faults, CPU faults and the rest: when their operations
		 * end, and not before the block's transfer in flight does. */
		due = d->bt.end;
		for (size_t i = 0; i < d->nwake; i++)
			schedule(d, b, d->wake[i].addr, d->wake[i].len, due);
		if (direct)
			due = uvm_uvmmu_sched_other(&u->sched, b, d->dep.arena->dev + f->page,
						    UVM_PAGE_SIZE, due);
	}
	d->nwake = 0;
	return due;
}

static void publish_queue(struct uvm_driver *d)
{
	struct uvm_uvmmu *u = d->uvmmu;

	d->st.cq_refills += u->cq.refills - u->refills;
	d->st.cq_stalls += u->cq.stalls - u->stalls;
	u->refills = u->cq.refills;
	u->stalls = u->cq.stalls;
}

bool uvm_uvmmu_resolve(struct uvm_driver *d)
{
	struct uvm_uvmmu *u = d->uvmmu;
	struct uvm_fault *all = d->fault;
	uint64_t arrived = uvm_now_ns();
	uint32_t limit;
	size_t n;

	/* Duplicates of one page are one fault. */
	if (uvm_batch_take(d) == 0)
		return false;
	limit = frame_limit(d);
	if (limit != u->cq.limit)
		uvm_cq_set_limit(&u->cq, limit);

	n = d->nfault;
	d->nwake = 0;
	UVM_TIMED(d->st.ns.service,
		  for (size_t k = 0; k < n; k++) resolve_one(d, &all[k], false, arrived));
	d->fault = all;
	d->nfault = n;
	d->st.batches++;
	if (d->dep.gpu) {
		uvm_driver_commit_faults(d);
		UVM_TIMED(d->st.ns.replay, uvm_driver_wake_all(d));
	}
	/* The copy backend's unmaps land before anyone wakes. */
	UVM_TIMED(d->st.ns.tracker_wait, uvm_tracker_wait_before(&d->tracker, d->seq));
	/* The Available Frame Manager works between faults. */
	uvm_cq_refill(&u->cq);
	publish_queue(d);
	return true;
}

uint64_t uvm_uvmmu_next_wake(const struct uvm_driver *d)
{
	return d->uvmmu ? uvm_uvmmu_sched_next(&d->uvmmu->sched) : UINT64_MAX;
}

/* Fault messages or commands (GMMU accessors' faults come as commands). */
static bool work_waiting(const struct uvm_driver *d)
{
	struct pollfd p[2] = {{d->dep.uffd->fd, POLLIN, 0}, {d->evfd, POLLIN, 0}};

	return poll(p, 2, 0) > 0;
}

void uvm_uvmmu_settle(struct uvm_driver *d)
{
	struct uvm_uvmmu *u = d->uvmmu;
	struct uvm_uvmmu_wake w[64];

	for (;;) {
		uint64_t now = uvm_now_ns(), next;
		size_t got = uvm_uvmmu_sched_pop(&u->sched, now, w, 64);

		UVM_TIMED(d->st.ns.replay, for (size_t i = 0; i < got; i++) wake(d, &w[i]));
		if (got == 64)
			continue;
		next = uvm_uvmmu_sched_next(&u->sched);
		if (next == UINT64_MAX || next > now + SETTLE_NS || work_waiting(d))
			return;
		/* Waiting for the model: the hardware latency first, then the link. */
		now = uvm_now_ns();
		uvm_driver_wait(d, next);
		d->st.ns.throttle += next > now ? next - now : 0;
	}
}

struct direct {
	struct uvm_driver *d;
	uint64_t page;
	bool write;
	uint32_t tid; /* the worker's */
	uint64_t due;
};

/* On the driver thread, between batches: the fault as if its message had
 * come, without the message. */
static void direct_fault(void *arg)
{
	struct direct *a = arg;
	struct uvm_driver *d = a->d;
	struct uvm_fault f = {.page = a->page, .gpu = 1, .write = a->write, .count = 1};
	struct uvm_fault *all = d->fault;
	size_t n = d->nfault;
	uint64_t t = uvm_now_ns();
	size_t b = a->page >> UVM_BLOCK_SHIFT;
	uint8_t st = d->dep.space->block[b].state;
	struct uvm_gpu_stamp s = {.slot = -1};

	d->st.gpu_faults++;
	/* Its worker waits for this fault (and under the model clock for its
	 * batch, at the warp's end) with no userfaultfd message to tell the
	 * executor: say so here, or the spare slots never start and the
	 * batch that would free the worker waits for them. */
	uvm_session_gpu_stalled(d->dep.session);
	if (d->dep.gpu)
		s = uvm_gpu_stamp(d->dep.gpu, a->tid);
	/* Workers that saw the block missing while another one's fault was
	 * bringing it in: one migration, the others wait for its end, as a
	 * GMMU merges misses on one page-group (duplicates, not stale). */
	if (st == UVM_DEVICE || (st == UVM_DUPLICATED && !a->write)) {
		d->st.duplicate_faults++;
		a->due = uvm_uvmmu_sched_in_flight(&d->uvmmu->sched, b);
		f.outcome = UVM_OUT_STALE; /* on the GPU: waits for the block's migration */
		if (d->dep.gpu)
			uvm_driver_commit_one(d, s, &f);
		return;
	}
	d->seq++;
	d->bt.t0 = t;
	d->nwake = 0;
	a->due = resolve_one(d, &f, true, uvm_now_ns());
	d->st.uvmmu_direct_faults +=
	    f.outcome == UVM_OUT_MIGRATED || f.outcome == UVM_OUT_ZERO_FILL;
	if (d->dep.gpu) {
		uvm_driver_commit_one(d, s, &f);
		uvm_driver_wake_all(d);
	}
	d->fault = all;
	d->nfault = n;
	d->st.ns.service += uvm_elapsed_ns(t);
	/* The copy backend's unmaps land before the access goes on. */
	uvm_tracker_wait_before(&d->tracker, d->seq);
}

uint64_t uvm_uvmmu_direct(struct uvm_driver *d, uint64_t page, bool write)
{
	struct direct a = {d, page & ~(UVM_PAGE_SIZE - 1), write, (uint32_t)syscall(SYS_gettid), 0};

	if (!d->uvmmu)
		return 0;
	uvm_driver_call(d, direct_fault, &a);
	return a.due;
}
