// SPDX-License-Identifier: MIT
/*
 * evict_lfu2m.c - the adaptive-migration paper's simplified LFU at the
 * paper's granularity: the driver's age list of 2 MB vablocks, re-sorted by
 * the access counters.
 *
 * Source: Ganguly et al., IPDPS 2020, section IV: the access counters sort
 * "the list of 2MB large pages" so that cold pages go before hot ones, the
 * order falls back to LRU where pages are accessed about equally (regular
 * programs), and read-only pages go first. lfu applies the same rule one
 * 64 KB block at a time.
 *
 * The rule. Candidates are lru2m's: a vablock with a copy on the GPU that
 * needs room, never the one being serviced; fully populated and not in use
 * by the batch first, then partial ones not in use, then (the driver's
 * second pass) one in use. Within a kind, the victim has the smallest key
 * (written, accesses): first vablocks none of whose blocks here was written,
 * then the fewest accesses, summed over its basic blocks (the counters'
 * unit) that have a copy here. Equal keys go in age order, oldest first.
 * The victim is the whole vablock, as lru2m's.
 */
#include "age2m.h"
#include "evict_util.h"

/* The vablock's key: written << 40 | its accesses here. A vablock holds 32
 * basic blocks of at most 2^27 accesses each, so the sum stays below 2^32. */
static uint64_t vablock_key(const struct uvm_evict_ctx *ctx, uint32_t v)
{
	const struct uvm_space *s = ctx->space;
	size_t first = uvm_vablock_first(v), end = first + s->vablock[v].nvalid;
	uint64_t written = 0, accesses = 0;

	for (size_t basic = first; basic < end; basic += UVM_BLOCKS_PER_BASIC) {
		size_t hi = basic + UVM_BLOCKS_PER_BASIC < end ? basic + UVM_BLOCKS_PER_BASIC : end;
		bool here = false;

		for (size_t b = basic; b < hi; b++) {
			if (!uvm_evict_has_copy(ctx, b))
				continue;
			here = true;
			written |= uvm_evict_written(s, b);
		}
		if (here)
			accesses += uvm_counter_accesses(s, basic);
	}
	return written << 40 | accesses;
}

static int lfu2m_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *out)
{
	return uvm_age2m_pick_by(p, ctx, false, vablock_key, out);
}

const struct uvm_evict_ops uvm_evict_lfu2m = {
    .name = "lfu2m",
    .help = "least frequently used 2 MB vablock by access counters, read-only ones first, age "
	    "order among equals (the adaptive-migration paper's granularity)",
    .create = uvm_age2m_create,
    .destroy = uvm_age2m_destroy,
    .resident = uvm_age2m_resident,
    .released = uvm_age2m_released,
    .pick = lfu2m_pick,
};
