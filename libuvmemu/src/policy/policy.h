/* SPDX-License-Identifier: MIT */
/*
 * policy.h - the interfaces a policy implements, one file per policy.
 *
 * Three kinds, chosen by name at run time (--evict, --prefetch, --migrate):
 *   evict     which device-resident blocks make room (a decider: pick) and
 *             what it needs to know (observers: resident, released, touched,
 *             launch);
 *   prefetch  which extra blocks of a faulting vablock to bring along;
 *   migrate   whether a faulted block migrates or is mapped remotely.
 * Deciders are called by the driver thread at fixed points of the fault path
 * and return a value; observers are called after the driver changed state and
 * cannot fail. Everything runs on the driver thread, so a policy needs no
 * locks of its own. Policies read the space (block states, vablock counts)
 * but never change it.
 */
#ifndef UVM_POLICY_H
#define UVM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "space.h"

/* ------------------------------------------------------------------ evict */

struct uvm_evict_ctx {
	const struct uvm_space *space;
	uint64_t batch;	     /* vablocks with in_batch >= batch are in use */
	uint64_t launch;     /* current kernel launch index */
	size_t keep_vablock; /* never evict from this vablock (being serviced) */
	bool allow_in_use;   /* second pass: in-use vablocks may be evicted too */
	unsigned gpu;	     /* the GPU that needs room: only its copies count */
};

/* A victim: evict every device-resident block of [first, first + n). */
struct uvm_victim {
	size_t first, n;
};

struct uvm_evict_ops {
	const char *name;
	const char *help;
	/*
	 * Set-up can fail for a reason the user must see (a missing or
	 * malformed input file): NULL with one line in err.
	 */
	void *(*create)(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			size_t errlen);
	void (*destroy)(void *p);
	/* Block b just became device-resident (its vablock's count includes it). */
	void (*resident)(void *p, size_t b);
	/* Block b just lost its device copy (the count no longer includes it). */
	void (*released)(void *p, size_t b);
	/* A GPU access to device-resident block b (a stale fault, or a counted access). */
	void (*touched)(void *p, size_t b, bool write);
	/* A kernel launch began. */
	void (*launch)(void *p, uint64_t index);
	/* Chooses a victim; -ENOENT if nothing may be evicted under ctx. */
	int (*pick)(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v);
};

/* --------------------------------------------------------------- prefetch */

/* Masks over the vablock's blocks (vbmask.h). */
struct uvm_prefetch_ctx {
	const struct uvm_space *space;
	size_t vablock;
	/* The prefetcher serves both directions, as the driver's does: GPU
	 * faults bring blocks to the device, a CPU fault brings DEVICE blocks
	 * back to the host (service.c drops what cannot move). */
	struct uvm_vbmask faulted;  /* blocks faulted by the destination's side in this batch */
	struct uvm_vbmask resident; /* blocks whose data is already at the destination */
	struct uvm_vbmask valid;    /* blocks that belong to the allocation: [0, nvalid) */
};

struct uvm_prefetch_ops {
	const char *name;
	const char *help;
	void *(*create)(const struct uvm_space *space, const struct uvm_config *cfg);
	void (*destroy)(void *p);
	/* Extra blocks of the vablock to bring with the faulted ones. */
	struct uvm_vbmask (*pick)(void *p, const struct uvm_prefetch_ctx *ctx);
};

/* ---------------------------------------------------------------- migrate */

enum uvm_migrate_decision {
	UVM_MIGRATE,	/* move the block to the device */
	UVM_MAP_REMOTE, /* leave it on the host, map it remotely (zero-copy) */
};

struct uvm_migrate_ctx {
	const struct uvm_space *space;
	size_t block;
	bool write;		  /* a far fault on a store (the copy backend migrates stores
				   * without asking: its remote copies are read-only; the
				   * threshold policies migrate them whatever the count) */
	uint32_t accesses;	  /* the block's access count (27-bit field) */
	uint32_t trips;		  /* its round trips (times evicted and brought back) */
	uint64_t capacity_blocks; /* 0: unlimited */
	uint64_t used_blocks;	  /* device blocks in use, pinned included */
	bool oversubscribed;	  /* device memory has been full (an eviction happened) */
};

struct uvm_migrate_ops {
	const char *name;
	const char *help;
	void *(*create)(const struct uvm_space *space, const struct uvm_config *cfg);
	void (*destroy)(void *p);
	enum uvm_migrate_decision (*decide)(void *p, const struct uvm_migrate_ctx *ctx);
};

/* --------------------------------------------------------------- registry */

/* Made from policies.def: a policy is its file and one row there. */
enum uvm_policy_kind { UVM_POLICY_evict, UVM_POLICY_prefetch, UVM_POLICY_migrate };

/* The ops of the policy of that kind and name (a struct uvm_<kind>_ops), or NULL. */
const void *uvm_policy_find(enum uvm_policy_kind kind, const char *name);

const struct uvm_evict_ops *uvm_evict_find(const char *name);
const struct uvm_prefetch_ops *uvm_prefetch_find(const char *name);
const struct uvm_migrate_ops *uvm_migrate_find(const char *name);
/* Every policy's name and help, by kind (for --help and `uvmemu info`). */
void uvm_policy_print_help(FILE *f);

/* Helpers policies share. */

/* A create's failure for want of memory: the message, and NULL to return. */
static inline void *uvm_policy_nomem(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory creating a policy");
	return NULL;
}

#endif
