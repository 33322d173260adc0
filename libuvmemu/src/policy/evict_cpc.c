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
#include <stdlib.h>

#include "age2m.h"

static void *cpc_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	struct uvm_age2m *a = calloc(1, sizeof(*a));

	if (a && uvm_age2m_init(a, space)) {
		free(a);
		return NULL;
	}
	return a;
}

static void cpc_destroy(void *p)
{
	uvm_age2m_destroy(p);
	free(p);
}

static void cpc_resident(void *p, size_t b)
{
	uvm_age2m_resident(p, b);
}

static void cpc_released(void *p, size_t b)
{
	uvm_age2m_released(p, b);
}

static int cpc_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	return uvm_age2m_pick(p, ctx, ctx->launch % 2 == 1, v);
}

const struct uvm_evict_ops uvm_evict_cpc = {
    .name = "cpc",
    .help = "CPC's ReplacementSwitch: lru2m order at even kernel launches, reverse at odd ones "
	    "(pair with --dispatch switch)",
    .create = cpc_create,
    .destroy = cpc_destroy,
    .resident = cpc_resident,
    .released = cpc_released,
    .pick = cpc_pick,
};
