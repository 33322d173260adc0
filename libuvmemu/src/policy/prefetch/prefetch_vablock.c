// SPDX-License-Identifier: MIT
/*
 * prefetch_vablock.c - bring the whole 2 MB vablock of a fault.
 *
 * Granularity: one vablock, i.e. every block of it that belongs to the
 * allocation (nvalid; never past an allocation's end). This is the tree
 * prefetcher's limit case and what the driver does when nothing of a block
 * is resident and the destination is its preferred location; as a policy of
 * its own it is the upper bound on prefetching within the driver's scope.
 */
#include "policy.h"

static void *vablock_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return (void *)space; /* no state; any non-NULL handle */
}

static void vablock_destroy(void *p)
{
}

static struct uvm_vbmask vablock_pick(void *p, const struct uvm_prefetch_ctx *ctx)
{
	return uvm_vbmask_andnot(ctx->valid, uvm_vbmask_or(ctx->resident, ctx->faulted));
}

const struct uvm_prefetch_ops uvm_prefetch_vablock = {
    .name = "vablock",
    .help = "the whole 2 MB vablock of a fault (its blocks inside the allocation)",
    .create = vablock_create,
    .destroy = vablock_destroy,
    .pick = vablock_pick,
};
