// SPDX-License-Identifier: MIT
/*
 * evict_cpc.c - CPC's ReplacementSwitch: age order at even kernel launches,
 * reverse age order at odd ones.
 *
 * Source: CTA-Page Coordination (ICCAD 2021). Kernels that share data lose
 * it at kernel boundaries: the next kernel starts on the pages the previous
 * one evicted first. CPC reverses the CTA dispatch order at every launch
 * (DispatchSwitch: emu-gpu's --dispatch switch) and, in step with it,
 * alternates the replacement order between age-based LRU (evict the oldest
 * migrated) and reverse age-based LRU (the newest), so each kernel starts on
 * the data the previous one touched last. Use it with --dispatch switch.
 *
 * Granularity: one 2 MB vablock. The order is lru2m's; launch index
 * ctx->launch (0-based) even walks it oldest first (exactly lru2m's pick),
 * odd newest first (exactly reverse's). Before the first launch the index
 * is 0: age order.
 */
#include "age2m.h"

static int cpc_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	return uvm_age2m_pick(p, ctx, ctx->launch % 2 == 1, v);
}

const struct uvm_evict_ops uvm_evict_cpc = {
    .name = "cpc",
    .help = "CPC's ReplacementSwitch: lru2m order at even kernel launches, reverse at odd ones "
	    "(pair with --dispatch switch)",
    .create = uvm_age2m_create,
    .destroy = uvm_age2m_destroy,
    .resident = uvm_age2m_resident,
    .released = uvm_age2m_released,
    .pick = cpc_pick,
};
