// SPDX-License-Identifier: MIT
/* candidates.c - the destination candidate queue and its frame tables. */
#include "candidates.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define QUEUED (UVM_CQ_NONE - 1) /* frame_block: in the queue, neither free nor held */

static uint32_t nregions(const struct uvm_cq *q)
{
	return (q->nframes + UVM_CQ_REGION_FRAMES - 1) / UVM_CQ_REGION_FRAMES;
}

static void mark_free(struct uvm_cq *q, uint32_t f)
{
	uint32_t r = f / UVM_CQ_REGION_FRAMES;

	q->frame_block[f] = UVM_CQ_NONE;
	q->region_free[r]++;
	q->avail[r / 64] |= 1ull << (r % 64);
}

int uvm_cq_init(struct uvm_cq *q, size_t nblocks, uint32_t limit)
{
	memset(q, 0, sizeof(*q));
	if (nblocks >= UVM_CQ_NONE)
		return -EINVAL;
	q->nframes = (uint32_t)nblocks;
	q->limit = limit < q->nframes ? limit : q->nframes;
	q->frame_block = malloc((nblocks ? nblocks : 1) * sizeof(*q->frame_block));
	q->block_frame = malloc((nblocks ? nblocks : 1) * sizeof(*q->block_frame));
	q->avail = calloc(nregions(q) / 64 + 1, sizeof(*q->avail));
	q->region_free = calloc(nregions(q) + 1, 1);
	if (!q->frame_block || !q->block_frame || !q->avail || !q->region_free) {
		uvm_cq_destroy(q);
		return -ENOMEM;
	}
	memset(q->block_frame, 0xff, nblocks * sizeof(*q->block_frame));
	for (uint32_t f = 0; f < q->nframes; f++)
		mark_free(q, f);
	return 0;
}

void uvm_cq_destroy(struct uvm_cq *q)
{
	free(q->frame_block);
	free(q->block_frame);
	free(q->avail);
	free(q->region_free);
	memset(q, 0, sizeof(*q));
}

void uvm_cq_set_limit(struct uvm_cq *q, uint32_t limit)
{
	unsigned kept = 0;

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
 * room; the region's bit stays set while it has free frames left. */
static unsigned take_region(struct uvm_cq *q, uint32_t r)
{
	uint32_t f = r * UVM_CQ_REGION_FRAMES, end = f + UVM_CQ_REGION_FRAMES;
	unsigned added = 0;

	if (end > q->limit)
		end = q->limit;
	for (; f < end && q->n < UVM_CQ_SIZE && q->region_free[r]; f++) {
		if (q->frame_block[f] != UVM_CQ_NONE)
			continue;
		q->frame_block[f] = QUEUED;
		q->region_free[r]--;
		q->queue[q->n++] = f;
		added++;
	}
	if (!q->region_free[r])
		q->avail[r / 64] &= ~(1ull << (r % 64));
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
		uint64_t word = q->avail[r / 64] >> (r % 64);
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

	if (b >= q->nframes)
		return UVM_CQ_NONE;
	if (q->block_frame[b] != UVM_CQ_NONE)
		return q->block_frame[b]; /* still holds one (a duplicated block) */
	if (q->n == 0) {
		q->stalls++;
		uvm_cq_refill(q);
		if (q->n == 0)
			return UVM_CQ_NONE;
	}
	f = q->queue[--q->n];
	q->frame_block[f] = (uint32_t)b;
	q->block_frame[b] = f;
	return f;
}

void uvm_cq_release(struct uvm_cq *q, size_t b)
{
	uint32_t f;

	if (b >= q->nframes || q->block_frame[b] == UVM_CQ_NONE)
		return;
	f = q->block_frame[b];
	q->block_frame[b] = UVM_CQ_NONE;
	/* A victim's frame goes straight back to the queue when it has room,
	 * so the block that evicted it takes it next: UVMMU's swap. */
	if (f < q->limit && q->n < UVM_CQ_SIZE) {
		q->frame_block[f] = QUEUED;
		q->queue[q->n++] = f;
		return;
	}
	mark_free(q, f);
}
