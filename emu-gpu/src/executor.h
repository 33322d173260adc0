/* SPDX-License-Identifier: MIT */
/*
 * executor.h - emu-gpu's internals, shared between its source files.
 *
 * Names here are eg_*; none is exported (the library builds with
 * -fvisibility=hidden and exports only emugpu.h's functions).
 *
 * The executor is one process-wide instance (struct eg_executor eg) with a
 * device per GPU of the run (--gpus N: cudaGetDeviceCount): each device has a
 * pool of worker threads, one per resident CTA slot of its GPU (sms x
 * ctas_per_sm), started at its first launch, and its default stream, a ring
 * of launch slots run strictly in order. A kernel runs on the workers of the
 * device it was launched on (the launching thread's current device); the
 * devices' streams progress independently of each other, as GPUs do.
 *
 * Life of a launch:
 *   emu_launch        validates, copies and translates the arguments into the
 *                     next free slot (eg_submit), returns;
 *   eg_start_kernel   when the stream reaches it: kernel_begin hook, publishes
 *                     it in its device's `current` and wakes its workers;
 *   workers           take CTA tickets until none are left (eg_run_kernel);
 *   eg_complete_kernel  the worker whose CTAs bring the done count to the grid
 *                     size: kernel_end hook, records errors, starts the next
 *                     queued kernel, wakes synchronize().
 *
 * Locking: eg.lock guards every device's stream counters (submitted,
 * completed), ordinal and pending error; eg.start_lock serialises the start
 * of the devices' pools (it is held while a pool starts and calibrates, and
 * the runtime is called under it, never under eg.lock). Workers never take it except to complete a
 * kernel; joining a kernel and taking CTAs are lock-free (see worker.c). The
 * memory-system hooks are never called with eg.lock held.
 */
#ifndef EG_EXECUTOR_H
#define EG_EXECUTOR_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "emugpu.h"
#include "tickets.h" /* also EG_CACHELINE */

#define EG_QUEUE_DEPTH 256	   /* launches in flight before emu_launch waits */
#define EG_MAX_ARGS    4096	   /* CUDA's kernel parameter limit */
#define EG_MAX_SHARED  (48u << 10) /* CUDA's per-CTA limit without opt-in */
#define EG_MAX_THREADS 1024	   /* threads per CTA */
#define EG_STACK_SIZE  (8u << 20)  /* worker stack: per-thread arrays live there */

/* --------------------------------------------------------- configuration */

enum eg_order { EG_ASC, EG_DESC, EG_SWITCH };

/* A target GPU (the --gpu presets). */
struct eg_gpu {
	const char *name;
	unsigned sms;
	double bytes_per_s; /* peak DRAM bandwidth */
};
/* NULL for a name the option table does not know. */
const struct eg_gpu *eg_gpu_find(const char *name);
/* The i-th preset, NULL past the last. */
const struct eg_gpu *eg_gpu_at(size_t i);

/* What differs between the GPUs of a run (--gpu, --sms per device). */
struct eg_dev_config {
	const struct eg_gpu *gpu;
	unsigned sms, workers; /* workers = sms x ctas_per_sm */
};

struct eg_config {
	unsigned ctas_per_sm;
	enum eg_order order;
	const char *order_name;
	bool pin;
	bool calibrate;		  /* --dilation auto */
	uint64_t chunk_target_ns; /* --cta-chunk-target (worker.c's hand-out size) */
	uint32_t chunk_max;	  /* --cta-chunk-max */
	unsigned ndev;		  /* devices (cudaGetDeviceCount) */
	struct eg_dev_config dev[UVMEMU_MAX_DEVICES];
};

/* ---------------------------------------------------------------- stream */

/*
 * One launch. The first part is written by the launcher before the kernel is
 * published and only read afterwards; the counters each sit on their own
 * cache line because every CTA hand-out writes `next`.
 */
