/* SPDX-License-Identifier: MIT */
/*
 * session.h - what both runtimes (native and emulated) keep about a run:
 * configuration, wall clock and region of interest, the workload's verdict
 * and values, the attached executor, the sticky CUDA error, the kernel count,
 * the managed footprint and the host memory that bounds it, which GPUs have
 * enabled peer access to which, and whether this process is a forked child
 * (where every call fails, as CUDA's do).
 */
#ifndef UVM_SESSION_H
#define UVM_SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "config.h"
#include "lock_order.h"
#include "timing.h"
#include "uvmemu.h"

#define UVM_SESSION_VALUES 32

/* The region of interest's clocks: wall time, and the CPU time of every
 * thread of the process (driver, SM workers, io_uring), which against the
 * wall time tells whether a run was CPU-bound or waited on the model. */
enum uvm_roi_clock { UVM_ROI_WALL, UVM_ROI_CPU, UVM_ROI_CLOCKS };

/* What the session asks of a model clock: the host's modelled time, and
 * whether a wait for a device (-1: every device) begins (the host's clock
 * pauses) or ended (it goes on from that device's stream's end). */
struct uvm_session_clock {
	void *ctx;
	uint64_t (*host_time)(void *ctx);
	void (*device_wait)(void *ctx, bool begin, int device);
};

struct uvm_session {
	struct uvm_config cfg;
	uint64_t start_ns;
	_Atomic int verify;		 /* enum uvmemu_verify */
	_Atomic bool usage_error;	 /* uvmemu_usage_error: no summary */
	_Atomic bool usage_shown;	 /* uvmemu_usage_shown: no summary */
	_Atomic int last_error;		 /* cudaError_t; CUDA keeps it per thread,
					  * we keep one per process */
	_Atomic uint64_t kernels;	 /* launches begun */
	_Atomic uint64_t managed_bytes;	 /* live managed bytes (64 KB rounded) */
	_Atomic uint64_t footprint_peak; /* the most managed bytes ever live */
	_Atomic uint64_t host_bytes;	 /* live managed bytes as held (64 KB rounded) */
	uint64_t host_mem;		 /* the most host_bytes the host can back:
					  * --host-mem, else RAM + swap */
	_Atomic bool forked;		 /* a child forked after the runtime started */
	_Atomic bool report_failed;	 /* the report could not be written */
	/* Peer access (cudaDeviceEnablePeerAccess): bit device * UVM_GPUS_MAX
	 * + peer is set while `device` may access `peer`'s memory (device.h);
	 * 8 x 8 GPUs, one word, changed by atomic or/and. */
	_Atomic uint64_t peer_access;
	const struct uvmemu_executor *_Atomic executor;
	/* The model clock's host side, set by the emulator that keeps one
	 * (NULL: none, natively and under --clock real). */
	const struct uvm_session_clock *clock;

	struct uvm_mutex lock; /* guards everything below */
	uint64_t roi_ns[UVM_ROI_CLOCKS], roi_start_ns[UVM_ROI_CLOCKS];
	int roi_depth;
	/* The model clock: the region of interest in the GPU's (and the host's)
	 * modelled time, what the report's gpu_s says. */
	uint64_t gpu_roi_ns, gpu_roi_start_ns;
	bool roi_marked; /* the program marked a region (else gpu_s is the run's) */
	int nvalues;
	struct {
		char key[48];
		double value;
	} values[UVM_SESSION_VALUES];
	double calib_measured, calib_target; /* bytes/s; 0 until calibrated */
	double calib_block_ns;		     /* CPU ns per counted block; 0: not known */
	char calib_gpu[32];
	char calib_source[384]; /* the calibration file, or why it was not used */
};

/* Reads the environment into cfg; on a bad setting prints the one-line error
 * and exits with status 2 (the configuration boundary). */
void uvm_session_init(struct uvm_session *s, char *const *envp);
/* The same from a configuration already resolved (tests, tools). */
void uvm_session_init_cfg(struct uvm_session *s, const struct uvm_config *cfg);
double uvm_session_wall_s(const struct uvm_session *s);
/* uvmemu_roi_begin/end: regions nest, the outermost counts. */
void uvm_session_roi_begin(struct uvm_session *s);
void uvm_session_roi_end(struct uvm_session *s);
/* The region of interest so far on one clock; an open region counts up to
 * now. */
double uvm_session_roi_s(struct uvm_session *s, enum uvm_roi_clock c);
/* The model clock's headline: the region of interest in modelled time, or,
 * where the program marks none, the whole run's (the host's modelled time
 * now); -1 under the real clock. */
double uvm_session_gpu_s(struct uvm_session *s);
/* What gpu_s covers: "roi" or "run". */
const char *uvm_session_gpu_scope(struct uvm_session *s);
/* Live managed bytes (64 KB rounded: what device memory would hold) and
 * their peak, the footprint. */
void uvm_session_add_managed(struct uvm_session *s, int64_t delta);
/*
 * Charges (bytes > 0) or refunds a managed allocation of `bytes` against what
 * the host can back. A charge that would take the live managed bytes (each
 * allocation rounded up to whole 64 KB blocks, what its touched frames
 * hold) past s->host_mem is refused with -ENOMEM and changes nothing: an
 * allocation charges before it maps. Both runtimes charge the same, so both
 * refuse the same allocations.
 */
int uvm_session_charge_host(struct uvm_session *s, int64_t bytes);
/* Waits until the attached executor's stream of `device` is idle
 * (cudaDeviceSynchronize's wait, which CUDA's copies also do), or every
 * device's when it is -1 (frees, the end of a region of interest); returns
 * the executor's pending kernel error. Under the model clock the wait's
 * real time is not the host's: its clock goes on from the stream's end. */
cudaError_t uvm_session_device_idle(struct uvm_session *s, int device);
/* Tells the attached executor that CTAs are stalled on far faults (the
 * driver fetched GPU faults); does nothing without an executor. */
void uvm_session_gpu_stalled(struct uvm_session *s);
void uvm_session_set_error(struct uvm_session *s, cudaError_t e);

#endif
