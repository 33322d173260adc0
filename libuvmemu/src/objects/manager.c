// SPDX-License-Identifier: MIT
/* manager.c - the object manager: plans applied through advice and prefetches (manager.h). */
#include "manager.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "profile.h"

#define GPU 0 /* the one device */

struct uvm_objmgr {
	struct uvm_objmgr_env env;
	enum uvm_objects_choice scheme;
	char path[256];
	double threshold;
	struct uvm_objprof prof;
	struct uvm_objplanner pl;
	bool planning;	    /* the planner exists: capacity is known at the first launch */
	uint64_t capacity;  /* what it planned with, bytes (0: unlimited) */
	uint64_t *boundary; /* per object: [0, b) has no advice, [b, size) is remote */
	struct {
		uint64_t launches, beyond, evicted, prefetch_bytes, over_capacity;
		uint64_t place[UVM_PLACE_REMOTE + 1];
	} n;
};

int uvm_objmgr_create(struct uvm_objmgr **out, const struct uvm_config *cfg,
		      const struct uvm_objmgr_env *env, char *err, size_t errlen)
{
	struct uvm_objmgr *m;
	char why[UVM_ERRLEN];
	int rc;

	*out = NULL;
	if (uvm_cfg_i(cfg, UVM_OPT_objects) == UVM_OBJ_NONE)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	m->env = *env;
	m->scheme = (enum uvm_objects_choice)uvm_cfg_i(cfg, UVM_OPT_objects);
	m->threshold = uvm_cfg_d(cfg, UVM_OPT_density_threshold);
	snprintf(m->path, sizeof(m->path), "%s", uvm_cfg_s(cfg, UVM_OPT_objects_profile));
	rc = uvm_objprof_read(&m->prof, m->path, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "--objects-profile %s", why);
		free(m);
		return rc;
	}
	m->boundary = calloc(m->prof.nobj ? m->prof.nobj : 1, sizeof(*m->boundary));
	if (!m->boundary) {
		uvm_objmgr_destroy(m);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* No advice anywhere to begin with. */
	for (size_t o = 0; o < m->prof.nobj; o++)
		m->boundary[o] = m->prof.obj[o].bytes;
	*out = m;
	return 0;
}

void uvm_objmgr_destroy(struct uvm_objmgr *m)
{
	if (!m)
		return;
	if (m->planning)
		uvm_objplanner_destroy(&m->pl);
	uvm_objprof_free(&m->prof);
	free(m->boundary);
	free(m);
}

/* ------------------------------------------------------------ applying */

/* Where profile object o lives in this run: its host-view address, if the
 * run has made the same allocation (same id, same size) and not freed it. */
