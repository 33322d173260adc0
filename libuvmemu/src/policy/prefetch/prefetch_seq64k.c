// SPDX-License-Identifier: MIT
/*
 * prefetch_seq64k.c - the papers' sequential-local prefetcher: bring the
 * whole 64 KB basic block around a faulting page.
 *
 * Source: Ganguly et al. (ISCA 2019) and UVMMU describe it as prefetching
 * the 64 KB chunk in which the faulting 4 KB page lies. Granularity: one 64
 * KB block. The emulator's unit of migration is already the 64 KB block
 * (docs/architecture.md, vocabulary): a faulted block always moves whole, so the extra set is
 * empty and this policy behaves exactly as `none`. It exists so that
 * experiments can name the papers' configuration.
 */
#include "policy.h"

static void *seq64k_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return (void *)space; /* no state; any non-NULL handle */
}

static void seq64k_destroy(void *p)
{
}

static struct uvm_vbmask seq64k_pick(void *p, const struct uvm_prefetch_ctx *ctx)
{
	return uvm_vbmask_zero(); /* the faulted blocks themselves are the 64 KB chunks */
}

const struct uvm_prefetch_ops uvm_prefetch_seq64k = {
    .name = "seq64k",
    .help = "sequential-local: the faulting 64 KB block, the emulator's migration unit "
	    "(identical to none here)",
    .create = seq64k_create,
    .destroy = seq64k_destroy,
    .pick = seq64k_pick,
};
