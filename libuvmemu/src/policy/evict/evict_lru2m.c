// SPDX-License-Identifier: MIT
/*
 * evict_lru2m.c - the NVIDIA driver's default eviction: age order of 2 MB
 * vablocks.
 *
 * A vablock joins the tail of the list when its first block becomes
 * device-resident and leaves it when its last block goes; accesses do not
 * move it (the driver's used list is ordered by allocation, so this is FIFO,
 * "age-based LRU"). The victim is the oldest vablock that is fully populated
 * and not in use by the batch being serviced; failing that, the oldest one not
 * in use; failing that (second pass), the oldest one at all except the vablock
 * being serviced. The order and the walk are age2m's, from the oldest end.
 */
#include "age2m.h"

static int lru2m_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	return uvm_age2m_pick(p, ctx, false, v);
}

const struct uvm_evict_ops uvm_evict_lru2m = {
    .name = "lru2m",
    .help = "age order of 2 MB vablocks, fully populated and not in use first (NVIDIA default)",
    .create = uvm_age2m_create,
    .destroy = uvm_age2m_destroy,
    .resident = uvm_age2m_resident,
    .released = uvm_age2m_released,
    .pick = lru2m_pick,
};