struct eg_kernel {
	const struct emu_kernel *kernel;
	dim3 grid, block;
	unsigned nthreads;
	size_t shared_bytes;
	uint64_t ncta;	    /* grid.x * grid.y * grid.z */
	uint64_t seq;	    /* position in the stream */
	uint64_t index;	    /* launch index from uvmemu_kernel_begin */
	uint64_t host_ns;   /* the host's modelled time at the launch (uvmemu_host_time) */
	int device;	    /* the launching thread's current device (cudaGetDevice) */
	bool desc;	    /* hand CTAs out from the last one down */
	bool internal;	    /* the calibration kernel: no memory-system hooks */
	_Atomic bool abort; /* a CTA faulted: skip the CTAs not yet run */
	_Atomic int error;  /* first fault (cudaError_t) */
	/* Spare workers join (worker.c): set at the start from the previous
	 * kernel, or when a hand-out blocks. */
	_Atomic bool faulting;
	_Atomic bool blocked; /* some hand-out blocked in the kernel */
	struct uvmemu_view_map views;
	/* CTAs per hand-out (worker.c); rewritten only when it changes. */
	_Alignas(EG_CACHELINE) _Atomic uint32_t chunk;
	_Alignas(EG_CACHELINE) _Atomic uint64_t done; /* CTAs finished (or skipped) */
	_Atomic uint32_t active;		      /* workers that joined and have not left */
	_Alignas(EG_CACHELINE) unsigned char args[EG_MAX_ARGS]; /* translated copy */
	struct eg_tickets tickets; /* split when the kernel starts (worker.c) */
};

struct eg_device;

/* Per worker thread; touched by its own thread and its signal handler. */
struct eg_worker {
	pthread_t thread;
	struct eg_device *dev; /* whose pool it is in */
	unsigned id, sm, slot; /* id: its place in that pool */
	void *shared;	/* EG_MAX_SHARED bytes of "shared memory" */
	void *altstack; /* sigaltstack for fault recovery */
	size_t altstack_size;
	sigjmp_buf recover;
	uint64_t ticket;	      /* the CTA being run, as a ticket */
	long nvcsw;		      /* voluntary context switches so far */
	bool batch_policy;	      /* it set itself SCHED_BATCH (worker.c) */
	volatile sig_atomic_t in_cta; /* recover is armed */
	volatile sig_atomic_t fault_sig;
	void *volatile fault_addr;
	const struct eg_kernel *volatile kernel; /* being run */
	/* The runtime's word for the model clock (NULL: none): set when a lane
	 * of the running warp took a far fault (uvmemu.h). */
	const struct uvmemu_slot *model_slot;
};

/* A GPU: its worker pool and its default stream (executor.c). */
struct eg_device {
	unsigned id; /* the CUDA device number */
	const struct eg_dev_config *cfg;
	_Atomic bool started;	/* its pool's start was tried; pool_error says how */
	cudaError_t pool_error; /* why the pool could not start */
	_Atomic bool ready;	/* the pool runs; `pinned` is final */
	bool pinned;
	struct eg_worker *workers;
	struct eg_kernel *slots; /* EG_QUEUE_DEPTH of them */

	/* Workers find the running kernel in `current` (its seq + 1; 0 when none
	 * runs). The first `nmain` workers, one per core, sleep on `wake_main`,
	 * the others (spares) on `wake_spare`: futex words bumped to wake them
	 * (worker.c). `faulting` carries a kernel's mode to the next one. */
	_Alignas(EG_CACHELINE) _Atomic uint32_t wake_main;
	_Atomic uint32_t wake_spare;
	_Atomic uint64_t current;
	_Atomic bool faulting;
	unsigned nmain;

	/* Under eg.lock. */
	_Alignas(EG_CACHELINE) uint64_t submitted; /* launches queued so far */
	uint64_t completed;  /* launches finished; the stream is idle when equal */
	uint64_t ordinal;    /* program launches so far (dispatch switch) */
	cudaError_t error;   /* first kernel error since the last synchronize */
	unsigned registered; /* workers that called uvmemu_worker_register */
};

/* The process-wide executor (executor.c). */
struct eg_executor {
	pthread_once_t cfg_once;
	struct eg_config cfg;
	const struct uvmemu_gmmu *gmmu;
	bool gmmu_known;	    /* gmmu was read (the first pool's start, start_lock) */
	pthread_mutex_t start_lock; /* a device's pool starts */
	bool calibrated;	    /* under start_lock (or at load, alone): calibration done */
	_Atomic bool shutdown;
	/* This process is a child forked after emu-gpu loaded: it has no
	 * workers (threads do not survive fork), so launches fail. */
	_Atomic bool forked;
	struct eg_device dev[UVMEMU_MAX_DEVICES];

	_Alignas(EG_CACHELINE) pthread_mutex_t lock;
	pthread_cond_t changed; /* a kernel completed, or a worker registered */
};

