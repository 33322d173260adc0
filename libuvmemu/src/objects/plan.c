// SPDX-License-Identifier: MIT
/*
 * plan.c - the object planner (plan.h): the SC'19 paper's mapping algorithm,
 * one priority per scheme.
 *
 * At a launch every object it uses is taken in priority order (Sec. 3.2's
 * steps 1-4, which GLM and RDM share). An object already on the device as
 * far as it needs stays. One that fits in the free capacity is placed.
 * Otherwise the objects on the device that the scheme lets it replace are
 * taken, least valuable first, until enough is free: if enough can be freed
 * they are evicted and the object is placed; if not, nothing is evicted and
 * the object stays in host memory, accessed remotely (Data Mapping
 * Enforcement, Sec. 3.2). RDM instead maps the first object that does not
 * fit partially (Sec. 3.4, "Partial Mapping"): the replaceable objects go and
 * the object's first blocks fill what is free. An object already placed for
 * this launch is never replaced by a later, lower-priority one of the same
 * launch.
 *
 * Priorities: RLM, the object's regional locality RL (its accesses in this
 * launch); GLM, its global locality GL = sum over launches of RL (Eq. 1: the
 * sum over target regions of invocation frequency x RL is the sum over
 * launches); RDM, its next reuse time (this launch + the reuse distance),
 * sooner first, GL breaking ties (Sec. 3.4, step 3); LRU (Sec. 5.2), none
 * within a launch, and the objects not used for the longest make room.
 * Replaceable: RLM, any object not already placed for this launch (it knows
 * nothing across kernels, which is its weakness); GLM, an object of lower GL;
 * RDM, an object reused later, or as soon with lower GL; LRU, an object this
 * launch does not use.
 *
 * The paper's two baselines plan without the capacity (Sec. 2.3, Fig. 1-2;
 * Sec. 5.2): under PREFETCH ("UM_PF") every object of the launch goes to
 * the device whole and the driver's eviction makes room as it would for
 * any prefetch; under COPY ("Baseline", explicit copies as OpenMP map
 * clauses make them) every object an earlier launch copied in is copied
 * out first (the map's "from" at the end of its region), this launch's
 * included, and then this launch's objects are copied in whole, whether or
 * not the device held them: an explicit copy does not know.
 *
 * Access density (Sec. 3.1): under RLM, GLM and RDM, an object the launch
 * touches less densely than the threshold is left to on-demand paging; the
 * paper does nothing more for it, but its touched bytes will land on the
 * device, so here they are what it takes from the capacity (a whole object
 * already there keeps its place). Host and LRU transfer explicitly and ignore
 * density.
 */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NEVER UVM_OBJPROF_NEVER
/* The running library's migration unit: what a touched byte costs the
 * device is at least the unit it lands in (64 KB, or 4 KB for --page-size 4k). */
#define BLOCK ((uint64_t)UVMEMU_BLOCK_SIZE)

const char *uvm_objscheme_name(enum uvm_objects_choice s)
{
	return uvm_choice_name(UVM_OPT_objects, s);
}

const char *uvm_objplace_name(enum uvm_objplace p)
{
	static const char *const names[] = {"device", "partial", "demand", "remote"};

	return (unsigned)p < sizeof(names) / sizeof(names[0]) ? names[p] : "?";
}

uint64_t uvm_objplan_footprint(uint64_t bytes)
{
	return (bytes + BLOCK - 1) / BLOCK * BLOCK;
}

int uvm_objplanner_init(struct uvm_objplanner *pl, const struct uvm_objprof *prof,
			enum uvm_objects_choice scheme, uint64_t capacity, double threshold)
{
	size_t n = prof->nobj ? prof->nobj : 1;

	memset(pl, 0, sizeof(*pl));
	pl->prof = prof;
	pl->scheme = scheme;
	pl->capacity = capacity ? capacity : UINT64_MAX;
	pl->threshold = threshold;
	pl->book = calloc(n, sizeof(*pl->book));
	pl->done = calloc(n, sizeof(*pl->done));
	pl->cand = calloc(n, sizeof(*pl->cand));
	if (!pl->book || !pl->done || !pl->cand) {
		uvm_objplanner_destroy(pl);
		return -ENOMEM;
	}
	for (size_t o = 0; o < prof->nobj; o++)
		pl->book[o].next_use = NEVER;
	return 0;
}

void uvm_objplanner_destroy(struct uvm_objplanner *pl)
{
	free(pl->book);
	free(pl->done);
	free(pl->cand);
	pl->book = NULL;
	pl->done = NULL;
	pl->cand = NULL;
}

void uvm_objplan_free(struct uvm_objplan *plan)
{
	free(plan->entry);
	free(plan->evicted);
	memset(plan, 0, sizeof(*plan));
}