static int locate(const struct uvm_objmgr *m, const struct uvm_objprof_object *o, uintptr_t *base,
		  char *err, size_t errlen)
{
	uint64_t bytes;
	int rc = m->env.locate(m->env.ctx, o->id, &bytes, base);

	if (rc) {
		snprintf(err, errlen, "allocation %u is not live in this run", o->id);
		return -EINVAL;
	}
	if (bytes != o->bytes) {
		snprintf(err, errlen, "allocation %u has %llu bytes in this run, %llu in the profile",
			 o->id, (unsigned long long)bytes, (unsigned long long)o->bytes);
		return -EINVAL;
	}
	return 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static void advise(const struct uvm_objmgr *m, uintptr_t base, uint64_t from, uint64_t to,
		   bool remote)
{
	const void *p = (const void *)(base + from);

	if (from >= to)
		return;
	m->env.advise(m->env.ctx, p, to - from,
		      remote ? cudaMemAdviseSetPreferredLocation
			     : cudaMemAdviseUnsetPreferredLocation,
		      remote ? cudaCpuDeviceId : GPU);
	m->env.advise(m->env.ctx, p, to - from,
		      remote ? cudaMemAdviseSetAccessedBy : cudaMemAdviseUnsetAccessedBy, GPU);
}

static void prefetch(const struct uvm_objmgr *m, uintptr_t base, uint64_t from, uint64_t to,
		     bool device)
{
	if (from < to)
		m->env.prefetch(m->env.ctx, (const void *)(base + from), to - from,
				device ? GPU : cudaCpuDeviceId);
}

/*
 * [0, b) without advice, [b, size) remote: changes only what differs. A
 * range that becomes remote also goes back to the host, so that the device
 * holds what the plan says; a range already remote is left alone (its GPU
 * mapping persists across launches; what GPU stores migrated of it under
 * the copy backend, whose remote copies are read-only, stays until evicted).
 */
static void set_boundary(struct uvm_objmgr *m, uint32_t o, uintptr_t base, uint64_t b)
{
	uint64_t was = m->boundary[o];

	if (b < was) {
		advise(m, base, b, was, true);
		prefetch(m, base, b, was, false);
	} else if (b > was) {
		advise(m, base, was, b, false);
	}
	m->boundary[o] = b;
}

static int apply(struct uvm_objmgr *m, const struct uvm_objplan *plan, char *err, size_t errlen)
{
	uintptr_t *base = calloc(plan->n ? plan->n : 1, sizeof(*base));
	uint64_t wanted = 0; /* bytes the plan prefetches to the device */
	int rc = 0;

	if (!base)
		return -ENOMEM;
	/* Room first: what the plan took off the device goes back to the host
	 * (an object the program has freed since is gone already). */
	for (size_t i = 0; i < plan->nevicted; i++) {
		const struct uvm_objprof_object *o = &m->prof.obj[plan->evicted[i]];
		char ignored[UVM_ERRLEN];
		uintptr_t b;

		if (locate(m, o, &b, ignored, sizeof(ignored)) == 0)
			prefetch(m, b, 0, o->bytes, false);
	}
	for (size_t i = 0; i < plan->n && !rc; i++) {
		const struct uvm_objplan_entry *en = &plan->entry[i];
		const struct uvm_objprof_object *o = &m->prof.obj[en->obj];
		uint64_t dev = min_u64(en->dev_bytes, o->bytes);

		rc = locate(m, o, &base[i], err, errlen);
		if (rc)
			break;
		m->n.place[en->place]++;
		switch (en->place) {
		case UVM_PLACE_DEVICE:
		case UVM_PLACE_DEMAND:
			set_boundary(m, en->obj, base[i], o->bytes);
			break;
		case UVM_PLACE_PARTIAL:
		case UVM_PLACE_REMOTE:
			set_boundary(m, en->obj, base[i], dev);
			break;
		}
	}
	/* Then the prefetches, in priority order. */
	for (size_t i = 0; i < plan->n && !rc; i++) {
		const struct uvm_objplan_entry *en = &plan->entry[i];
		uint64_t dev = min_u64(en->dev_bytes, m->prof.obj[en->obj].bytes);

		if (en->place != UVM_PLACE_DEVICE && en->place != UVM_PLACE_PARTIAL)
			continue;
		prefetch(m, base[i], 0, dev, true);
		m->n.prefetch_bytes += dev;
		wanted += en->dev_bytes;
	}
	/* copy and prefetch place without the capacity: the driver evicts,
	 * from this launch's own objects too when they do not fit. */
	if (m->capacity && wanted > m->capacity)
		m->n.over_capacity++;
	free(base);
	if (!rc)
		m->env.synchronize(m->env.ctx);
	m->n.evicted += plan->nevicted;
	return rc;
}

/* The planner starts at the first launch, when --oversub's capacity is known. */
static int start_planning(struct uvm_objmgr *m)
{
	uint64_t cap = m->env.capacity(m->env.ctx);
	int rc;

	rc = uvm_objplanner_init(&m->pl, &m->prof, m->scheme, cap, m->threshold);
	if (rc)
		return rc;
	m->capacity = cap;
	m->planning = true;
	return 0;
}

int uvm_objmgr_launch(struct uvm_objmgr *m, uint64_t index, const char *kernel, char *err,
		      size_t errlen)
{
	struct uvm_objplan plan;
	char name[UVM_OBJPROF_NAMELEN], why[UVM_ERRLEN];
	int rc;

	if (!m->planning && (rc = start_planning(m)))
		return rc;
	if (index >= m->prof.nlaunch) {
		m->n.beyond++;
		return 0;
	}
	uvm_objprof_name(name, kernel);
	if (strcmp(name, m->prof.launch[index].kernel) != 0) {
		snprintf(err, errlen,
			 "--objects-profile %s: launch %llu is kernel '%s' in this run but '%s' in "
			 "the profile: profile the same program with the same input",
			 m->path, (unsigned long long)index, *name ? name : "-",
			 *m->prof.launch[index].kernel ? m->prof.launch[index].kernel : "-");
		return -EINVAL;
	}
	rc = uvm_objplanner_launch(&m->pl, index, &plan);
	if (rc)
		return rc;
	rc = apply(m, &plan, why, sizeof(why));
	if (rc == -EINVAL)
		snprintf(err, errlen,
			 "--objects-profile %s: at launch %llu, %s: profile the same program with "
			 "the same input",
			 m->path, (unsigned long long)index, why);
	m->n.launches++;
	uvm_objplan_free(&plan);
	return rc;
}

/* ------------------------------------------------------------- reports */

void uvm_objmgr_report_json(const struct uvm_objmgr *m, struct uvm_json *j)
{
	uvm_json_str(j, "objects", m ? uvm_objscheme_name(m->scheme) : "none");
	if (!m)
		return;
	uvm_json_object(j, "objects_plan");
	uvm_json_str(j, "profile", m->path);
	uvm_json_num(j, "density_threshold", m->threshold);
	uvm_json_u64(j, "capacity_bytes", m->capacity);
	uvm_json_u64(j, "launches_planned", m->n.launches);
	uvm_json_u64(j, "launches_beyond_profile", m->n.beyond);
	uvm_json_u64(j, "device", m->n.place[UVM_PLACE_DEVICE]);
	uvm_json_u64(j, "partial", m->n.place[UVM_PLACE_PARTIAL]);
	uvm_json_u64(j, "demand", m->n.place[UVM_PLACE_DEMAND]);
	uvm_json_u64(j, "remote", m->n.place[UVM_PLACE_REMOTE]);
	uvm_json_u64(j, "evicted", m->n.evicted);
	uvm_json_u64(j, "prefetch_bytes", m->n.prefetch_bytes);
	uvm_json_u64(j, "launches_over_capacity", m->n.over_capacity);
	uvm_json_close(j, '}');
}

void uvm_objmgr_report_text(const struct uvm_objmgr *m, FILE *f)
{
	if (!m)
		return;
	fprintf(f,
		"  objects %s (%s): %llu launches planned; objects placed: %llu device, %llu "
		"partial, %llu demand, %llu remote; %llu evicted\n",
		uvm_objscheme_name(m->scheme), m->path, (unsigned long long)m->n.launches,
		(unsigned long long)m->n.place[UVM_PLACE_DEVICE],
		(unsigned long long)m->n.place[UVM_PLACE_PARTIAL],
		(unsigned long long)m->n.place[UVM_PLACE_DEMAND],
		(unsigned long long)m->n.place[UVM_PLACE_REMOTE], (unsigned long long)m->n.evicted);
	if (m->n.over_capacity)
		fprintf(f,
			"  note    %llu launches placed more than device memory holds (--objects "
			"%s plans without it): the driver evicted to make room\n",
			(unsigned long long)m->n.over_capacity, uvm_objscheme_name(m->scheme));
	if (m->n.beyond)
		fprintf(f,
			"  note    %llu launches ran past the object profile's end: not planned\n",
			(unsigned long long)m->n.beyond);
}
