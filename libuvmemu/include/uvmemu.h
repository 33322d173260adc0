/* SPDX-License-Identifier: MIT */
/*
 * uvmemu.h - the uvmemu C API.
 *
 * Managed memory, the hooks an executor (emu-gpu) calls at kernel boundaries,
 * the host-view/device-view translation, run-time options and result
 * reporting. Everything here is implemented twice with the same behaviour
 * towards the program: by libuvmemu_native.so (plain memory, translation is
 * the identity) and by libuvmemu.so (the emulator). A program links to the
 * native one and is emulated by preloading the other.
 *
 * Conventions: functions that can fail return 0 or a negative errno value and
 * never set errno; names are uvmemu_*; CUDA-named calls are in uvmemu_cuda.h.
 */
#ifndef UVMEMU_H
#define UVMEMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "uvmemu_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Public entry points stay visible when the libraries build with
 * -fvisibility=hidden. */
#pragma GCC visibility push(default)

#define UVMEMU_PAGE_SIZE 4096u
/* The GPUs a run may model (--gpus): devices 0..N-1, N at most this. */
#define UVMEMU_MAX_DEVICES 8
/*
 * The migration unit ("block") of the library built with this header: 64 KB,
 * or 4 KB for libuvmemu_4k.so (--page-size 4k), which is the same sources
 * compiled with UVMEMU_BLOCK_SHIFT=12. Code that runs with either library
 * (an executor) reads the running one's unit from uvmemu_gmmu_get().
 */
#ifndef UVMEMU_BLOCK_SHIFT
#define UVMEMU_BLOCK_SHIFT 16
#endif
#define UVMEMU_BLOCK_SIZE (1u << UVMEMU_BLOCK_SHIFT)
/* That unit as --page-size names it: the library's default, and the only
 * value it accepts (uvmemu_options.def). */
#if UVMEMU_BLOCK_SHIFT == 12
#define UVMEMU_PAGE_SIZE_BUILT "4k"
#else
#define UVMEMU_PAGE_SIZE_BUILT "64k"
#endif
/* 64 KB basic blocks: the tree prefetcher's leaves and the access counters'
 * unit at either migration unit, as in the NVIDIA driver and UVMSmart. */
#define UVMEMU_BASIC_SHIFT  16
#define UVMEMU_VABLOCK_SIZE (2u << 20) /* 2 MB: fault grouping */

/* ------------------------------------------------------------ managed memory */

/*
 * Allocates managed memory; *ptr is the host-view pointer. -ENOMEM when the
 * live managed bytes would exceed what the host can back (RAM + swap, or
 * --host-mem), as cudaMallocManaged's cudaErrorMemoryAllocation.
 */
int uvmemu_malloc_managed(void **ptr, size_t size);
/* Frees once the device is idle (kernels still running finish first), as
 * cudaFree does; -EDEADLK from inside a kernel. */
int uvmemu_free(void *ptr);
/*
 * Fork: memory of the runtime is not inherited. In a child forked from a
 * process using the runtime, CUDA-named calls return
 * cudaErrorInitializationError, uvmemu_malloc_managed and uvmemu_free
 * -ENODEV, kernel launches fail the same way, and a touch of managed memory
 * is a one-line message and SIGSEGV. The parent's data never changes.
 */
/* Names the allocation containing p in traces (allocations.csv) and plots,
 * e.g. "edges"; natively there are no traces and nothing is recorded. */
void uvmemu_label(const void *p, const char *name);
/* True when p points into a live managed allocation (host view). */
bool uvmemu_is_managed(const void *p);
/* True when GPU code reaches the live allocation containing p through the
 * device view (managed memory and zero-copy host memory under emulation);
 * always false natively. Executors translate such pointers at launch. */
bool uvmemu_has_device_view(const void *p);
/* Whether this process runs under the emulator (libuvmemu.so) or natively. */
bool uvmemu_is_emulated(void);

/*
 * Host view <-> device view. GPU code must access managed data through the
 * device view. The offset between the two is fixed for the life of the
 * process, so an executor can translate without a call per pointer:
 * a pointer p with host_lo <= p < host_hi translates to p + device_offset.
 * Natively the range is empty and translation is the identity.
 */
