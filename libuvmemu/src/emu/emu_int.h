/* SPDX-License-Identifier: MIT */
/*
 * emu_int.h - an emulator instance's parts (emu.h's opaque struct): the
 * memory system, the model, the driver, observation and the launch
 * subscribers. Only the emu module's files and tests of it include this.
 */
#ifndef UVM_EMU_INT_H
#define UVM_EMU_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "backend.h"
#include "driver.h"
#include "fault_cost.h"
#include "gpu.h"
#include "json.h"
#include "manager.h"
#include "map_touch.h"
#include "model.h"
#include "per_gpu.h"
#include "placement.h"
#include "pool.h"
#include "progress.h"
#include "ranges.h"
#include "reuse.h"
#include "rt.h"
#include "session.h"
#include "space.h"
#include "trace.h"
#include "uffd.h"
#include "tidmap.h"

/* Allocations by id: what each is called, how large, where (the report's
 * thrashing table, the object manager, traces). Under the emulator's lock. */
struct uvm_alloc_info {
	char name[48];
	uint64_t bytes;
	uint64_t off; /* arena offset */
	bool live;
};

/* A part that acts when a kernel launch begins, before its first CTA (the
 * object manager): it may refuse the launch with a one-line reason. */
struct uvm_launch_sub {
	void *p;
	int (*begin)(void *p, uint64_t index, const char *kernel, char *err, size_t errlen);
};
#define UVM_LAUNCH_SUBS 4

/* The parts of a run; emu.c assembles them. */
struct uvm_emu {
	struct uvm_session *session; /* configuration, footprint, kernels */
	/* Memory (mm/). */
	struct uvm_uffd uffd;
	struct uvm_arena arena;
	struct uvm_space space;
	/* Device memory, one pool per GPU (--gpus; each of --device-mem); pool[0]
	 * also holds cudaMalloc's pinned blocks (device 0's). */
	struct uvm_pool pool[UVM_MAX_GPUS];
	struct uvm_placement place;
	const struct uvm_backend_ops *backend; /* remap or copy */
	char backend_why[192];		       /* why that one (report, info) */
	struct uvm_ranges ranges;	       /* every allocation, by host-side address */
	/* Time (model/). */
	struct uvm_model model;
	struct uvm_gpu *gpu;			/* the GPU's clock: --clock model (NULL: real) */
	struct uvm_session_clock session_clock; /* what the session asks of it */
	struct uvm_fault_cost fault_cost;	/* a fault's CPU on its thread */
	/* The fault path (driver/). */
	struct uvm_driver *driver;
	struct uvmemu_gmmu gmmu; /* the table the executor's accessors read */
	/* What GMMU accessors saw cross the link remotely: charged (--gmmu
	 * count) or only measured beside the driver's estimate (measure). */
	_Atomic uint64_t remote_accessed, remote_xacts;
	_Atomic uint64_t exact_bytes, exact_xacts;
	/* Observation (obs/). */
	struct uvm_trace *trace;	/* NULL unless traces were asked for */
	struct uvm_tidmap workers;	/* thread id -> SM */
	struct uvm_map_touch map_touch; /* the machine's first-access cost (report) */
	struct uvm_reuse reuse;		/* the running launch's data reuse (driver thread) */
	struct uvm_per_gpu per_gpu;	/* --gpus N > 1: each GPU's faults and copies */
	struct uvm_progress progress;
	uint32_t *access_seen;	/* per access counter (64 KB): its count at the last launch's end */
	unsigned char *reached; /* per vablock: EMU_DEV reached it this launch (use.h) */
	/* Launch subscribers: the object manager (NULL unless --objects). */
	struct uvm_objmgr *objmgr;
	struct uvm_launch_sub subs[UVM_LAUNCH_SUBS];
	size_t nsubs;
	char launch_error[UVM_ERRLEN]; /* why uvm_emu_kernel_begin failed */
	_Atomic uint32_t next_alloc;

	struct uvm_mutex lock; /* guards what follows */
	double oversub;	       /* 0 unless capacity waits for the first launch */
	double oversub_gpu[UVM_MAX_GPUS]; /* each GPU's ratio (--oversub per device) */
	char capacity_note[160];
	/* The kernel running on each GPU: a GPU runs its kernels one at a
	 * time, in order, and GPUs run theirs side by side (--gpus). */
	struct {
		bool running;
		uint64_t index, begin_ns;
		uint64_t model_begin, model_end; /* modelled (the model clock) */
		struct uvmemu_launch launch;
		char name[48];
		struct uvm_trace_objs objs; /* the allocations it uses */
	} kernel[UVM_MAX_GPUS];
	struct uvm_reuse_run reuse_run; /* the run's data reuse so far */
	struct uvm_alloc_info *alloc_info;
	size_t nalloc_info;
};

#include "emu.h"

/* alloc.c: what the emulator remembers of its allocations. */
void uvm_emu_note_allocation(struct uvm_emu *e, uint32_t id, uint64_t bytes, uint64_t off,
			     const char *name);
/* gmmu.c: the table the executor's GMMU accessors read. */
void uvm_emu_gmmu_init(struct uvm_emu *e, const struct uvm_config *cfg);
/* Books the calling worker's remote sectors not booked yet (a hand-out's end). */
void uvm_emu_gmmu_flush(struct uvm_emu *e);

/* views.c: the calling thread's current device (cudaSetDevice), a GPU of
 * the run (0 for a device the run does not have). */
unsigned uvm_emu_current_gpu(const struct uvm_emu *e);

#endif
