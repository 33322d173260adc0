// SPDX-License-Identifier: MIT
/* block_lru.c - the recency order of 64 KB blocks. */
#include "block_lru.h"

#include <errno.h>
#include <stdlib.h>

int uvm_block_lru_init(struct uvm_block_lru *l, const struct uvm_space *space)
{
	return uvm_ilist_init(&l->list, space->nblocks) ? -ENOMEM : 0;
}

void uvm_block_lru_fini(struct uvm_block_lru *l)
{
	uvm_ilist_destroy(&l->list);
}

void *uvm_block_lru_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			   size_t errlen)
{
	struct uvm_block_lru *l = calloc(1, sizeof(*l));

	(void)cfg;
	if (l && uvm_block_lru_init(l, space)) {
		free(l);
		l = NULL;
	}
	return l ? l : uvm_policy_nomem(err, errlen);
}

void uvm_block_lru_destroy(void *p)
{
	uvm_block_lru_fini(p);
	free(p);
}

void uvm_block_lru_resident(void *p, size_t b)
{
	uvm_ilist_push(&((struct uvm_block_lru *)p)->list, (uint32_t)b);
}

void uvm_block_lru_released(void *p, size_t b)
{
	uvm_ilist_remove(&((struct uvm_block_lru *)p)->list, (uint32_t)b);
}

void uvm_block_lru_touched(void *p, size_t b, bool write)
{
	uvm_ilist_to_tail(&((struct uvm_block_lru *)p)->list, (uint32_t)b);
}
