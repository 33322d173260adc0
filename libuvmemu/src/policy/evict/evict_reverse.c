// SPDX-License-Identifier: MIT
/*
 * evict_reverse.c - reverse age order of 2 MB vablocks: newest first.
 *
 * Source: CPC (CTA-Page Coordination, ICCAD 2021), the reverse age-based
 * LRU half of its ReplacementSwitch. Granularity: one vablock, as lru2m.
 * The order is lru2m's (by first residency; accesses do not move a
 * vablock), walked from the other end: the victim is the vablock that
 * became resident most recently among those fully populated and not in use;
 * failing that the most recent one not in use; failing that (second pass)
 * the most recent one at all, except the vablock being serviced.
 */
#include "age2m.h"

static int reverse_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	return uvm_age2m_pick(p, ctx, true, v);
}

const struct uvm_evict_ops uvm_evict_reverse = {
    .name = "reverse",
    .help = "reverse age order of 2 MB vablocks: the newest fully populated one not in use "
	    "first (CPC)",
    .create = uvm_age2m_create,
    .destroy = uvm_age2m_destroy,
    .resident = uvm_age2m_resident,
    .released = uvm_age2m_released,
    .pick = reverse_pick,
};
