/* SPDX-License-Identifier: MIT */
/*
 * manager.h - the object manager (--objects host|lru|rlm|glm|rdm): before
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
 * Also --flush-launches: every managed allocation to the host before each
 * launch, so that accesses.csv lists every block a launch touches (what
 * `uvmemu profile` runs with).
 */
#ifndef UVM_OBJ_MANAGER_H
#define UVM_OBJ_MANAGER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "json.h"

struct uvm_emu;
struct uvm_objmgr;

/* *out is NULL under --objects none. A profile that cannot be read is a
 * one-line error in err naming the file and the line. */
int uvm_objmgr_create(struct uvm_objmgr **out, const struct uvm_config *cfg, char *err,
		      size_t errlen);
void uvm_objmgr_destroy(struct uvm_objmgr *m);
/*
 * Launch `index` of kernel `kernel` is about to start: plans it and applies
 * the plan (waits for the prefetches). A launch that is not the profile's
 * (another kernel, an allocation of another size) returns -EINVAL with a
 * one-line reason in err: the profile belongs to another program or input.
 */
int uvm_objmgr_launch(struct uvm_objmgr *m, struct uvm_emu *e, uint64_t index, const char *kernel,
		      char *err, size_t errlen);
/* --flush-launches: moves every managed allocation to the host and waits. */
void uvm_objmgr_flush(struct uvm_emu *e);

/* The report's "objects" key and "objects_plan" section; a summary line. */
void uvm_objmgr_report_json(const struct uvm_objmgr *m, struct uvm_json *j);
void uvm_objmgr_report_text(const struct uvm_objmgr *m, FILE *f);

#endif
