/* SPDX-License-Identifier: MIT */
/*
 * batcher.h - the GPU's fault buffer in modelled time (--clock model): which
 * far faults a batch holds, and when it starts.
 *
 * Faults enter stamped with the modelled time their warp issued them. They
 * arrive in the buffer in that order, one every --fault-gap at most (the
 * GPU writes its fault buffer one entry at a time: faults that many warps
 * issued at once arrive spread out), so a fault arrives at the later of its
 * stamp and the previous fault's arrival plus the gap. The driver starts a
 * batch when it is free (the previous batch's modelled end) or when the
 * earliest pending fault arrives, whichever is later, and reads the buffer
 * from then for the fetch window (--fetch-window: the interrupt, the
 * worker's wake-up and the reads, which go on while entries remain); the
 * batch holds the faults arrived by the window's end, earliest first, up to
 * the batch size. Arrivals are assigned in stamp order as faults are taken:
 * a fault stamped later never delays one stamped earlier. Whether the
 * caller may start it yet (no slot could still deliver a fault stamped
 * inside the window) is the caller's question (gpu.c); this is the buffer
 * alone, without locks, clocks or threads, so that tests can check batch
 * formation on stamps they choose.
 */
#ifndef UVM_BATCHER_H
#define UVM_BATCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One far fault in modelled time. */
struct uvm_mfault {
	uint64_t stamp; /* when its warp issued it */
	uint64_t page;	/* arena offset of its 4 KB page */
	uint32_t slot;	/* the waiting slot's record */
	uint32_t seq;	/* arrival order: ties go in it */
};

struct uvm_batcher {
	struct uvm_mfault *heap; /* pending faults, earliest (stamp, seq) first */
	size_t n, cap;
	uint64_t free_at; /* when the driver is free, modelled */
	uint64_t window;  /* how long a batch reads the buffer (--fetch-window) */
	uint64_t gap;	  /* the buffer takes one fault per gap (--fault-gap) */
	uint64_t open_at; /* the earliest the next fault can arrive: the last
			   * taken one's arrival plus the gap (0: none yet) */
	unsigned max;	  /* faults a batch holds at most (--batch) */
	uint32_t seq;
};

void uvm_batcher_init(struct uvm_batcher *b, unsigned max, uint64_t window, uint64_t gap);
void uvm_batcher_destroy(struct uvm_batcher *b);
/* Queues a fault; -ENOMEM when the buffer cannot grow. */
int uvm_batcher_add(struct uvm_batcher *b, uint64_t stamp, uint64_t page, uint32_t slot);
/* When the next batch starts, the later of the driver's free time and the
 * earliest pending fault's arrival; false when no fault is pending. */
bool uvm_batcher_next(const struct uvm_batcher *b, uint64_t *start);
/* The last arrival the batch that starts at `start` reads: its window's
 * end. A fault arrives no earlier than its stamp, so every fault stamped by
 * then must be queued before the batch is taken (the caller's rule). */
static inline uint64_t uvm_batcher_fetched_by(const struct uvm_batcher *b, uint64_t start)
{
	return start + b->window;
}
/* The batch that starts at `start`: moves the faults arrived by its
 * window's end into out (at most b->max), earliest first; returns how many. */
size_t uvm_batcher_take(struct uvm_batcher *b, uint64_t start, struct uvm_mfault *out);
/* The batch ended at `end`: the driver is free from then. */
void uvm_batcher_done(struct uvm_batcher *b, uint64_t end);
static inline size_t uvm_batcher_pending(const struct uvm_batcher *b)
{
	return b->n;
}

#endif
