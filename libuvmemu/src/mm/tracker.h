/* SPDX-License-Identifier: MIT */
/*
 * tracker.h - asynchronous unmaps (host punches, device MADV_DONTNEED)
 * through io_uring, and the waits they require.
 *
 * An operation covers a run of blocks and counts in each block's `pending`
 * until it completes. Before the driver writes a block's host or device range
 * again it settles the block (waits for its operations): an eviction right
 * after a migration would otherwise have its write-back punched away, and a
 * copy into a device range could meet pages an unfinished DONTNEED is about
 * to drop. At the end of a batch the driver waits for the operations of
 * earlier batches (the tracker wait stage), so those of the current batch
 * overlap the replay, as the real driver's tracker overlaps its work.
 * Without io_uring (or with --async off) operations run synchronously.
 */
#ifndef UVM_TRACKER_H
#define UVM_TRACKER_H

#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>

#include "space.h"

#define UVM_TRACKER_SLOTS 256

struct uvm_tracker_op {
	size_t first, n; /* block run, for pending counts */
	uint64_t batch;	 /* batch that issued it */
	int kind;	 /* punch or dontneed, for messages */
	bool busy;
};

struct uvm_tracker {
	struct uvm_space *space;
	bool async;
	struct io_uring ring;
	unsigned inflight;
	struct uvm_tracker_op op[UVM_TRACKER_SLOTS];
	unsigned next_free_hint;
	char why_sync[160]; /* why operations run synchronously, if they do */
};

/* async: use io_uring if the kernel allows it (else say why in why_sync). */
int uvm_tracker_init(struct uvm_tracker *t, struct uvm_space *space, bool async);
void uvm_tracker_destroy(struct uvm_tracker *t);

/* Frees host frames: punches [off, off + len) of the memfd. */
int uvm_tracker_punch(struct uvm_tracker *t, int memfd, uint64_t off, uint64_t len, size_t first,
		      size_t n, uint64_t batch);
/* Frees device frames: MADV_DONTNEED on [addr, addr + len). */
int uvm_tracker_dontneed(struct uvm_tracker *t, uintptr_t addr, uint64_t len, size_t first,
			 size_t n, uint64_t batch);

/* Harvests finished operations without waiting. */
void uvm_tracker_reap(struct uvm_tracker *t);
/* Waits until no operation touches blocks [first, first + n). */
void uvm_tracker_settle(struct uvm_tracker *t, size_t first, size_t n);
/* Waits until every device unmap in flight has freed its frames. */
void uvm_tracker_wait_device_unmaps(struct uvm_tracker *t);
/* Waits for every operation issued by a batch before `batch`. */
void uvm_tracker_wait_before(struct uvm_tracker *t, uint64_t batch);
/* The ring's descriptor (readable when completions wait), or -1. */
int uvm_tracker_fd(const struct uvm_tracker *t);

#endif