extern struct eg_executor eg;

/* eg.lock, with its place in the runtime's lock order reported
 * (uvmemu_executor_lock): the innermost, so that nothing of the runtime is
 * called while it is held. */
static inline void eg_lock(void)
{
	uvmemu_executor_lock(UVMEMU_LOCK_TAKE);
	pthread_mutex_lock(&eg.lock);
}

static inline void eg_unlock(void)
{
	uvmemu_executor_lock(UVMEMU_LOCK_RELEASE);
	pthread_mutex_unlock(&eg.lock);
}

/* Waits on eg.changed, eg.lock held (one condition for every device: each
 * waiter tests its own). */
static inline void eg_wait_changed(void)
{
	uvmemu_executor_lock(UVMEMU_LOCK_WAIT);
	pthread_cond_wait(&eg.changed, &eg.lock);
}

/* executor.c */
const struct eg_config *eg_config(void);
/* The calling thread's current device (cudaGetDevice; 0 if it fails). */
unsigned eg_current_device(void);
/* Starts device dev's worker pool once (the first pool to start also
 * calibrates); cudaSuccess or why not. */
cudaError_t eg_pool_start(unsigned dev);
/* Queues a validated launch on device dev's stream; `args` has
 * kernel->args_size bytes. */
cudaError_t eg_submit(unsigned dev, const struct emu_kernel *kernel, dim3 grid, dim3 block,
		      size_t shared_bytes, const void *args, bool internal);
/* The workers that run every kernel of a device with `workers` workers:
 * one per core the process may use (its affinity mask, or the cores --pin
 * uses), at most `workers`. */
unsigned eg_main_workers(const struct eg_config *cfg, unsigned workers);
/* Waits until device dev's stream is idle; returns and clears its pending
 * error. */
cudaError_t eg_wait_idle(unsigned dev);
void eg_complete_kernel(struct eg_device *d, struct eg_kernel *k);

/* worker.c */
int eg_worker_start(struct eg_worker *w);
/* Publishes k as the running kernel of device d and wakes the workers it
 * needs. */
void eg_workers_run(struct eg_device *d, struct eg_kernel *k);
/* At shutdown. */
void eg_workers_wake_all(struct eg_device *d);
/* The memory system saw CTAs stall on far faults (uvmemu_executor.stalled). */
void eg_workers_stalled(void);
/* The calling thread's worker, NULL on other threads. */
struct eg_worker *eg_self(void);

/* fault.c: SIGSEGV/SIGBUS/SIGFPE in a CTA become a kernel error. */
int eg_fault_install(void);
/* Allocates w's signal stack (any thread); enter installs it and leave
 * removes and frees it (on the worker itself); free only frees it. */
int eg_fault_thread_init(struct eg_worker *w);
void eg_fault_thread_enter(struct eg_worker *w);
void eg_fault_thread_leave(struct eg_worker *w);
void eg_fault_thread_free(struct eg_worker *w);
/* After siglongjmp out of the handler: unblock the signal, report. */
void eg_fault_recovered(struct eg_worker *w, struct eg_kernel *k, uint64_t cta);

/* pin.c: place workers on cores with hwloc. The cores workers may use (> 0)
 * or -errno; eg_pin_cores counts them without pinning. */
int eg_pin_cores(void);
int eg_pin_workers(struct eg_worker *workers, unsigned n);

/* calibrate.c: --dilation auto. The executor's streaming bandwidth in
 * bytes/s measured now (0 if the kernel failed) and, in a build that counts
 * basic blocks, the CPU ns per block (else 0); the build a saved figure must
 * match; the calibration a run uses (saved, else measured). */
double eg_measure_bandwidth(unsigned dev, double *block_ns);
const char *eg_build_id(void);
/* --dilation auto, against device 0's preset (the dilation is the model's,
 * for the run): hands the runtime the calibration `uvmemu calibrate` saved
 * for this machine and build (one measurement per run varies by 2x between
 * consecutive runs on a busy machine; the file holds the median of many);
 * false if there is none (the runtime has said why). */
bool eg_calibrate_saved(const struct eg_config *cfg);
/* Measures it instead, on device dev's pool, started. */
void eg_calibrate_measured(const struct eg_config *cfg, unsigned dev);

#endif /* EG_EXECUTOR_H */
