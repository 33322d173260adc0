// SPDX-License-Identifier: MIT
/*
 * evict_cpc.c - CPC's ReplacementSwitch: the age list is used from one end at
 * even kernel launches and from the other at odd ones, for eviction and
 * allocation both.
 *
 * Source: CTA-Page Coordination (ICCAD 2021). Kernels that share data lose
 * it at kernel boundaries: the next kernel starts on the pages the previous
 * one evicted first. CPC reverses the CTA dispatch order at every launch
 * (DispatchSwitch: emu-gpu's --dispatch switch) and, in step with it,
 * switches "the direction of both page eviction and page allocation": at
 * even launches a vablock joins at the tail and victims come from the head
 * (lru2m exactly), at odd ones it joins at the head and victims come from the
 * tail. Use it with --dispatch switch.
 *
 * Why allocation switches too: an odd launch, dispatched in reverse, first
 * reuses what the previous launch brought in last, and is done with it first,
 * so the tail (the previous launch's newest) is the right victim. What the odd
 * launch itself brings in must not be next: evicting newest-by-age there
 * would throw out each vablock as soon as it arrived, while the launch's
 * CTAs still read it. Joining at the head puts it behind everything older,
 * and at the next (even) launch, dispatched forwards again, the head is what
 * the odd launch touched last, which that launch reuses first.
 *
 * Granularity: one 2 MB vablock, as lru2m. Before the first launch the
 * direction is the even one.
 */
#include <stdlib.h>

#include "age2m.h"

struct cpc {
	struct uvm_age2m *age;
	bool odd; /* the current launch is odd: join at the head, evict from the tail */
};

static void *cpc_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			size_t errlen)
{
	struct cpc *c = calloc(1, sizeof(*c));

	if (!c)
		return uvm_policy_nomem(err, errlen);
	c->age = uvm_age2m_create(space, cfg, err, errlen);
	if (!c->age) {
		free(c);
		return NULL;
	}
	return c;
}

static void cpc_destroy(void *p)
{
	struct cpc *c = p;

	uvm_age2m_destroy(c->age);
	free(c);
}

static void cpc_resident(void *p, size_t b)
{
	struct cpc *c = p;
	uint32_t v = (uint32_t)uvm_vablock_of(b);

	if (!uvm_age2m_count_in(c->age, b))
		return; /* a member already: it stays where it is */
	if (c->odd)
		uvm_ilist_push_head(&c->age->list, v);
	else
		uvm_ilist_push(&c->age->list, v);
}

static void cpc_released(void *p, size_t b)
{
	struct cpc *c = p;

	uvm_age2m_released(c->age, b);
}

static void cpc_launch(void *p, uint64_t index)
{
	struct cpc *c = p;

	c->odd = index % 2 == 1;
}

static int cpc_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	const struct cpc *c = p;

	return uvm_age2m_pick(c->age, ctx, c->odd, v);
}

const struct uvm_evict_ops uvm_evict_cpc = {
    .name = "cpc",
    .help = "CPC's ReplacementSwitch: lru2m's age list used from the head at even kernel "
	    "launches and from the tail at odd ones, for eviction and allocation both (pair "
	    "with --dispatch switch)",
    .create = cpc_create,
    .destroy = cpc_destroy,
    .resident = cpc_resident,
    .released = cpc_released,
    .launch = cpc_launch,
    .pick = cpc_pick,
};
