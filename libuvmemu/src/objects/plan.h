/* SPDX-License-Identifier: MIT */
/*
 * plan.h - the object planner: before each kernel launch, where each object
 * (allocation) the launch uses should be, by the SC'19 paper's schemes
 * (Li and Chapman, "Compiler Assisted Hybrid Implicit and Explicit GPU
 * Memory Management under Unified Address Space"; docs/policies.md).
 *
 * Pure: it reads an object profile, the device capacity and its own books of
 * what it has placed on the device so far, and writes a plan; nothing here
 * touches memory or threads, so that a unit test can hold every scheme to
 * exact plans. The manager (manager.c) turns plans into cudaMemAdvise and
 * cudaMemPrefetchAsync calls.
 *
 * Sizes on the device are whole 64 KB blocks (the migration unit): an
 * object's footprint is its size rounded up to blocks; a partial mapping is
 * a whole number of blocks from the object's start.
 */
#ifndef UVM_OBJ_PLAN_H
#define UVM_OBJ_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "profile.h"

/*
 * --objects is enum uvm_objects_choice (uvmemu_options.def):
 *   UVM_OBJ_NONE  no manager: page-level demand paging
 *   UVM_OBJ_COPY  explicit copies: every object of the launch copied in
 *                 whole, every earlier one copied out first (Sec. 2.3 and
 *                 5.2, "Baseline": OpenMP map clauses)
 *   UVM_OBJ_PREFETCH  every object of the launch prefetched whole (Sec.
 *                 2.3, "UM_PF")
 *   UVM_OBJ_HOST  every object remote (Sec. 2.3, "Host")
 *   UVM_OBJ_LRU   object-level LRU, explicit transfers (Sec. 5.2, "LRU")
 *   UVM_OBJ_RLM   regional locality (Sec. 3.2)
 *   UVM_OBJ_GLM   global locality (Sec. 3.3)
 *   UVM_OBJ_RDM   target reuse distance, with partial mapping (Sec. 3.4)
 */
const char *uvm_objscheme_name(enum uvm_objects_choice s);

enum uvm_objplace {
	UVM_PLACE_DEVICE,  /* prefetched whole */
	UVM_PLACE_PARTIAL, /* its first dev_bytes prefetched, the rest remote */
	UVM_PLACE_DEMAND,  /* left to on-demand paging (density below the threshold) */
	UVM_PLACE_REMOTE,  /* preferred location host + accessed-by: zero-copy */
};
const char *uvm_objplace_name(enum uvm_objplace p);

/* One object of the launch. */
struct uvm_objplan_entry {
	uint32_t obj; /* index into the profile's objects */
	enum uvm_objplace place;
	uint64_t dev_bytes; /* planned on the device: the footprint, the mapped
			     * part, the demand-paged bytes reserved, or 0 */
};

struct uvm_objplan {
	uint64_t launch;
	struct uvm_objplan_entry *entry; /* the launch's objects, in priority order */
	size_t n;
	uint32_t *evicted; /* objects taken off the device for them, in that order */
	size_t nevicted;
};

/* The planner's books, per profile object. */
struct uvm_objbook {
	uint64_t dev_bytes; /* on the device as planned */
	uint64_t next_use;  /* RDM: predicted next reuse time (launch), NEVER */
	uint64_t last_use;  /* LRU: the last launch that used it */
	uint64_t rl;	    /* RLM: regional locality at its last use */
};

struct uvm_objplanner {
	const struct uvm_objprof *prof;
	enum uvm_objects_choice scheme;
	uint64_t capacity; /* bytes of device memory (UINT64_MAX: unlimited) */
	uint64_t used;	   /* sum of the books' dev_bytes */
	double threshold;  /* density below which an object is left to demand paging */
	struct uvm_objbook *book;
	/* scratch for one launch */
	bool *done;
	uint32_t *cand;
};

/* capacity 0 means unlimited. 0 or -ENOMEM. */
int uvm_objplanner_init(struct uvm_objplanner *pl, const struct uvm_objprof *prof,
			enum uvm_objects_choice scheme, uint64_t capacity, double threshold);
void uvm_objplanner_destroy(struct uvm_objplanner *pl);
/*
 * The plan for launch `launch` of the profile, given every launch before it
 * was planned in order (the books carry what they placed). A launch past the
 * profile's end gets an empty plan. 0 or -ENOMEM; free with
 * uvm_objplan_free.
 */
int uvm_objplanner_launch(struct uvm_objplanner *pl, uint64_t launch, struct uvm_objplan *out);
void uvm_objplan_free(struct uvm_objplan *plan);

/* An object's footprint on the device: its size in whole blocks of the
 * library built (64 KB, or 4 KB in libuvmemu_4k). */
uint64_t uvm_objplan_footprint(uint64_t bytes);

#endif