/* ------------------------------------------------------------- orders */

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static uint64_t gl(const struct uvm_objplanner *pl, uint32_t o)
{
	return pl->prof->obj[o].accesses;
}

/* Negative when entry a goes before entry b in the launch's processing order. */
static int cmp_priority(const struct uvm_objplanner *pl, const struct uvm_objplan_entry *a,
			const struct uvm_objplan_entry *b)
{
	int c = 0;

	switch (pl->scheme) {
	case UVM_OBJ_RLM:
		c = -cmp_u64(pl->book[a->obj].rl, pl->book[b->obj].rl);
		break;
	case UVM_OBJ_GLM:
		c = -cmp_u64(gl(pl, a->obj), gl(pl, b->obj));
		break;
	case UVM_OBJ_RDM:
		c = cmp_u64(pl->book[a->obj].next_use, pl->book[b->obj].next_use);
		if (!c)
			c = -cmp_u64(gl(pl, a->obj), gl(pl, b->obj));
		break;
	default:
		break;
	}
	return c ? c : cmp_u64(a->obj, b->obj);
}

/* Negative when candidate a is evicted before candidate b. */
static int cmp_victim(const struct uvm_objplanner *pl, uint32_t a, uint32_t b)
{
	int c = 0;

	switch (pl->scheme) {
	case UVM_OBJ_RLM:
		c = cmp_u64(pl->book[a].rl, pl->book[b].rl);
		if (!c)
			c = cmp_u64(pl->book[a].last_use, pl->book[b].last_use);
		break;
	case UVM_OBJ_GLM:
		c = cmp_u64(gl(pl, a), gl(pl, b));
		break;
	case UVM_OBJ_RDM:
		c = -cmp_u64(pl->book[a].next_use, pl->book[b].next_use);
		if (!c)
			c = cmp_u64(gl(pl, a), gl(pl, b));
		break;
	case UVM_OBJ_LRU:
		c = cmp_u64(pl->book[a].last_use, pl->book[b].last_use);
		break;
	default:
		break;
	}
	return c ? c : cmp_u64(a, b);
}

/* Whether the scheme lets object x (being placed at launch L) replace c. */
static bool replaceable(const struct uvm_objplanner *pl, uint32_t c, uint32_t x, uint64_t launch)
{
	const struct uvm_objbook *bc = &pl->book[c], *bx = &pl->book[x];

	if (pl->done[c] || !bc->dev_bytes)
		return false;
	switch (pl->scheme) {
	case UVM_OBJ_RLM:
		return true;
	case UVM_OBJ_GLM:
		return gl(pl, c) < gl(pl, x);
	case UVM_OBJ_RDM:
		return bc->next_use > bx->next_use ||
		       (bc->next_use == bx->next_use && gl(pl, c) < gl(pl, x));
	case UVM_OBJ_LRU:
		return bc->last_use < launch;
	default:
		return false;
	}
}

/* Insertion sorts: a launch has a handful of objects, and the orders need
 * the planner's books, which qsort could only reach through a global. */
