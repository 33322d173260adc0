// SPDX-License-Identifier: MIT
/*
 * prefetch_seq64k.c - the papers' sequential-local prefetcher: bring the
 * whole 64 KB basic block around a faulting page.
 *
 * Source: Ganguly et al. (ISCA 2019) and UVMMU describe it as prefetching
 * the 64 KB chunk in which the faulting 4 KB page lies. Granularity: one 64
 * KB basic block. At --page-size 64k that is the emulator's unit of
 * migration (docs/architecture.md, vocabulary): a faulted block always moves
 * whole, so the extra set is empty and this policy behaves exactly as
 * `none`; it exists so that experiments can name the papers' configuration.
 * At --page-size 4k a fault moves its page and this policy adds the rest of
 * its basic block (cut at the allocation's end), less what is already there.
 */
#include "policy.h"
#include "vablock_tree.h"

static void *seq64k_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return (void *)space; /* no state; any non-NULL handle */
}

static void seq64k_destroy(void *p)
{
}

static struct uvm_vbmask seq64k_pick(void *p, const struct uvm_prefetch_ctx *ctx)
{
	unsigned nvalid = uvm_vbmask_count(ctx->valid); /* valid is [0, nvalid) */
	/* A stale fault (already resident) asks for nothing, as in tree. */
	struct uvm_vbmask walk =
	    uvm_vbmask_andnot(uvm_vbmask_and(ctx->faulted, ctx->valid), ctx->resident);

	return uvm_vbmask_andnot(uvm_tree_basic(walk, nvalid),
				 uvm_vbmask_or(ctx->faulted, ctx->resident));
}

const struct uvm_prefetch_ops uvm_prefetch_seq64k = {
    .name = "seq64k",
    .help = "sequential-local: the faulting page's 64 KB basic block (identical to none at "
	    "--page-size 64k, whose unit it is)",
    .create = seq64k_create,
    .destroy = seq64k_destroy,
    .pick = seq64k_pick,
};
