// SPDX-License-Identifier: MIT
/*
 * migrate_oversub.c - first touch while device memory has room; the static
 * threshold t_s once it has been full. The adaptive-migration paper's
 * "Oversub" policy.
 */
#include "migrate_threshold.h"

static void *oversub_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return uvm_threshold_create(cfg);
}

static enum uvm_migrate_decision oversub_decide(void *p, const struct uvm_migrate_ctx *ctx)
{
	const struct uvm_threshold *t = p;

	if (!ctx->oversubscribed)
		return UVM_MIGRATE;
	return uvm_threshold_decide(ctx, t->ts);
}

const struct uvm_migrate_ops uvm_migrate_oversub = {
    .name = "oversub",
    .help = "first touch until device memory is full, then the static threshold --ts",
    .create = oversub_create,
    .destroy = free,
    .decide = oversub_decide,
};