struct uvmemu_view_map {
	uintptr_t host_lo, host_hi;
	intptr_t device_offset;
	/* Emulated: one byte per 2 MB of the host view, which a kernel's
	 * translation (uvmemu_kernel_ptr) sets; the runtime reads and clears
	 * them at the launch's end to know which allocations the launch reached
	 * through pointers read from memory. NULL natively. */
	unsigned char *reached;
};
void uvmemu_get_view_map(struct uvmemu_view_map *map);
/* Whether a fault at addr is the memory system's own (the mprotect fault
 * capture's, which its SIGSEGV handler resolves), not an invalid access.
 * Async-signal-safe; always 0 natively and under userfaultfd. */
int uvmemu_fault_is_capture(const void *addr);

static inline void *uvmemu_view_to_device(const struct uvmemu_view_map *m, const void *p)
{
	uintptr_t a = (uintptr_t)p;

	if (a >= m->host_lo && a < m->host_hi)
		a += (uintptr_t)m->device_offset;
	return (void *)a;
}

/*
 * The same translation for a pointer a kernel read out of memory (emu-gpu's
 * EMU_DEV): the allocation it points into is also noted as used by the
 * running launch. Each 2 MB of the host view lies in one allocation, so a
 * byte per 2 MB is the note; it is written once per launch, and afterwards
 * costs one load that every worker shares read-only.
 */
static inline void *uvmemu_kernel_ptr(const struct uvmemu_view_map *m, const void *p)
{
	uintptr_t a = (uintptr_t)p;

	if (a >= m->host_lo && a < m->host_hi) {
		if (m->reached) {
			unsigned char *r = m->reached + ((a - m->host_lo) >> 21);

			if (!__atomic_load_n(r, __ATOMIC_RELAXED))
				__atomic_store_n(r, 1, __ATOMIC_RELAXED);
		}
		a += (uintptr_t)m->device_offset;
	}
	return (void *)a;
}

/* Device-view pointer for a host-view one (identity for anything else). */
void *uvmemu_device_ptr(const void *host_ptr);
/* Host-view pointer for a device-view one (identity for anything else). */
void *uvmemu_host_ptr(const void *device_ptr);

/* ---------------------------------------------------------- executor hooks */

/*
 * An executor attaches once (emu-gpu does so when it loads). The runtime calls
 * synchronize() from cudaDeviceSynchronize(); it returns the first error of the
 * kernels it waited for (cudaSuccess otherwise).
 */
struct uvmemu_executor {
	const char *name;
	/* Waits for device `device`'s stream (cudaDeviceSynchronize: the
	 * calling thread's current device), or every device's when it is -1
	 * (cudaFree, the end of a region of interest). */
	cudaError_t (*synchronize)(int device);
	/* Built with GMMU accessors: they count every access, so the memory
	 * system stops counting far faults as accesses. */
	bool gmmu_accessors;
	/* Built to count the basic blocks programs run (uvmemu_blocks_run):
	 * at --dilation auto they price compute, and the report says so. */
	bool counts_blocks;
	/* Optional: CTAs of the running kernel are stalled on far faults.
	 * Called from the memory system's driver thread when a batch it fetches
	 * holds GPU faults (at most once per batch), so that an executor that
	 * keeps spare CTA slots idle until CTAs stall starts one at once rather
	 * than when the stalled CTA finishes. */
	void (*stalled)(void);
};
void uvmemu_executor_attach(const struct uvmemu_executor *executor);

struct uvmemu_launch {
	const char *kernel;  /* kernel name, for traces */
	dim3 grid, block;    /* launch shape */
	size_t shared_bytes; /* dynamic shared memory per CTA */
	/* The argument struct as the kernel receives it (managed pointers
	 * already translated to the device view), so that the memory system
	 * knows which allocations the launch was given; may be NULL. */
	const void *args;
	size_t args_size;
	/* The model clock: the host's modelled time when the program launched
	 * it (uvmemu_host_time() then; 0: when it begins), the CTA slots it
	 * runs on (SMs x CTAs per SM) and the cores the executor runs them on
	 * (what its calibration measured). */
	uint64_t host_ns;
	unsigned slots, cores;
	/* The device the kernel runs on (0..--gpus - 1): the launching host
	 * thread's current device (cudaSetDevice) when it launched. */
	int device;
};
/*
 * Called by the executor when a kernel starts running (in stream order) and
 * when its last CTA has finished. kernel_begin returns the launch index
 * (0, 1, 2, ... in launch order) that kernel_end and traces refer to.
 */