static void sort_entries(const struct uvm_objplanner *pl, struct uvm_objplan_entry *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct uvm_objplan_entry x = v[i];
		size_t j = i;

		for (; j > 0 && cmp_priority(pl, &x, &v[j - 1]) < 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void sort_victims(const struct uvm_objplanner *pl, uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;

		for (; j > 0 && cmp_victim(pl, x, v[j - 1]) < 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Whether the scheme leaves sparsely touched objects to demand paging. */
static bool by_density(enum uvm_objects_choice s)
{
	return s == UVM_OBJ_RLM || s == UVM_OBJ_GLM || s == UVM_OBJ_RDM;
}

/* Whether the scheme places the launch's objects whole, without planning
 * room: the baselines. */
static bool whole(enum uvm_objects_choice s)
{
	return s == UVM_OBJ_COPY || s == UVM_OBJ_PREFETCH;
}

/* ----------------------------------------------------------- placing */

static uint64_t free_bytes(const struct uvm_objplanner *pl)
{
	return pl->capacity - pl->used;
}

static void set_dev(struct uvm_objplanner *pl, uint32_t o, uint64_t bytes)
{
	pl->used = pl->used - pl->book[o].dev_bytes + bytes;
	pl->book[o].dev_bytes = bytes;
}

/* The replaceable objects in eviction order; returns how many. */
static size_t candidates(struct uvm_objplanner *pl, uint32_t x, uint64_t launch)
{
	size_t n = 0;

	for (uint32_t c = 0; c < pl->prof->nobj; c++)
		if (c != x && replaceable(pl, c, x, launch))
			pl->cand[n++] = c;
	sort_victims(pl, pl->cand, n);
	return n;
}

static void evict(struct uvm_objplanner *pl, struct uvm_objplan *plan, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		set_dev(pl, pl->cand[i], 0);
		plan->evicted[plan->nevicted++] = pl->cand[i];
	}
}

/*
 * Places object e->obj wanting `want` bytes on the device (it has
 * book.dev_bytes < want there now); sets e->place and e->dev_bytes.
 * *partial_left says whether RDM may still map an object partially.
 */
static void place(struct uvm_objplanner *pl, struct uvm_objplan *plan, struct uvm_objplan_entry *e,
		  uint64_t want, bool demand, bool *partial_left)
{
	uint64_t have = pl->book[e->obj].dev_bytes, need = want - have, freed = 0;
	size_t n = candidates(pl, e->obj, plan->launch), k = 0;

	while (free_bytes(pl) + freed < need && k < n)
		freed += pl->book[pl->cand[k++]].dev_bytes;
	if (free_bytes(pl) + freed >= need) {
		evict(pl, plan, k);
		set_dev(pl, e->obj, want);
		e->place = demand ? UVM_PLACE_DEMAND : UVM_PLACE_DEVICE;
		e->dev_bytes = want;
		return;
	}
	if (pl->scheme == UVM_OBJ_RDM && !demand && *partial_left) {
		uint64_t more;

		evict(pl, plan, n);
		more = free_bytes(pl) / BLOCK * BLOCK;
		*partial_left = false;
		if (have + more > 0) {
			set_dev(pl, e->obj, have + more);
			e->place = UVM_PLACE_PARTIAL;
			e->dev_bytes = have + more;
			return;
		}
	}
	/* RDM keeps the part of a partially mapped object it has already. */
	if (pl->scheme == UVM_OBJ_RDM && !demand && have > 0) {
		e->place = UVM_PLACE_PARTIAL;
		e->dev_bytes = have;
		return;
	}
	/* Host memory, accessed remotely: what it had on the device goes. */
	set_dev(pl, e->obj, 0);
	e->place = UVM_PLACE_REMOTE;
	e->dev_bytes = 0;
}

int uvm_objplanner_launch(struct uvm_objplanner *pl, uint64_t launch, struct uvm_objplan *out)
{
	const struct uvm_objprof *p = pl->prof;
	const struct uvm_objprof_launch *la;
	bool partial_left = true;

	memset(out, 0, sizeof(*out));
	out->launch = launch;
	if (launch >= p->nlaunch)
		return 0;
	la = &p->launch[launch];
	out->entry = calloc(la->n ? la->n : 1, sizeof(*out->entry));
	out->evicted = calloc(p->nobj ? p->nobj : 1, sizeof(*out->evicted));
	if (!out->entry || !out->evicted) {
		uvm_objplan_free(out);
		return -ENOMEM;
	}
	memset(pl->done, 0, p->nobj * sizeof(*pl->done));
	/* What the launch tells about its objects, before they are ordered. */
	for (size_t i = 0; i < la->n; i++) {
		const struct uvm_objprof_use *u = &p->use[la->first + i];
		struct uvm_objbook *b = &pl->book[u->obj];

		b->last_use = launch;
		b->rl = u->accesses;
		b->next_use = u->reuse == NEVER ? NEVER : launch + u->reuse;
		out->entry[i].obj = u->obj;
	}
	out->n = la->n;
	sort_entries(pl, out->entry, out->n);
	/* Explicit copies: what earlier launches copied in goes back first. */
	if (pl->scheme == UVM_OBJ_COPY)
		for (uint32_t o = 0; o < p->nobj; o++)
			if (pl->book[o].dev_bytes) {
				set_dev(pl, o, 0);
				out->evicted[out->nevicted++] = o;
			}
	for (size_t i = 0; i < out->n; i++) {
		struct uvm_objplan_entry *e = &out->entry[i];
		const struct uvm_objprof_use *u = NULL;
		uint64_t footprint = uvm_objplan_footprint(p->obj[e->obj].bytes), want;
		bool demand;

		for (size_t j = la->first; j < la->first + la->n && !u; j++)
			if (p->use[j].obj == e->obj)
				u = &p->use[j];
		demand = by_density(pl->scheme) && u->density < pl->threshold;
		want = demand ? uvm_objplan_footprint(u->touched) : footprint;
		if (whole(pl->scheme)) {
			set_dev(pl, e->obj, footprint);
			e->place = UVM_PLACE_DEVICE;
			e->dev_bytes = footprint;
		} else if (pl->scheme == UVM_OBJ_HOST) {
			e->place = UVM_PLACE_REMOTE;
		} else if (pl->book[e->obj].dev_bytes >= want) {
			e->dev_bytes = pl->book[e->obj].dev_bytes;
			e->place = demand ? UVM_PLACE_DEMAND : UVM_PLACE_DEVICE;
		} else {
			place(pl, out, e, want, demand, &partial_left);
		}
		pl->done[e->obj] = true;
	}
	return 0;
}
