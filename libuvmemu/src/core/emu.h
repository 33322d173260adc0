/* SPDX-License-Identifier: MIT */
/*
 * emu.h - one emulator instance: the managed address space, the fault
 * source, the device pool, the link and the driver thread.
 *
 * Everything takes the instance explicitly, so tests can run instances of
 * their own; only the LD_PRELOAD shim (shim/preload.c) keeps a process-wide
 * one. Functions return 0 or -errno.
 */
#ifndef UVM_EMU_H
#define UVM_EMU_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "arena.h"
#include "backend.h"
#include "driver.h"
#include "json.h"
#include "link.h"
#include "map_touch.h"
#include "placement.h"
#include "pool.h"
#include "ranges.h"
#include "reuse.h"
#include "rt.h"
#include "session.h"
#include "space.h"
#include "trace.h"
#include "uffd.h"
#include "workers.h"

struct uvm_emu {
	struct uvm_session *session; /* configuration, footprint, kernels */
	struct uvm_uffd uffd;
	struct uvm_arena arena;
	struct uvm_space space;
	struct uvm_link link;
	struct uvm_pool pool;
	struct uvm_placement place;
	struct uvm_driver *driver;
	const struct uvm_backend_ops *backend; /* remap or copy */
	char backend_why[192];		       /* why that one (report, info) */
	struct uvm_ranges ranges;	       /* every allocation, by host-side address */
	struct uvmemu_gmmu gmmu;
	_Atomic uint32_t next_alloc;

	struct uvm_trace *trace;	  /* NULL unless traces were asked for */
	_Atomic uint64_t remote_accessed; /* bytes GMMU accessors read or wrote remotely */
	struct uvm_workers workers;	  /* thread id -> SM */
	struct uvm_map_touch map_touch;	  /* the machine's first-access cost (report) */
	uint32_t *access_seen;		  /* per block: access count at the last launch's end */
	unsigned char *reached;		  /* per vablock: EMU_DEV reached it this launch (use.h) */
	struct uvm_objmgr *objmgr;	  /* NULL unless --objects */
	char launch_error[UVM_ERRLEN];	  /* why uvm_emu_kernel_begin failed */

	struct uvm_mutex lock; /* guards what follows */
	double oversub;	       /* 0 unless capacity waits for the first launch */
	char capacity_note[160];
	struct {
		uint64_t index, begin_ns;
		struct uvmemu_launch launch;
		char name[48];
		struct uvm_trace_objs objs; /* the allocations it uses */
	} kernel; /* the kernel running (kernels run one at a time, in order) */

	struct {
		uint64_t launches, measured; /* launches, and those with a rate */
		uint64_t touched, reused;    /* summed over the measured ones */
		double rate_sum;
		enum uvm_reuse_source source;
	} reuse; /* the data reuse rate (reuse.h) */

	struct uvm_alloc_info {
		char name[48];
		uint64_t bytes;
		uint64_t off; /* arena offset */
		bool live;
	} * alloc_info; /* by allocation id: what it is called, how large, where */
	size_t nalloc_info;

	pthread_t progress;
	bool progress_on, progress_stop;
	pthread_cond_t progress_cond;
};

/* Sets up an instance for session s (whose cfg is already resolved). On
 * failure err holds a one-line reason. */
int uvm_emu_create(struct uvm_emu **out, struct uvm_session *s, char *err, size_t errlen);
void uvm_emu_destroy(struct uvm_emu *e);

int uvm_emu_alloc(struct uvm_emu *e, enum uvm_ptr_kind kind, size_t size, void **out);
int uvm_emu_free(struct uvm_emu *e, enum uvm_ptr_kind kind, void *p);
int uvm_emu_host_register(struct uvm_emu *e, void *p, size_t size);
int uvm_emu_host_unregister(struct uvm_emu *e, void *p);
enum uvm_ptr_kind uvm_emu_classify(struct uvm_emu *e, const void *p);
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
/* A kernel finished: its trace rows (the kernel, the blocks it touched). */
void uvm_emu_kernel_end(struct uvm_emu *e, uint64_t index);
void uvm_emu_worker_register(struct uvm_emu *e, unsigned sm);
/* A CTA began or ended on the calling worker (the timeline's CTA slices). */
void uvm_emu_cta(struct uvm_emu *e, uint64_t launch, unsigned cta, unsigned sm, bool begin);
/* Names the allocation holding p in traces. */
void uvm_emu_label(struct uvm_emu *e, const void *p, const char *name);
/* Stops the progress line (before the summary is printed). */
void uvm_emu_progress_stop(struct uvm_emu *e);
/* Sets the dilation from a calibration (target / measured bandwidth). */
void uvm_emu_calibrated(struct uvm_emu *e);
/* Statistics so far (the driver's totals plus the pool's peak). */
void uvm_emu_stats(struct uvm_emu *e, struct uvm_stats *out);
/* The device memory capacity in bytes (0: unlimited or not resolved yet). */
uint64_t uvm_emu_device_mem(struct uvm_emu *e);

/* Whether far faults are the access counters' only source (no GMMU accessors). */
bool uvm_emu_counts_faults(struct uvm_emu *e);
/* Report sections: model, placement, features. */
void uvm_emu_report_json(void *ctx, struct uvm_json *j);
void uvm_emu_report_text(void *ctx, FILE *f);

#endif
