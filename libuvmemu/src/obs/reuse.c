// SPDX-License-Identifier: MIT
/* reuse.c - the data reuse rate per kernel launch (see reuse.h). */
#include "reuse.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define REUSE_RESIDENT 0x1 /* resident since the launch began */
#define REUSE_TOUCHED  0x2 /* touched during the launch */

static void *reserve(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int uvm_reuse_init(struct uvm_reuse *u, const struct uvm_space *s, uint64_t seed, uint64_t budget)
{
	memset(u, 0, sizeof(*u));
	u->space = s;
	u->budget = budget;
	u->rng = seed * 0x9e3779b97f4a7c15ull + 1;
	u->flag = reserve(s->nblocks * sizeof(*u->flag));
	u->count0 = reserve(s->nblocks * sizeof(*u->count0));
	if (!u->flag || !u->count0) {
		uvm_reuse_destroy(u);
		return -ENOMEM;
	}
	return 0;
}

void uvm_reuse_destroy(struct uvm_reuse *u)
{
	if (u->flag)
		munmap(u->flag, u->space->nblocks * sizeof(*u->flag));
	if (u->count0)
		munmap(u->count0, u->space->nblocks * sizeof(*u->count0));
	u->flag = NULL;
	u->count0 = NULL;
}

/* A block the launch brought in (a fault's migration or a prefetch) is a
 * touched block that was not resident from before. */
static void on_resident(void *p, size_t b)
{
	struct uvm_reuse *u = p;

	if (!u->active || (u->flag[b] & REUSE_TOUCHED))
		return;
	u->flag[b] |= REUSE_TOUCHED;
	u->fresh++;
}

/* Evicted during the launch: a later touch is no reuse. */
static void on_released(void *p, size_t b)
{
	struct uvm_reuse *u = p;

	u->flag[b] &= (uint8_t)~REUSE_RESIDENT;
}

static void on_gpu_fault(void *p, size_t b, uint8_t before, bool probe_hit)
{
	uvm_reuse_fault(p, b, before, probe_hit);
}

static size_t on_probe(void *p, bool gmmu, bool can_probe, struct uvm_res_run *runs)
{
	return uvm_reuse_begin(p, gmmu, can_probe, runs);
}

struct uvm_res_observer uvm_reuse_observer(struct uvm_reuse *u)
{
	return (struct uvm_res_observer){.p = u,
					 .resident = on_resident,
					 .released = on_released,
					 .gpu_fault = on_gpu_fault,
					 .probe = on_probe};
}

static uint64_t next_rand(struct uvm_reuse *u)
{
	u->rng ^= u->rng << 13;
	u->rng ^= u->rng >> 7;
	u->rng ^= u->rng << 17;
	return u->rng;
}

#define EACH_BLOCK(s, b)                                                                           \
	for (size_t v_ = 0; v_ < (s)->used_vablocks; v_++)                                         \
		for (size_t b = uvm_vablock_first(v_);                                             \
		     b < uvm_vablock_first(v_) + (s)->vablock[v_].nvalid; b++)

/* The k-th block (from 0) that was resident when the launch began. */
static size_t kth_resident(const struct uvm_reuse *u, uint64_t k)
{
	EACH_BLOCK(u->space, b)
	if ((u->flag[b] & REUSE_RESIDENT) && k-- == 0)
		return b;
	return SIZE_MAX;
}

static bool probeable(const struct uvm_reuse *u, size_t b)
{
	return u->space->block[b].state == UVM_DEVICE &&
	       !(u->space->block[b].flags & UVM_BF_PROBED);
}

/* Runs of DEVICE blocks from random resident blocks, each within a vablock. */
static size_t choose_probes(struct uvm_reuse *u, struct uvm_res_run runs[])
{
	size_t nruns = 0;

	for (int tries = 0; tries < 4 * UVM_RES_PROBE_RUNS && nruns < UVM_RES_PROBE_RUNS &&
			    u->probes < u->budget;
	     tries++) {
		size_t b = kth_resident(u, next_rand(u) % u->resident0), n = 0;
		bool taken = false;

		for (size_t i = 0; i < nruns; i++)
			taken |= b >= runs[i].first && b < runs[i].first + runs[i].n;
		if (b == SIZE_MAX || taken)
			continue;
		while (n < UVM_RES_PROBE_LEN && u->probes + n < u->budget &&
		       uvm_vablock_of(b + n) == uvm_vablock_of(b) &&
		       b + n < uvm_vablock_first(uvm_vablock_of(b)) +
				   u->space->vablock[uvm_vablock_of(b)].nvalid &&
		       probeable(u, b + n)) {
			bool overlap = false;

			for (size_t i = 0; i < nruns; i++)
				overlap |=
				    b + n >= runs[i].first && b + n < runs[i].first + runs[i].n;
			if (overlap)
				break;
			n++;
		}
		if (n) {
			runs[nruns++] = (struct uvm_res_run){b, n};
			u->probes += n;
		}
	}
	return nruns;
}

size_t uvm_reuse_begin(struct uvm_reuse *u, bool gmmu, bool probe,
		       struct uvm_res_run runs[UVM_RES_PROBE_RUNS])
{
	const struct uvm_space *s = u->space;

	u->active = true;
	u->gmmu = gmmu;
	u->resident0 = u->fresh = u->probes = u->hits = 0;
	EACH_BLOCK(s, b)
	{
		bool on = uvm_state_on_device(s->block[b].state);

		u->flag[b] = on ? REUSE_RESIDENT : 0;
		u->resident0 += on;
		if (gmmu)
			u->count0[b] = uvm_counter_accesses(s, b);
	}
	if (!probe || gmmu || !u->resident0)
		return 0;
	return choose_probes(u, runs);
}

void uvm_reuse_fault(struct uvm_reuse *u, size_t b, uint8_t before, bool probe_hit)
{
	if (!u->active || (u->flag[b] & REUSE_TOUCHED))
		return;
	u->flag[b] |= REUSE_TOUCHED;
	if (probe_hit)
		u->hits++;
	/* A fault on a block resident from before (a stale one) is reuse: the
	 * probes estimate that part as a whole, so it is not counted here. */
	else if (!((u->flag[b] & REUSE_RESIDENT) && uvm_state_on_device(before)))
		u->fresh++;
}

void uvm_reuse_end(struct uvm_reuse *u, struct uvm_reuse_launch *out)
{
	const struct uvm_space *s = u->space;

	*out = (struct uvm_reuse_launch){.rate = -1, .probes = u->probes, .probe_hits = u->hits};
	if (!u->active)
		return;
	u->active = false;
	if (u->gmmu) {
		out->source = UVM_REUSE_GMMU;
		EACH_BLOCK(s, b)
		{
			uint32_t now = uvm_counter_accesses(s, b), was = u->count0[b];

			/* A halving in between makes the count itself the delta. */
			if ((now >= was ? now - was : now) == 0)
				continue;
			out->touched++;
			out->reused += (u->flag[b] & REUSE_RESIDENT) != 0;
		}
	} else if (u->probes) {
		out->source = UVM_REUSE_PROBES;
		out->reused = (u->hits * u->resident0 + u->probes / 2) / u->probes;
		out->touched = u->fresh + out->reused;
	} else if (!u->resident0) {
		out->source = UVM_REUSE_FAULTS;
		out->touched = u->fresh;
	} else {
		return;
	}
	if (out->touched)
		out->rate = (double)out->reused / (double)out->touched;
}

const char *uvm_reuse_source_name(enum uvm_reuse_source s)
{
	switch (s) {
	case UVM_REUSE_GMMU:
		return "gmmu";
	case UVM_REUSE_PROBES:
		return "probes";
	case UVM_REUSE_FAULTS:
		return "faults";
	default:
		return "none";
	}
}

void uvm_reuse_run_add(struct uvm_reuse_run *run, const struct uvm_reuse_launch *l)
{
	run->launches++;
	if (l->rate < 0)
		return;
	run->source = l->source;
	run->measured++;
	run->rate_sum += l->rate;
	run->touched += l->touched;
	run->reused += l->reused;
}
