/* SPDX-License-Identifier: MIT */
/*
 * block_lru.h - the recency order of 64 KB blocks that lru64k, lfu, tree and
 * opt walk.
 *
 * A block joins the tail when it becomes device-resident, moves to the tail
 * when it is touched (a stale GPU fault, or an access the driver reports),
 * and leaves when it loses its device copy. The observers take the policy's
 * state as void *: either a uvm_block_lru itself (uvm_block_lru_create) or a
 * struct whose first member is one, so a policy can name them in its ops.
 */
#ifndef UVM_BLOCK_LRU_H
#define UVM_BLOCK_LRU_H

#include "ilist.h"
#include "policy.h"

struct uvm_block_lru {
	struct uvm_ilist list; /* blocks, least recent first */
};

int uvm_block_lru_init(struct uvm_block_lru *l, const struct uvm_space *space);
void uvm_block_lru_fini(struct uvm_block_lru *l);

/* A policy whose whole state is the order. */
void *uvm_block_lru_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			   size_t errlen);
void uvm_block_lru_destroy(void *p);

void uvm_block_lru_resident(void *p, size_t b);
void uvm_block_lru_released(void *p, size_t b);
void uvm_block_lru_touched(void *p, size_t b, bool write);

#endif
