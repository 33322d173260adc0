// SPDX-License-Identifier: MIT
/*
 * migrate_always.c - static threshold from the start: a block is read
 * remotely (zero-copy) until it has been accessed t_s times (--ts, default 8),
 * then migrates. The adaptive-migration paper's "Always" policy.
 */
#include "migrate_threshold.h"

static void *always_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return uvm_threshold_create(cfg);
}

static enum uvm_migrate_decision always_decide(void *p, const struct uvm_migrate_ctx *ctx)
{
	const struct uvm_threshold *t = p;

	return uvm_threshold_decide(ctx, t->ts);
}

const struct uvm_migrate_ops uvm_migrate_always = {
    .name = "always",
    .help = "static threshold --ts from the start: remote until accessed t_s times",
    .create = always_create,
    .destroy = free,
    .decide = always_decide,
};
