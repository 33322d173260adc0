/* SPDX-License-Identifier: MIT */
/*
 * migrate_threshold.h - what the threshold policies (always, oversub,
 * adaptive) share: a block stays REMOTE until its access count reaches a
 * threshold, loads and stores alike once it is mapped remotely; a far fault
 * on a store (ctx->write) migrates it whatever the count, as in
 * the adaptive-migration paper's simulator, whose every threshold mode
 * migrates a page on a write (under the copy backend a store to a REMOTE
 * block migrates it too: its remote copies are read-only).
 */
#ifndef UVM_MIGRATE_THRESHOLD_H
#define UVM_MIGRATE_THRESHOLD_H

#include <stdlib.h>

#include "policy.h"

struct uvm_threshold {
	uint64_t ts, penalty;
};

static inline void *uvm_threshold_create(const struct uvm_config *cfg)
{
	struct uvm_threshold *t = malloc(sizeof(*t));

	if (t) {
		t->ts = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_ts);
		t->penalty = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_penalty);
	}
	return t;
}

static inline enum uvm_migrate_decision uvm_threshold_decide(const struct uvm_migrate_ctx *ctx,
							     uint64_t threshold)
{
	return ctx->write || ctx->accesses >= threshold ? UVM_MIGRATE : UVM_MAP_REMOTE;
}

#endif
