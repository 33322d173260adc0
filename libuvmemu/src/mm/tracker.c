// SPDX-License-Identifier: MIT
/* tracker.c - asynchronous punches and device unmaps through io_uring. */
#include "tracker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { OP_PUNCH, OP_DONTNEED };

static const char *const op_names[] = {"host punch", "device unmap"};

int uvm_tracker_init(struct uvm_tracker *t, struct uvm_space *space, bool async)
{
	int rc;

	memset(t, 0, sizeof(*t));
	t->space = space;
	if (!async) {
		snprintf(t->why_sync, sizeof(t->why_sync), "--async off");
		return 0;
	}
	rc = io_uring_queue_init(UVM_TRACKER_SLOTS, &t->ring, 0);
	if (rc < 0) {
		snprintf(t->why_sync, sizeof(t->why_sync),
			 "io_uring unavailable (%s%s): unmaps run synchronously", strerror(-rc),
			 rc == -EPERM ? ", see kernel.io_uring_disabled" : "");
		return 0;
	}
	t->async = true;
	return 0;
}

void uvm_tracker_destroy(struct uvm_tracker *t)
{
	if (t->async) {
		uvm_tracker_wait_before(t, UINT64_MAX);
		io_uring_queue_exit(&t->ring);
	}
	t->async = false;
}

static void pending(struct uvm_tracker *t, size_t first, size_t n, int delta)
{
	for (size_t b = first; b < first + n; b++)
		t->space->block[b].pending = (uint8_t)(t->space->block[b].pending + delta);
}

/* An unmap that fails leaves frames mapped that the driver believes free; a
 * later copy into them would meet stale pages. That is a bug, never a state
 * to run on from. */
static void op_failed(int kind, int err, size_t first)
{
	fprintf(stderr, "uvmemu: internal error: %s of block %zu failed: %s\n", op_names[kind],
		first, strerror(-err));
	abort();
}

static void complete(struct uvm_tracker *t, struct io_uring_cqe *cqe)
{
	struct uvm_tracker_op *op = &t->op[io_uring_cqe_get_data64(cqe)];

	if (cqe->res < 0)
		op_failed(op->kind, cqe->res, op->first);
	pending(t, op->first, op->n, -1);
	op->busy = false;
	t->inflight--;
	io_uring_cqe_seen(&t->ring, cqe);
}

static void wait_one(struct uvm_tracker *t)
{
	struct io_uring_cqe *cqe;
	int rc;

	do
		rc = io_uring_wait_cqe(&t->ring, &cqe);
	while (rc == -EINTR);
	if (rc < 0)
		op_failed(OP_DONTNEED, rc, 0);
	complete(t, cqe);
}

void uvm_tracker_reap(struct uvm_tracker *t)
{
	struct io_uring_cqe *cqe;

	while (t->inflight && io_uring_peek_cqe(&t->ring, &cqe) == 0)
		complete(t, cqe);
}

static unsigned slot(struct uvm_tracker *t)
{
	for (;;) {
		for (unsigned i = 0; i < UVM_TRACKER_SLOTS; i++) {
			unsigned s = (t->next_free_hint + i) % UVM_TRACKER_SLOTS;

			if (!t->op[s].busy) {
				t->next_free_hint = s + 1;
				return s;
			}
		}
		wait_one(t);
	}
}

static int submit(struct uvm_tracker *t, int kind, int fd, uintptr_t addr, uint64_t off,
		  uint64_t len, size_t first, size_t n, uint64_t batch)
{
	struct io_uring_sqe *sqe;
	unsigned s = slot(t);
	int rc;

	sqe = io_uring_get_sqe(&t->ring);
	if (!sqe) {
		/* The ring is as deep as the slot table, so this means completions
		 * are not being consumed: drain one and retry. */
		wait_one(t);
		sqe = io_uring_get_sqe(&t->ring);
	}
	if (kind == OP_PUNCH)
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)off, (off_t)len);
	else
		io_uring_prep_madvise(sqe, (void *)addr, (off_t)len, MADV_DONTNEED);
	io_uring_sqe_set_data64(sqe, s);
	t->op[s] = (struct uvm_tracker_op){first, n, batch, kind, true};
	pending(t, first, n, +1);
	t->inflight++;
	rc = io_uring_submit(&t->ring);
	if (rc < 0)
		op_failed(kind, rc, first);
	return 0;
}

int uvm_tracker_punch(struct uvm_tracker *t, int memfd, uint64_t off, uint64_t len, size_t first,
		      size_t n, uint64_t batch)
{
	if (t->async)
		return submit(t, OP_PUNCH, memfd, 0, off, len, first, n, batch);
	if (fallocate(memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
		op_failed(OP_PUNCH, -errno, first);
	return 0;
}

int uvm_tracker_dontneed(struct uvm_tracker *t, uintptr_t addr, uint64_t len, size_t first,
			 size_t n, uint64_t batch)
{
	if (t->async)
		return submit(t, OP_DONTNEED, -1, addr, 0, len, first, n, batch);
	if (madvise((void *)addr, len, MADV_DONTNEED))
		op_failed(OP_DONTNEED, -errno, first);
	return 0;
}

void uvm_tracker_settle(struct uvm_tracker *t, size_t first, size_t n)
{
	for (size_t b = first; b < first + n; b++)
		while (t->space->block[b].pending)
			wait_one(t);
}

static bool any_busy(const struct uvm_tracker *t, uint64_t before_batch, int kind)
{
	for (unsigned i = 0; i < UVM_TRACKER_SLOTS; i++)
		if (t->op[i].busy && t->op[i].batch < before_batch &&
		    (kind < 0 || t->op[i].kind == kind))
			return true;
	return false;
}

void uvm_tracker_wait_device_unmaps(struct uvm_tracker *t)
{
	while (t->inflight && any_busy(t, UINT64_MAX, OP_DONTNEED))
		wait_one(t);
}

void uvm_tracker_wait_before(struct uvm_tracker *t, uint64_t batch)
{
	while (t->inflight && any_busy(t, batch, -1))
		wait_one(t);
}

int uvm_tracker_fd(const struct uvm_tracker *t)
{
	return t->async ? t->ring.ring_fd : -1;
}