uint64_t uvmemu_kernel_begin(const struct uvmemu_launch *launch);
void uvmemu_kernel_end(uint64_t launch_index);
/* Optional, per CTA, from the worker running it. */
void uvmemu_cta_begin(uint64_t launch_index, unsigned cta_linear, unsigned sm);
void uvmemu_cta_end(uint64_t launch_index, unsigned cta_linear, unsigned sm);

/*
 * The model clock (--clock model, docs/architecture.md, "Time model"): the
 * runtime computes the GPU's time from each worker's CPU time and its far
 * faults. A worker's slot word is set by the runtime when a lane of the
 * warp running took a far fault. The executor tests it at each warp's end
 * (every 32 threads of a thread loop) and calls uvmemu_warp_end() when
 * UVMEMU_ATTN_WARP is set: the lanes of a warp issue together, so they
 * share its issue time. At each thread loop's end (a barrier, or the CTA's
 * end) it calls uvmemu_barrier() when the word is not 0: the CTA's warps run
 * interleaved on a GPU, so a warp's stall hides behind the others' compute,
 * and the CTA waits only there, until its warps' faults' modelled
 * completion.
 */
struct uvmemu_slot {
#ifdef __cplusplus
	uint32_t attention; /* CUDA builds (C++): no executor reads it there */
	uint64_t clock_lb;
#else
	_Atomic uint32_t attention;
	/* A modelled time (ns) the slot's clock has certainly reached; GMMU
	 * accessors compare blocks' arrivals with it (uvmemu_gmmu.h). */
	_Atomic uint64_t clock_lb;
#endif
};
#define UVMEMU_ATTN_WARP 1u /* a lane of the running warp faulted */
#define UVMEMU_ATTN_LOOP 2u /* a warp of the running thread loop faulted */
#define UVMEMU_WARP_SIZE 32
/* Called by each executor worker thread once, so faults can name their SM;
 * the worker belongs to its thread's current device (cudaSetDevice first:
 * the model clock keeps each GPU's slots apart). Returns the worker's slot
 * word, or NULL when the runtime keeps no GPU clock (natively, --clock
 * real): then warps need no test. */
const struct uvmemu_slot *uvmemu_worker_register(unsigned sm, unsigned slot);
/* The calling worker runs (ran) a hand-out of ncta consecutive CTAs. */
void uvmemu_run_begin(uint64_t ncta);
void uvmemu_run_end(uint64_t ran);
/* The calling worker's warp ended with UVMEMU_ATTN_WARP set: returns at
 * once (the CTA's next warp goes on). */
void uvmemu_warp_end(void);
/* The calling worker's thread loop ended with its slot word set: returns
 * when its warps' faults' batches have been formed (in real time: nothing
 * sleeps for the model's time). */
void uvmemu_barrier(void);
/*
 * --schedule model: the workers run kernel code in turns, one at a time,
 * the CTA slot earliest in modelled time first (docs/architecture.md, "The
 * ordered schedule"). uvmemu_turns() says whether they do (false natively
 * and under --schedule host). Then a worker calls uvmemu_turn_take() before
 * it takes a hand-out's tickets: it returns when the turn is the worker's,
 * or when its GPU has no CTA left to start. A worker that then finds no
 * ticket calls uvmemu_turn_pass(). Hand-outs are of one CTA, taken in
 * dispatch order; the turn passes on by itself at a hand-out's end
 * (uvmemu_run_end) and at a loop's end that waits (uvmemu_barrier).
 */
bool uvmemu_turns(void);
void uvmemu_turn_take(void);
void uvmemu_turn_pass(void);
/*
 * A launch's way through the executor (copying its arguments, queueing it,
 * waking workers) is the emulator's work, not the program's: the executor
 * calls uvmemu_launch_begin() first, which pauses the host's modelled clock
 * and returns its time (0 natively and under --clock real: the kernel then
 * starts when it begins), the time the launch carries (uvmemu_launch's
 * host_ns), and uvmemu_launch_end() with it last: the host goes on from
 * then plus the model's cost of a launch (--launch-cost).
 */
uint64_t uvmemu_launch_begin(void);
void uvmemu_launch_end(uint64_t host_ns);
/* The host's modelled time now (0 natively and under --clock real). */
uint64_t uvmemu_host_time(void);
/* The executor's own work on the host's time (starting its workers,
 * calibrating) begins or ends: the model clock does not count it as the
 * program's. */
