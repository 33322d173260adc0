/* SPDX-License-Identifier: MIT */
/*
 * candidates.h - UVMMU's destination allocator: which device frame-group a
 * migrating 64 KB block lands in (paper 003, Sec. IV-B, "Destination
 * Allocator").
 *
 * Device memory is a row of 64 KB frames, 32 to a 2 MB region. An inverted
 * page-group table says which block each frame holds; an availability bitmap
 * has one bit per region with at least one free frame. The destination
 * candidate queue keeps up to UVM_CQ_SIZE free frames ready, so that a fault
 * takes one without a search; a refill (the hardware's background Available
 * Frame Manager) walks the bitmap for free frames when the queue is below
 * UVM_CQ_LOW. A take that finds the queue empty stalls: it refills first.
 *
 * With --fault-path uvmmu the driver keeps one in step with residency
 * (residency.h observers: a block that becomes resident takes a frame, one
 * that leaves gives it back), so the frame numbers are the model's placement
 * of device memory; the backend keeps its own layout of the emulator's
 * frames. Single-threaded: the driver thread (or a test) owns it.
 */
#ifndef UVM_CANDIDATES_H
#define UVM_CANDIDATES_H

#include <stddef.h>
#include <stdint.h>

#define UVM_CQ_SIZE	     64
#define UVM_CQ_LOW	     32
#define UVM_CQ_REGION_FRAMES 32 /* 2 MB of 64 KB frames */
#define UVM_CQ_NONE	     UINT32_MAX

/*
 * The tables cover the arena's every block (terabytes of address space), so
 * they are reserved, not allocated, and zero means "nothing": a table entry
 * is touched only when a frame is used. Entries hold number + 1.
 */
struct uvm_cq {
	uint32_t nframes;      /* frames the tables cover */
	uint32_t limit;	       /* frames below this may be handed out (device capacity) */
	uint32_t *frame_block; /* inverted page-group table: frame -> block + 1, 0 free */
	uint32_t *block_frame; /* block -> frame + 1, 0 none */
	uint64_t *full;	       /* bit per 2 MB region: no free frame left in it */
	uint8_t *region_used;  /* frames of the region held or queued */
	size_t nblocks;
	uint32_t queue[UVM_CQ_SIZE];
	unsigned n;    /* frames queued */
	uint32_t scan; /* region the next refill starts at */
	uint64_t refills, stalls;
};

/* Covers `nblocks` blocks and as many frames; `limit` frames usable. */
int uvm_cq_init(struct uvm_cq *q, size_t nblocks, uint32_t limit);
void uvm_cq_destroy(struct uvm_cq *q);
/* The device capacity changed (frames above it already held stay held). */
void uvm_cq_set_limit(struct uvm_cq *q, uint32_t limit);
/* Fills the queue up to UVM_CQ_SIZE if it is below UVM_CQ_LOW. Returns the
 * frames added. */
unsigned uvm_cq_refill(struct uvm_cq *q);
/* Block b takes a frame; returns it, or UVM_CQ_NONE when no frame is free
 * (the caller should have made room). */
uint32_t uvm_cq_take(struct uvm_cq *q, size_t b);
/* Block b gives its frame back (nothing when it holds none). */
void uvm_cq_release(struct uvm_cq *q, size_t b);

#endif
