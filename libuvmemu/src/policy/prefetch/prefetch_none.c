// SPDX-License-Identifier: MIT
/* prefetch_none.c - bring only the faulted blocks. */
#include "policy.h"

static void *none_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return (void *)space; /* no state; any non-NULL handle */
}

static void none_destroy(void *p)
{
}

static struct uvm_vbmask none_pick(void *p, const struct uvm_prefetch_ctx *ctx)
{
	return uvm_vbmask_zero();
}

const struct uvm_prefetch_ops uvm_prefetch_none = {
    .name = "none",
    .help = "no prefetching: only the faulted 64 KB blocks move",
    .create = none_create,
    .destroy = none_destroy,
    .pick = none_pick,
};