void uvmemu_executor_overhead(bool begin);
/* Records a kernel fault (sticky until cudaGetLastError reads it). */
void uvmemu_set_kernel_error(cudaError_t error);
/*
 * The executor's own lock takes the innermost place in the runtime's lock
 * order (docs/architecture.md, "Locks"): the executor reports each take,
 * wait and release of it, and a runtime built with its lock check (Debug
 * and sanitizer builds) aborts when a runtime lock is taken or a driver
 * command waited for while it is held. Elsewhere a call costs nothing.
 */
enum uvmemu_lock_event { UVMEMU_LOCK_TAKE, UVMEMU_LOCK_WAIT, UVMEMU_LOCK_RELEASE };
void uvmemu_executor_lock(enum uvmemu_lock_event event);

/*
 * Whether the runtime's model wants the executor's streaming bandwidth
 * (--dilation auto under the emulator); false natively and when a dilation
 * was given. The model, not the executor, owns the dilation: the executor
 * measures when asked and reports the figure below.
 */
bool uvmemu_calibration_wanted(void);
/* The model's dilation D now (1 natively and until calibrated). */
double uvmemu_dilation(void);
/*
 * Dilation calibration (--dilation auto): the executor measured its own
 * streaming bandwidth and reports it with the target GPU's; the runtime sets
 * the dilation factor to target / measured and states both in its report.
 */
void uvmemu_set_calibration(double measured_bytes_per_s, double target_bytes_per_s,
			    const char *target_gpu);
/*
 * The executor's bandwidth saved by `uvmemu calibrate` for this machine and
 * an executor built as `build` (a string the executor makes of its build:
 * optimisation, sanitizer, accessors), in bytes/s; 0 when there is none (or
 * natively), and the executor then measures in this run. The report names
 * the file, or why it was not used.
 */
double uvmemu_calibration_saved(const char *build);
/*
 * The basic blocks of program code the calling thread has run: counted when
 * the program was compiled with GCC's -fsanitize-coverage=trace-pc (a build
 * with -DEMUGPU_COUNT_BLOCKS=ON), 0 otherwise.
 */
uint64_t uvmemu_blocks_run(void);
/*
 * The executor's CPU time per counted block of its calibration kernel, in ns,
 * as measured in this run (--compute blocks prices a kernel's blocks at it):
 * with its own measurement, where uvmemu_calibration_saved gave none, and
 * before uvmemu_set_calibration. A saved calibration brings its own.
 */
void uvmemu_set_block_cost(double cpu_ns_per_block);

/* ----------------------------------------------------------------- options */

/*
 * Resolved run-time options (UVMEMU_* variables, or `uvmemu run` options),
 * by option name as in `uvmemu --help` ("sms", "dispatch", "device-mem" ...).
 * Values were validated when the runtime started; asking for a name that does
 * not exist is a programming error and aborts with a message. By id, with the
 * ENUM options' values by name: uvmemu_options.h.
 */
long long uvmemu_option_int(const char *name);
double uvmemu_option_double(const char *name);
const char *uvmemu_option_str(const char *name);

/* ----------------------------------------------------------------- results */

enum uvmemu_verify {
	UVMEMU_VERIFY_NONE = 0,
	UVMEMU_VERIFY_PASS = 1,
	UVMEMU_VERIFY_FAIL = 2,
};
/* The workload's own check of its result, copied into the report. */
void uvmemu_set_verify(enum uvmemu_verify verdict);
/*
 * The program is about to exit on a usage or input error, before its work:
 * its own one-line message is all the run should print, so the runtime
 * prints no summary at exit. A --report file is still written, with
 * "usage_error": true (and "verify": "none").
 */
void uvmemu_usage_error(void);
/*
 * The program printed its usage (--help) and is about to exit before its
 * work: that text is all the run should print, so the runtime prints no
 * summary at exit. A --report file is still written ("verify": "none").
 */
void uvmemu_usage_shown(void);
/*
 * Region of interest: the part of the program a benchmark compares (kernels
 * and the host work between them, not input generation or the CPU reference).
 * Reported as roi_s. May be entered more than once; times add up.
 */
void uvmemu_roi_begin(void);
void uvmemu_roi_end(void);
/* Free-form key/value for the report's "workload" object (e.g. problem size). */
void uvmemu_report_value(const char *key, double value);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* UVMEMU_H */
