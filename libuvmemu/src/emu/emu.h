/* SPDX-License-Identifier: MIT */
/*
 * emu.h - one emulator instance: it assembles the memory system (mm/), the
 * model (model/), the driver thread (driver/), observation (obs/) and the
 * launch subscribers (objects/), and is what the runtime's entry points act
 * on (docs/architecture.md, "Modules").
 *
 * Everything takes the instance explicitly, so tests can run instances of
 * their own; only the LD_PRELOAD shim (shim/preload.c) keeps a process-wide
 * one. Functions return 0 or -errno.
 */
#ifndef UVM_EMU_H
#define UVM_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "rt.h"
#include "session.h"
#include "stats.h"
#include "uvmemu.h"
#include "uvmemu_gmmu.h"

struct uvm_emu;

/* Sets up an instance for session s (whose cfg is already resolved). On
 * failure err holds a one-line reason. */
int uvm_emu_create(struct uvm_emu **out, struct uvm_session *s, char *err, size_t errlen);
void uvm_emu_destroy(struct uvm_emu *e);

int uvm_emu_alloc(struct uvm_emu *e, enum uvm_ptr_kind kind, size_t size, void **out);
int uvm_emu_free(struct uvm_emu *e, enum uvm_ptr_kind kind, void *p);
int uvm_emu_host_register(struct uvm_emu *e, void *p, size_t size);
int uvm_emu_host_unregister(struct uvm_emu *e, void *p);
enum uvm_ptr_kind uvm_emu_classify(struct uvm_emu *e, const void *p);
/* uvm_rt_span (rt.h) for the instance: a device-view address counts as its
 * host view's, and the views' address space outside allocations is the
 * emulator's own (-EINVAL), never the program's. */
int uvm_emu_span(struct uvm_emu *e, const void *p, size_t n, struct uvm_range *out);
int uvm_emu_memcpy(struct uvm_emu *e, void *dst, const void *src, size_t n,
		   enum cudaMemcpyKind kind);
int uvm_emu_memset(struct uvm_emu *e, void *p, int value, size_t n);
int uvm_emu_advise(struct uvm_emu *e, const void *p, size_t n, enum cudaMemoryAdvise advice,
		   int device);
int uvm_emu_prefetch(struct uvm_emu *e, const void *p, size_t n, int device);
/* Waits for explicit prefetches in flight. */
int uvm_emu_synchronize(struct uvm_emu *e);
void uvm_emu_mem_info(struct uvm_emu *e, size_t *free_bytes, size_t *total_bytes);
void uvm_emu_view_map(struct uvm_emu *e, struct uvmemu_view_map *map);
void *uvm_emu_host_ptr(struct uvm_emu *e, const void *device_ptr);

/*
 * A kernel launch begins: resolves an --oversub capacity the first time,
 * tells the driver, notes the allocations the launch receives, and runs the
 * object manager's plan (or --flush-launches). A footprint too small for one
 * vablock of device memory, or a launch the object profile does not
 * describe, returns -EINVAL with a one-line reason in e->launch_error.
 */
int uvm_emu_kernel_begin(struct uvm_emu *e, uint64_t index, const struct uvmemu_launch *launch);
/* Why the last uvm_emu_kernel_begin failed (a one-line reason). */
const char *uvm_emu_launch_error(const struct uvm_emu *e);
/* A kernel finished: its trace rows (the kernel, the blocks it touched). */
void uvm_emu_kernel_end(struct uvm_emu *e, uint64_t index);
const struct uvmemu_slot *uvm_emu_worker_register(struct uvm_emu *e, unsigned sm);
/* The model clock: a worker's hand-out begins or ends; its warp (or, with
 * barrier, its thread loop) ended with a fault; the host's modelled time (0
 * under the real clock). */
