// SPDX-License-Identifier: MIT
/* candidates.c - the destination candidate queue and its frame tables. */
#include "candidates.h"
#include "testing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define QUEUED UINT32_MAX /* frame_block: in the queue, neither free nor held */

static void *reserve(size_t bytes)
{
	void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void unreserve(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes ? bytes : 1);
}

static uint32_t nregions(const struct uvm_cq *q)
{
	return (q->nframes + UVM_CQ_REGION_FRAMES - 1) / UVM_CQ_REGION_FRAMES;
}

/* The frame is free again: its region has one more. */
static void mark_free(struct uvm_cq *q, uint32_t f)
{
	uint32_t r = f / UVM_CQ_REGION_FRAMES;

	q->frame_block[f] = 0;
	q->region_used[r]--;
	q->full[r / 64] &= ~(1ull << (r % 64));
}

int uvm_cq_init(struct uvm_cq *q, size_t nblocks, uint32_t limit)
{
	memset(q, 0, sizeof(*q));
	if (nblocks >= QUEUED)
		return -EINVAL;
	q->nblocks = nblocks;
	q->nframes = (uint32_t)nblocks;
	q->limit = limit < q->nframes ? limit : q->nframes;
	q->frame_block = reserve(nblocks * sizeof(*q->frame_block));
	q->block_frame = reserve(nblocks * sizeof(*q->block_frame));
	q->full = reserve((nregions(q) / 64 + 1) * sizeof(*q->full));
	q->region_used = reserve(nregions(q) + 1);
	if (!q->frame_block || !q->block_frame || !q->full || !q->region_used) {
		uvm_cq_destroy(q);
		return -ENOMEM;
	}
	return 0;
}

void uvm_cq_destroy(struct uvm_cq *q)
{
	unreserve(q->frame_block, q->nblocks * sizeof(*q->frame_block));
	unreserve(q->block_frame, q->nblocks * sizeof(*q->block_frame));
	unreserve(q->full, (nregions(q) / 64 + 1) * sizeof(*q->full));
	unreserve(q->region_used, nregions(q) + 1);
	memset(q, 0, sizeof(*q));
}

void uvm_cq_set_limit(struct uvm_cq *q, uint32_t limit)
{
	uint32_t r = q->limit / UVM_CQ_REGION_FRAMES;
	unsigned kept = 0;

	/* Raised: the region that straddled the old limit has free frames
	 * again that its bit did not count. */
	if (limit > q->limit && r < nregions(q))
		q->full[r / 64] &= ~(1ull << (r % 64));
	q->limit = limit < q->nframes ? limit : q->nframes;
	/* Queued frames beyond the new capacity go back to the tables. */
	for (unsigned i = 0; i < q->n; i++) {
		if (q->queue[i] < q->limit)
			q->queue[kept++] = q->queue[i];
		else
			mark_free(q, q->queue[i]);
	}
	q->n = kept;
}

/* Moves region r's free frames below the limit into the queue while it has
 * room; the region is marked full once it has none left. */
static unsigned take_region(struct uvm_cq *q, uint32_t r)
{
	uint32_t f = r * UVM_CQ_REGION_FRAMES, end = f + UVM_CQ_REGION_FRAMES;
	unsigned added = 0;

	if (end > q->nframes)
		end = q->nframes;
	for (; f < end && q->n < UVM_CQ_SIZE; f++) {
		if (q->frame_block[f] != 0 || f >= q->limit)
			continue;
		q->frame_block[f] = QUEUED;
		q->region_used[r]++;
		q->queue[q->n++] = f;
		added++;
	}
	/* Every frame of the region within the limit is in use. */
	if (q->n < UVM_CQ_SIZE || q->region_used[r] == end - r * UVM_CQ_REGION_FRAMES)
		q->full[r / 64] |= 1ull << (r % 64);
	return added;
}

unsigned uvm_cq_refill(struct uvm_cq *q)
{
	uint32_t usable = (q->limit + UVM_CQ_REGION_FRAMES - 1) / UVM_CQ_REGION_FRAMES;
	uint32_t r = usable ? q->scan % usable : 0;
	unsigned added = 0;

	if (q->n >= UVM_CQ_LOW || usable == 0)
		return 0;
	/* One pass over the usable regions from where the last one stopped; a
	 * word of the bitmap answers for 64 regions at once, as the hardware's
	 * wide SRAM does. */
	for (uint32_t looked = 0; looked < usable && q->n < UVM_CQ_SIZE;) {
		uint64_t word = ~q->full[r / 64] >> (r % 64);
		uint32_t step = word ? (uint32_t)__builtin_ctzll(word) : 64 - r % 64;

		if (word && step == 0) {
			added += take_region(q, r);
			step = 1;
		}
		looked += step;
		r += step;
		if (r >= usable)
			r = 0;
	}
	q->scan = r;
	/* A refill that found nothing (memory full: faults swap) is no refill. */
	q->refills += added > 0;
	return added;
}

uint32_t uvm_cq_take(struct uvm_cq *q, size_t b)
{
	uint32_t f;

	if (b >= q->nblocks)
		return UVM_CQ_NONE;
	if (q->block_frame[b])
		return q->block_frame[b] - 1; /* still holds one (a duplicated block) */
	if (q->n == 0) {
		q->stalls++;
		uvm_cq_refill(q);
		if (q->n == 0)
			return UVM_CQ_NONE;
	}
	f = q->queue[--q->n];
	q->frame_block[f] = (uint32_t)b + 1;
	q->block_frame[b] = f + 1;
	return f;
}

void uvm_cq_release(struct uvm_cq *q, size_t b)
{
	uint32_t f;

	if (b >= q->nblocks || !q->block_frame[b])
		return;
	f = q->block_frame[b] - 1;
	q->block_frame[b] = 0;
	/* A victim's frame goes straight back to the queue when it has room,
	 * so the block that evicted it takes it next: UVMMU's swap. */
	if (f < q->limit && q->n < UVM_CQ_SIZE) {
		q->frame_block[f] = QUEUED;
		q->queue[q->n++] = f;
		return;
	}
	mark_free(q, f);
}

uint32_t uvm_cq_frame_of(const struct uvm_cq *q, size_t b)
{
	return b < q->nblocks && q->block_frame[b] ? q->block_frame[b] - 1 : UVM_CQ_NONE;
}

uint32_t uvm_cq_block_of(const struct uvm_cq *q, uint32_t f)
{
	uint32_t v = f < q->nframes ? q->frame_block[f] : 0;

	return v == 0 || v == QUEUED ? UVM_CQ_NONE : v - 1;
}
