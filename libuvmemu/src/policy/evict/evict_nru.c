// SPDX-License-Identifier: MIT
/*
 * evict_nru.c - Not Recently Used, per 64 KB block.
 *
 * Source: UVMMU (paper 003, Sec. V-C1, Fig. 5) compares its random victims
 * with "NRU (Not Recently Used) [21]", the textbook algorithm (its [21],
 * Kabir et al. 2013, surveys it; Tanenbaum, Modern Operating Systems,
 * defines it): each page has a referenced bit R, set when the page is
 * used, and a modified bit M, set when it is written; R is cleared
 * periodically, so that it means "used recently". The pages fall into four
 * classes, 0 (not referenced, not modified), 1 (not referenced, modified),
 * 2 (referenced, not modified) and 3 (referenced, modified), and the victim
 * is a page chosen at random from the lowest class that has one. Cheap in
 * hardware: two bits a page and no order to keep, which is why UVMMU
 * weighs it.
 *
 * Here, per 64 KB block (the migration unit):
 *   R  set when the block becomes device-resident (a fault brought it) and
 *      when it is touched (a GPU fault on it while resident, or an access
 *      the driver reports); a block brought by the prefetcher and not
 *      accessed since (UVM_BF_PREFETCHED) counts as not referenced, as its
 *      page-table access bit would be clear.
 *   M  the block was written since it became resident: a write fault or,
 *      with GMMU accessors, a counted store (as lfu reads it), read at pick
 *      time.
 *   the period  R bits clear at every kernel launch (the GPU's natural
 *      epoch: what the last kernel used is not "recent" for the next), and
 *      also when a pick finds no resident block unreferenced: the classes
 *      then say nothing the M bit does not, and clearing lets the blocks
 *      used after the clear be told from the rest (a clock tick, placed
 *      where the information has run out).
 * The victim is uniform among the blocks of the lowest class that may be
 * evicted under the context (one pass, reservoir sampling per class),
 * seeded by --seed so that runs repeat. A pick costs one pass over the
 * resident blocks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evict_util.h"
#include "uvmemu_gmmu.h"

#define NOWHERE UINT32_MAX

struct evict_nru {
	const struct uvm_space *space;
	uint32_t *slot_of; /* block -> index in resident[], NOWHERE if absent */
	uint32_t *resident;
	uint8_t *referenced; /* R, per slot of resident[] */
	size_t n;
	uint64_t rng;
};

/* splitmix64, as random's: reproducible from --seed. */
static uint64_t next(struct evict_nru *r)
{
	uint64_t z = (r->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void *nru_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			size_t errlen)
{
	struct evict_nru *r = calloc(1, sizeof(*r));

	if (!r)
		return uvm_policy_nomem(err, errlen);
	r->space = space;
	r->rng = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_seed);
	r->slot_of = calloc(space->nblocks, sizeof(*r->slot_of));
	r->resident = calloc(space->nblocks, sizeof(*r->resident));
	r->referenced = calloc(space->nblocks, sizeof(*r->referenced));
	if (!r->slot_of || !r->resident || !r->referenced) {
		free(r->slot_of);
		free(r->resident);
		free(r->referenced);
		free(r);
		return uvm_policy_nomem(err, errlen);
	}
	return r;
}

static void nru_destroy(void *p)
{
	struct evict_nru *r = p;

	free(r->slot_of);
	free(r->resident);
	free(r->referenced);
	free(r);
}

static bool tracked(const struct evict_nru *r, size_t b)
{
	uint32_t i = r->slot_of[b];

	return i < r->n && r->resident[i] == b;
}

static void nru_resident(void *p, size_t b)
{
	struct evict_nru *r = p;

	if (!tracked(r, b)) {
		r->slot_of[b] = (uint32_t)r->n;
		r->resident[r->n++] = (uint32_t)b;
	}
	r->referenced[r->slot_of[b]] = 1;
}

static void nru_released(void *p, size_t b)
{
	struct evict_nru *r = p;
	uint32_t i, last;

	if (!tracked(r, b))
		return;
	i = r->slot_of[b];
	last = r->resident[--r->n];
	r->resident[i] = last;
	r->referenced[i] = r->referenced[r->n];
	r->slot_of[last] = i;
	r->slot_of[b] = NOWHERE;
}

static void nru_touched(void *p, size_t b, bool write)
{
	struct evict_nru *r = p;

	(void)write; /* the driver sets the block's written flag: M is read at pick */
	if (tracked(r, b))
		r->referenced[r->slot_of[b]] = 1;
}

static void clear_referenced(struct evict_nru *r)
{
	memset(r->referenced, 0, r->n);
}

static void nru_launch(void *p, uint64_t index)
{
	(void)index;
	clear_referenced(p);
}

static bool modified(const struct uvm_space *s, size_t b)
{
	return (s->block[b].flags & UVM_BF_WRITTEN) ||
	       (atomic_load_explicit(&s->gmmu_state[b], memory_order_relaxed) &
		UVMEMU_GMMU_WRITTEN);
}

/* Block in slot i's class: 2 R + M, R clear for a prefetched block not used since. */
static unsigned nru_class(const struct evict_nru *r, size_t i)
{
	size_t b = r->resident[i];
	bool ref = r->referenced[i] && !(r->space->block[b].flags & UVM_BF_PREFETCHED);

	return (ref ? 2u : 0u) + (modified(r->space, b) ? 1u : 0u);
}

static int nru_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	struct evict_nru *r = p;
	uint64_t count[4] = {0};
	uint32_t chosen[4] = {0};
	bool unreferenced = false;

	for (size_t i = 0; i < r->n; i++) {
		uint32_t b = r->resident[i];
		unsigned c = nru_class(r, i);

		unreferenced |= c < 2;
		if (!uvm_evict_block_ok(ctx, b))
			continue;
		/* Reservoir sampling: uniform over the class's candidates. */
		if (next(r) % ++count[c] == 0)
			chosen[c] = b;
	}
	if (!unreferenced)
		clear_referenced(r);
	for (unsigned c = 0; c < 4; c++) {
		if (count[c]) {
			*v = (struct uvm_victim){chosen[c], 1};
			return 0;
		}
	}
	return -ENOENT;
}

const struct uvm_evict_ops uvm_evict_nru = {
    .name = "nru",
    .help = "Not Recently Used: a random 64 KB block of the lowest class by referenced and "
	    "modified bits, referenced bits cleared at each launch (UVMMU's comparison)",
    .create = nru_create,
    .destroy = nru_destroy,
    .resident = nru_resident,
    .released = nru_released,
    .touched = nru_touched,
    .launch = nru_launch,
    .pick = nru_pick,
};
