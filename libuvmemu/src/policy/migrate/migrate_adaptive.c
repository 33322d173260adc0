// SPDX-License-Identifier: MIT
/*
 * migrate_adaptive.c - the dynamic threshold of the adaptive-migration paper
 * (Ganguly et al., IPDPS 2020):
 *   before oversubscription  t_d = t_s * allocated / capacity + 1
 *   after                    t_d = t_s * (r + 1) * p
 * with allocated the device blocks in use, r the block's round trips (times
 * evicted and brought back) and p the penalty (--penalty). Early on the
 * threshold is 1 and behaves like first touch; it grows as memory fills, and
 * once memory has been full, blocks that thrashed need ever more accesses to
 * come back. Pairs with LFU eviction (the default eviction under this policy).
 */
#include "migrate_threshold.h"

static void *adaptive_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return uvm_threshold_create(cfg);
}

static enum uvm_migrate_decision adaptive_decide(void *p, const struct uvm_migrate_ctx *ctx)
{
	const struct uvm_threshold *t = p;
	uint64_t td;

	if (!ctx->oversubscribed)
		td = ctx->capacity_blocks ? t->ts * ctx->used_blocks / ctx->capacity_blocks + 1 : 1;
	else
		td = t->ts * ((uint64_t)ctx->trips + 1) * t->penalty;
	return uvm_threshold_decide(ctx, td);
}

const struct uvm_migrate_ops uvm_migrate_adaptive = {
    .name = "adaptive",
    .help = "dynamic threshold: t_s*allocated/capacity+1, then t_s*(round trips+1)*penalty",
    .create = adaptive_create,
    .destroy = free,
    .decide = adaptive_decide,
};
