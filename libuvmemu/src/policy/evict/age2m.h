/* SPDX-License-Identifier: MIT */
/*
 * age2m.h - the age order of 2 MB vablocks that lru2m, reverse and cpc walk.
 *
 * The NVIDIA driver's used list, by first residency: a vablock joins the
 * tail when its first block becomes device-resident, leaves when its last
 * block goes, and accesses do not move it. The pick walks it from either
 * end.
 */
#ifndef UVM_AGE2M_H
#define UVM_AGE2M_H

#include "ilist.h"
#include "policy.h"

struct uvm_age2m {
	const struct uvm_space *space;
	struct uvm_ilist list; /* vablocks, oldest first */
	/* The blocks of each vablock this instance was told are resident: with
	 * several GPUs (an instance per GPU) its own GPU's, which the
	 * vablock's count (every GPU's) is not. */
	uint16_t *count;
};

/* The whole state of lru2m, reverse and cpc, named in their ops as it is:
 * the functions take a uvm_age2m as void *. */
void *uvm_age2m_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
		       size_t errlen);
void uvm_age2m_destroy(void *p);
/* Counts block b in; true when it is its vablock's first (the vablock joins
 * the order then). */
bool uvm_age2m_count_in(struct uvm_age2m *a, size_t b);
/* The eviction observers, for block b. */
void uvm_age2m_resident(void *p, size_t b);
void uvm_age2m_released(void *p, size_t b);
/*
 * The first vablock from the oldest end (newest_first: from the newest end)
 * that is fully populated and not in use; failing that the first one not in
 * use; failing that, if ctx allows it, the first one in use. Never the
 * vablock being serviced, never one with nothing in state DEVICE. The victim
 * is the whole vablock. -ENOENT when there is none.
 */
int uvm_age2m_pick(const struct uvm_age2m *a, const struct uvm_evict_ctx *ctx, bool newest_first,
		   struct uvm_victim *out);
/*
 * The same walk with a key per vablock (lfu2m): within each kind (full and
 * not in use, not in use, in use) the smallest key wins, the first in walk
 * order on a tie; uvm_age2m_pick is every key equal.
 */
typedef uint64_t (*uvm_age2m_key)(const struct uvm_evict_ctx *ctx, uint32_t v);
int uvm_age2m_pick_by(const struct uvm_age2m *a, const struct uvm_evict_ctx *ctx, bool newest_first,
		      uvm_age2m_key key, struct uvm_victim *out);

#endif
