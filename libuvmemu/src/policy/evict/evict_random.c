// SPDX-License-Identifier: MIT
/*
 * evict_random.c - a uniformly random device-resident 64 KB block.
 *
 * UVMMU's choice once migration is cheap: no ordering to maintain, only the
 * set of resident blocks (an array with swap-removal, so a pick is O(1)).
 * Blocks of vablocks in use by the batch are skipped; a pick tries a few
 * random slots, then scans linearly from a random start, so it always finds
 * a victim when one exists. Seeded by --seed, so runs repeat.
 */
#include <errno.h>
#include <stdlib.h>

#include "evict_util.h"

#define NOWHERE UINT32_MAX

struct evict_random {
	const struct uvm_space *space;
	uint32_t *slot_of; /* block -> index in resident[], NOWHERE if absent */
	uint32_t *resident;
	size_t n;
	uint64_t rng;
};

/* splitmix64: small, good enough to spread victims, reproducible. */
static uint64_t next(struct evict_random *r)
{
	uint64_t z = (r->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void *random_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			   size_t errlen)
{
	struct evict_random *r = calloc(1, sizeof(*r));

	if (!r)
		return uvm_policy_nomem(err, errlen);
	r->space = space;
	r->rng = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_seed);
	r->slot_of = malloc(space->nblocks * sizeof(*r->slot_of));
	r->resident = malloc(space->nblocks * sizeof(*r->resident));
	if (!r->slot_of || !r->resident) {
		free(r->slot_of);
		free(r->resident);
		free(r);
		return uvm_policy_nomem(err, errlen);
	}
	return r;
}

static void random_destroy(void *p)
{
	struct evict_random *r = p;

	free(r->slot_of);
	free(r->resident);
	free(r);
}

static void random_resident(void *p, size_t b)
{
	struct evict_random *r = p;

	r->slot_of[b] = (uint32_t)r->n;
	r->resident[r->n++] = (uint32_t)b;
}

static void random_released(void *p, size_t b)
{
	struct evict_random *r = p;
	uint32_t i = r->slot_of[b], last = r->resident[--r->n];

	r->resident[i] = last;
	r->slot_of[last] = i;
	r->slot_of[b] = NOWHERE;
}

static bool allowed(const struct evict_random *r, const struct uvm_evict_ctx *ctx, uint32_t b)
{
	size_t v = uvm_vablock_of(b);

	if (v == ctx->keep_vablock || !uvm_evict_has_copy(ctx, b))
		return false;
	return ctx->allow_in_use || r->space->vablock[v].in_batch < ctx->batch;
}

static int random_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	struct evict_random *r = p;
	size_t start;

	if (r->n == 0)
		return -ENOENT;
	for (int tries = 0; tries < 8; tries++) {
		uint32_t b = r->resident[next(r) % r->n];

		if (allowed(r, ctx, b)) {
			*v = uvm_evict_basic(r->space, b);
			return 0;
		}
	}
	start = next(r) % r->n;
	for (size_t k = 0; k < r->n; k++) {
		uint32_t b = r->resident[(start + k) % r->n];

		if (allowed(r, ctx, b)) {
			*v = uvm_evict_basic(r->space, b);
			return 0;
		}
	}
	return -ENOENT;
}

const struct uvm_evict_ops uvm_evict_random = {
    .name = "random",
    .help = "a uniformly random resident 64 KB block (UVMMU)",
    .create = random_create,
    .destroy = random_destroy,
    .resident = random_resident,
    .released = random_released,
    .pick = random_pick,
};
