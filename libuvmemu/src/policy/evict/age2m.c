// SPDX-License-Identifier: MIT
/* age2m.c - the age order of 2 MB vablocks, walked from either end. */
#include "age2m.h"

#include <errno.h>
#include <stdlib.h>

#include "evict_util.h"

void *uvm_age2m_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
		       size_t errlen)
{
	struct uvm_age2m *a = calloc(1, sizeof(*a));

	(void)cfg;
	if (a && uvm_ilist_init(&a->list, space->nvablocks)) {
		free(a);
		a = NULL;
	}
	if (a && !(a->count = calloc(space->nvablocks, sizeof(*a->count)))) {
		uvm_ilist_destroy(&a->list);
		free(a);
		a = NULL;
	}
	if (!a)
		return uvm_policy_nomem(err, errlen);
	a->space = space;
	return a;
}

void uvm_age2m_destroy(void *p)
{
	struct uvm_age2m *a = p;

	uvm_ilist_destroy(&a->list);
	free(a->count);
	free(a);
}

bool uvm_age2m_count_in(struct uvm_age2m *a, size_t b)
{
	return a->count[uvm_vablock_of(b)]++ == 0;
}

void uvm_age2m_resident(void *p, size_t b)
{
	struct uvm_age2m *a = p;

	/* Joins on its first resident block; later ones leave it in place. */
	if (uvm_age2m_count_in(a, b))
		uvm_ilist_push(&a->list, (uint32_t)uvm_vablock_of(b));
}

void uvm_age2m_released(void *p, size_t b)
{
	struct uvm_age2m *a = p;
	size_t v = uvm_vablock_of(b);

	if (a->count[v] > 0 && --a->count[v] == 0)
		uvm_ilist_remove(&a->list, (uint32_t)v);
}

/* The kinds of candidate, best first. */
enum kind { FULL, PARTIAL, IN_USE, KINDS };

int uvm_age2m_pick_by(const struct uvm_age2m *a, const struct uvm_evict_ctx *ctx, bool newest_first,
		      uvm_age2m_key key, struct uvm_victim *out)
{
	const struct uvm_space *s = a->space;
	uint32_t best[KINDS] = {UVM_ILIST_END, UVM_ILIST_END, UVM_ILIST_END}, choice;
	uint64_t best_key[KINDS] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
	uint32_t v = newest_first ? uvm_ilist_last(&a->list) : uvm_ilist_first(&a->list);

	for (; v != UVM_ILIST_END;
	     v = newest_first ? uvm_ilist_prev(&a->list, v) : uvm_ilist_next(&a->list, v)) {
		const struct uvm_vablock *vb = &s->vablock[v];
		enum kind k;
		uint64_t kv;

		if (v == ctx->keep_vablock || !uvm_evict_has_device(ctx, v))
			continue;
		k = vb->in_batch >= ctx->batch	? IN_USE
		    : a->count[v] == vb->nvalid ? FULL
						: PARTIAL;
		kv = key ? key(ctx, v) : 0;
		if (kv < best_key[k]) {
			best[k] = v;
			best_key[k] = kv;
		}
		/* Without keys nothing beats the first full one. */
		if (!key && k == FULL)
			break;
	}
	choice = best[FULL] != UVM_ILIST_END	  ? best[FULL]
		 : best[PARTIAL] != UVM_ILIST_END ? best[PARTIAL]
		 : ctx->allow_in_use		  ? best[IN_USE]
						  : UVM_ILIST_END;
	if (choice == UVM_ILIST_END)
		return -ENOENT;
	*out = (struct uvm_victim){uvm_vablock_first(choice), UVM_BLOCKS_PER_VABLOCK};
	return 0;
}

int uvm_age2m_pick(const struct uvm_age2m *a, const struct uvm_evict_ctx *ctx, bool newest_first,
		   struct uvm_victim *out)
{
	return uvm_age2m_pick_by(a, ctx, newest_first, NULL, out);
}