void uvm_emu_run(struct uvm_emu *e, uint64_t ncta, bool begin);
void uvm_emu_warp_end(struct uvm_emu *e, bool barrier);
/* --schedule model's turns (gpu.h): whether the workers take them; the
 * calling worker's wait for its turn (take) or its pass. */
bool uvm_emu_turns(struct uvm_emu *e);
void uvm_emu_turn(struct uvm_emu *e, bool take);
uint64_t uvm_emu_host_time(struct uvm_emu *e);
/* uvm_rt_launch (front/rt.h): a launch's way through the executor. */
uint64_t uvm_emu_launch(struct uvm_emu *e, bool begin, uint64_t host_ns);
/* A CTA began or ended on the calling worker (the timeline's CTA slices). */
void uvm_emu_cta(struct uvm_emu *e, uint64_t launch, unsigned cta, unsigned sm, bool begin);
/* Names the allocation holding p in traces. */
void uvm_emu_label(struct uvm_emu *e, const void *p, const char *name);
/* A signal is ending the run (abandon.h): the waits that are not the
 * model's sleeps, the model clock's workers' at their loops' ends, end now
 * too. */
void uvm_emu_abandon_waits(struct uvm_emu *e);
/* Stops the progress line (before the summary is printed). */
void uvm_emu_progress_stop(struct uvm_emu *e);
/* Sets the dilation from the session's calibration (target / measured). */
void uvm_emu_calibrated(struct uvm_emu *e);
/* The model's dilation now. */
double uvm_emu_dilation(struct uvm_emu *e);
/* Statistics so far (the driver's totals plus the pool's peak). */
void uvm_emu_stats(struct uvm_emu *e, struct uvm_stats *out);
/* The device memory capacity in bytes (0: unlimited or not resolved yet). */
uint64_t uvm_emu_device_mem(struct uvm_emu *e);

/* Whether far faults are the access counters' only source (no GMMU accessors). */
bool uvm_emu_counts_faults(struct uvm_emu *e);
/* The attached executor's programs count their basic blocks. */
bool uvm_emu_counts_blocks(struct uvm_emu *e);
/* --gmmu measure with accessors built in: true, and what they measured
 * crossing the link remotely (bytes in xacts transactions). */
bool uvm_emu_remote_measured(struct uvm_emu *e, uint64_t *bytes, uint64_t *xacts);
/* Report sections: model, placement, features (facts.c). */
void uvm_emu_report_json(void *ctx, struct uvm_json *j);
void uvm_emu_report_text(void *ctx, FILE *f);

/* The memory is the instance's (its views, or a cudaMalloc range): the
 * forked child's fault handler asks. Async-signal-safe. */
bool uvm_emu_owns(const struct uvm_emu *e, uintptr_t a);
/* uvmemu_fault_is_capture: async-signal-safe. */
int uvm_emu_fault_is_capture(const struct uvm_emu *e, const void *addr);
/* The fault capture does not see kernel-mode touches (mprotect,
 * user-mode-only): system calls on managed buffers need a host pin. */
bool uvm_emu_capture_blind(const struct uvm_emu *e);
/* What the fault capture gives up (none under userfaultfd): false, or true
 * with a one-line warning in buf. */
bool uvm_emu_capture_warning(const struct uvm_emu *e, char *buf, size_t len);
/* Under --clock real, a model that makes a batch of far faults or one 64 KB
 * transfer wait longer than a second (the dilation as it is now): true with
 * a one-line warning in buf. Under the model clock nothing waits: false. */
bool uvm_emu_long_wait_warning(struct uvm_emu *e, char *buf, size_t len);
const struct uvmemu_gmmu *uvm_emu_gmmu(struct uvm_emu *e);
/* Waits until every trace record queued so far is written (at exit). */
void uvm_emu_flush_traces(struct uvm_emu *e);
/* info.c: `uvmemu info`, this machine's support for the emulator. Returns
 * 0, or 1 when userfaultfd cannot be used at all. */
int uvm_emu_info(FILE *f);

#endif
