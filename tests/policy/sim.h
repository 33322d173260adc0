/* SPDX-License-Identifier: MIT */
/*
 * sim.h - the eviction tests' stand-in for the driver: a small space (64 MB
 * arena) with one policy instance observing the real residency module,
 * which the simulated driver moves blocks through as the real one does (the
 * same counts, the same observer calls). No threads, no userfaultfd, no
 * memory moves: only the books a policy reads.
 */
#ifndef TEST_POLICY_SIM_H
#define TEST_POLICY_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "policy.h"
#include "residency.h"
#include "space.h"

#define SIM_ARENA (64ull << 20)

struct sim {
	struct uvm_space s;
	struct uvm_pool pool[2]; /* a pool per GPU; one GPU unless a test sets two */
	struct uvm_stats st;
	struct uvm_residency r;
	struct uvm_config cfg;
	const struct uvm_evict_ops *ops;
	void *p;
	uint64_t batch;	 /* sequence of the batch being serviced */
	uint64_t launch; /* launches begun */
};

/* Options "name=value" (NULL-terminated, may be NULL) over the defaults. */
void sim_config(struct sim *m, const char *const *opts);
/* A space with one allocation of `bytes` at offset 0, and policy `name`. */
void sim_start(struct sim *m, const char *name, uint64_t bytes, const char *const *opts);
void sim_stop(struct sim *m);

/* Block b becomes device-resident (from EMPTY or HOST). */
void sim_in(struct sim *m, size_t b);
/* Blocks [first, first + n) become device-resident, in address order. */
void sim_in_run(struct sim *m, size_t first, size_t n);
/* A GPU fault on resident block b (a stale fault), as service_gpu reports it. */
void sim_touch(struct sim *m, size_t b, bool write);
/* A kernel launch begins. */
void sim_launch(struct sim *m);
/* Evicts what uvm_op_evict would of victim v; returns the blocks evicted. */
size_t sim_evict(struct sim *m, const struct uvm_victim *v);

/* A context for the next batch: nothing in use, nothing kept. */
struct uvm_evict_ctx sim_ctx(struct sim *m);
/* pick() with the driver's two passes; returns its result. */
int sim_pick2(struct sim *m, struct uvm_evict_ctx *ctx, struct uvm_victim *v);

/* Blocks in state DEVICE. */
size_t sim_on_device(const struct sim *m);

#endif
