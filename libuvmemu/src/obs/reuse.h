/* SPDX-License-Identifier: MIT */
/*
 * reuse.h - the data reuse rate per kernel launch (the CPC paper's metric):
 * of the blocks a launch touched, the fraction that were already resident
 * from the previous launch (resident when it began, and still when touched).
 *
 * A touch of a block that is not resident faults, so the new part is exact
 * from faults (and from the residency events of blocks a prefetch brought
 * in). A touch of a resident block does not fault; how it is seen depends on
 * the build and backend, and the result says which source it came from:
 *
 *   gmmu    with GMMU accessors every access counts: touched blocks are those
 *           whose access counter grew during the launch. Exact.
 *   probes  remap backend without accessors, with --reuse-probes SIZE (off
 *           by default: a probed block faults when touched, real time the
 *           run pays and a GPU would not): at launch begin a few runs of
 *           resident blocks are unmapped from the device view (nothing moves;
 *           they stay DEVICE), and the share of them the launch touches
 *           (probe hits, which fault) estimates the share of all resident
 *           blocks it touched. An estimate, as sampling is.
 *   faults  nothing was resident when the launch began: no reuse, exactly.
 *   none    otherwise: probes off, or the copy backend without accessors
 *           (device frames are private, and unmapping them would free
 *           them). Unknown (-1).
 *
 * Driver thread only.
 */
#ifndef UVM_REUSE_H
#define UVM_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "residency.h"
#include "space.h"

enum uvm_reuse_source { UVM_REUSE_NONE, UVM_REUSE_GMMU, UVM_REUSE_PROBES, UVM_REUSE_FAULTS };

/* One launch's figures. */
struct uvm_reuse_launch {
	enum uvm_reuse_source source;
	uint64_t touched; /* blocks touched (the resident part estimated with probes) */
	uint64_t reused;  /* of those, resident since the launch began */
	double rate;	  /* reused / touched; -1 when unknown or nothing was touched */
	uint64_t probes, probe_hits;
};

struct uvm_reuse {
	const struct uvm_space *space;
	uint8_t *flag;	    /* per block: REUSE_* bits below */
	uint32_t *count0;   /* per block: its access count when the launch began */
	bool active;	    /* a launch is being measured */
	bool gmmu;	    /* accessors count every access */
	uint64_t resident0; /* blocks resident when the launch began */
	uint64_t fresh;	    /* touched blocks that were not resident from before */
	uint64_t probes, hits;
	uint64_t budget; /* most blocks probed per launch */
	uint64_t rng;	 /* probe choice (xorshift, seeded with --seed) */
};

/* budget: the most blocks a launch may probe (0: none). */
int uvm_reuse_init(struct uvm_reuse *u, const struct uvm_space *s, uint64_t seed, uint64_t budget);
void uvm_reuse_destroy(struct uvm_reuse *u);
/* Residency events it needs (resident, released, GPU faults) and its
 * answer to which runs a launch probes (uvm_reuse_begin). */
struct uvm_res_observer uvm_reuse_observer(struct uvm_reuse *u);

/*
 * A launch begins. gmmu: accessors count. probe: resident runs may be
 * unmapped to estimate (remap without accessors); the runs chosen are
 * written to runs (at most UVM_RES_PROBE_RUNS), the caller unmaps them and
 * marks their blocks probed. Returns the number of runs.
 */
size_t uvm_reuse_begin(struct uvm_reuse *u, bool gmmu, bool probe,
		       struct uvm_res_run runs[UVM_RES_PROBE_RUNS]);
/* A GPU far fault on block b, whose state was `before` when serviced;
 * probe_hit: b was probed and this is the launch's first touch of it. */
void uvm_reuse_fault(struct uvm_reuse *u, size_t b, uint8_t before, bool probe_hit);
/* The launch ended: its figures. */
void uvm_reuse_end(struct uvm_reuse *u, struct uvm_reuse_launch *out);
const char *uvm_reuse_source_name(enum uvm_reuse_source s);

/* The run's data reuse, from each launch's figures: the mean over launches
 * (as the CPC paper averages kernels) and over all touched blocks. */
struct uvm_reuse_run {
	uint64_t launches, measured; /* launches, and those with a rate */
	uint64_t touched, reused;    /* summed over the measured ones */
	double rate_sum;
	enum uvm_reuse_source source;
};
void uvm_reuse_run_add(struct uvm_reuse_run *run, const struct uvm_reuse_launch *l);

#endif
