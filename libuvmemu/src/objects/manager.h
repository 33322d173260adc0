/* SPDX-License-Identifier: MIT */
/*
 * manager.h - the object manager (--objects copy|prefetch|host|lru|rlm|glm|rdm): before
 * each kernel launch it plans where the launch's allocations go (plan.h, from
 * --objects-profile) and issues what the SC'19 paper's compiler inserts
 * before a target region, through the runtime's own cudaMemAdvise and
 * cudaMemPrefetchAsync paths:
 *
 *   evicted objects      prefetched to the host
 *   device (and the first part of a partial one)
 *                        advice cleared, prefetched to the device in priority
 *                        order; the launch starts once the prefetches are done
 *                        (stream order)
 *   remote (and the rest of a partial one)
 *                        preferred location host + accessed-by the GPU, and
 *                        whatever of it is on the device prefetched to the host
 *   demand               advice cleared: on-demand paging
 *
 * It acts only through the environment the runtime gives it (struct
 * uvm_objmgr_env): it knows nothing of the emulator's insides.
 */
#ifndef UVM_OBJ_MANAGER_H
#define UVM_OBJ_MANAGER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "json.h"
#include "uvmemu_cuda.h"

struct uvm_objmgr;

/* What the manager acts through: the runtime's own advice, prefetch and
 * synchronize paths, and what it asks of the run's allocations. */
struct uvm_objmgr_env {
	void *ctx;
	int (*advise)(void *ctx, const void *p, size_t n, enum cudaMemoryAdvise advice, int device);
	int (*prefetch)(void *ctx, const void *p, size_t n, int device);
	int (*synchronize)(void *ctx);
	/* What managed data may hold of device memory when the first launch
	 * starts, in bytes (cudaMalloc's share taken off; 0: unlimited). */
	uint64_t (*capacity)(void *ctx);
	/* Allocation `id` of the run: its size and host-view address; -ENOENT
	 * when it is not live. */
	int (*locate)(void *ctx, uint32_t id, uint64_t *bytes, uintptr_t *base);
};

/* *out is NULL under --objects none. A profile that cannot be read is a
 * one-line error in err naming the file and the line. */
int uvm_objmgr_create(struct uvm_objmgr **out, const struct uvm_config *cfg,
		      const struct uvm_objmgr_env *env, char *err, size_t errlen);
void uvm_objmgr_destroy(struct uvm_objmgr *m);
/*
 * Launch `index` of kernel `kernel` is about to start: plans it and applies
 * the plan (waits for the prefetches). A launch that is not the profile's
 * (another kernel, an allocation of another size) returns -EINVAL with a
 * one-line reason in err: the profile belongs to another program or input.
 */
int uvm_objmgr_launch(struct uvm_objmgr *m, uint64_t index, const char *kernel, char *err,
		      size_t errlen);

/* The report's "objects" key and "objects_plan" section; a summary line. */
void uvm_objmgr_report_json(const struct uvm_objmgr *m, struct uvm_json *j);
void uvm_objmgr_report_text(const struct uvm_objmgr *m, FILE *f);

#endif
