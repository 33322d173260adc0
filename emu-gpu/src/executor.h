/* SPDX-License-Identifier: MIT */
/*
 * executor.h - emu-gpu's internals, shared between its source files.
 *
 * Names here are eg_*; none is exported (the library builds with
 * -fvisibility=hidden and exports only emugpu.h's functions).
 *
 * The executor is one process-wide instance (struct eg_executor eg): a pool of
 * worker threads, one per resident CTA slot (sms x ctas_per_sm), and the one
 * default stream, a ring of launch slots run strictly in order.
 *
 * Life of a launch:
 *   emu_launch        validates, copies and translates the arguments into the
 *                     next free slot (eg_submit), returns;
 *   eg_start_kernel   when the stream reaches it: kernel_begin hook, publishes
 *                     it in eg.current and wakes workers;
 *   workers           take CTA tickets until none are left (eg_run_kernel);
 *   eg_complete_kernel  the worker whose CTAs bring the done count to the grid
 *                     size: kernel_end hook, records errors, starts the next
 *                     queued kernel, wakes synchronize().
 *
 * Locking: eg.lock guards the stream counters (submitted, completed), the
 * ordinal and the pending error. Workers never take it except to complete a
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

struct eg_config {
	unsigned sms, ctas_per_sm, workers;
	enum eg_order order;
	const char *order_name;
	bool pin;
	bool calibrate; /* --dilation auto */
	const struct eg_gpu *gpu;
	uint64_t chunk_target_ns; /* --cta-chunk-target (worker.c's hand-out size) */
	uint32_t chunk_max;	  /* --cta-chunk-max */
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

/* Per worker thread; touched by its own thread and its signal handler. */
struct eg_worker {
	pthread_t thread;
	unsigned id, sm, slot;
	void *shared;	/* EG_MAX_SHARED bytes of "shared memory" */
	void *altstack; /* sigaltstack for fault recovery */
	size_t altstack_size;
	sigjmp_buf recover;
	uint64_t ticket;	      /* the CTA being run, as a ticket */
	long nvcsw;		      /* voluntary context switches so far */
	volatile sig_atomic_t in_cta; /* recover is armed */
	volatile sig_atomic_t fault_sig;
	void *volatile fault_addr;
	const struct eg_kernel *volatile kernel; /* being run */
	/* The runtime's word for the model clock (NULL: none): set when a lane
	 * of the running warp took a far fault (uvmemu.h). */
	const struct uvmemu_slot *model_slot;
};

/* The process-wide executor (executor.c). */
struct eg_executor {
	pthread_once_t cfg_once, pool_once;
	struct eg_config cfg;
	cudaError_t pool_error; /* why the pool could not start */
	_Atomic bool ready;	/* the pool runs; `pinned` is final */
	bool pinned;
	const struct uvmemu_gmmu *gmmu;
	struct eg_worker *workers;
	struct eg_kernel *slots; /* EG_QUEUE_DEPTH of them */

	/* Workers find the running kernel in `current` (its seq + 1; 0 when none
	 * runs). The first `nmain` workers, one per core, sleep on `wake_main`,
	 * the others (spares) on `wake_spare`: futex words bumped to wake them
	 * (worker.c). `faulting` carries a kernel's mode to the next one. */
	_Alignas(EG_CACHELINE) _Atomic uint32_t wake_main;
	_Atomic uint32_t wake_spare;
	_Atomic uint64_t current;
	_Atomic bool shutdown;
	_Atomic bool faulting;
	unsigned nmain;
	/* This process is a child forked after emu-gpu loaded: it has no
	 * workers (threads do not survive fork), so launches fail. */
	_Atomic bool forked;

	_Alignas(EG_CACHELINE) pthread_mutex_t lock;
	pthread_cond_t changed; /* a kernel completed, or a worker registered */
	uint64_t submitted;	/* launches queued so far */
	uint64_t completed;	/* launches finished; the stream is idle when equal */
	uint64_t ordinal;	/* program launches so far (dispatch switch) */
	cudaError_t error;	/* first kernel error since the last synchronize */
	unsigned registered;	/* workers that called uvmemu_worker_register */
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

/* Waits on eg.changed, eg.lock held. */
static inline void eg_wait_changed(void)
{
	uvmemu_executor_lock(UVMEMU_LOCK_WAIT);
	pthread_cond_wait(&eg.changed, &eg.lock);
}

/* executor.c */
const struct eg_config *eg_config(void);
/* Starts the worker pool once (and calibrates); cudaSuccess or why not. */
cudaError_t eg_pool_start(void);
/* Queues a validated launch; `args` has kernel->args_size bytes. */
cudaError_t eg_submit(const struct emu_kernel *kernel, dim3 grid, dim3 block, size_t shared_bytes,
		      const void *args, bool internal);
/* The workers that run every kernel: one per core the process may use (its
 * affinity mask, or the cores --pin uses), at most cfg->workers. */
unsigned eg_main_workers(const struct eg_config *cfg);
/* Waits until the stream is idle; returns and clears the pending error. */
cudaError_t eg_wait_idle(void);
void eg_complete_kernel(struct eg_kernel *k);

/* worker.c */
int eg_worker_start(struct eg_worker *w);
/* Publishes k as the running kernel and wakes the workers it needs. */
void eg_workers_run(struct eg_kernel *k);
/* At shutdown. */
void eg_workers_wake_all(void);
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
 * bytes/s measured now (0 if the kernel failed); the build a saved figure
 * must match; the calibration a run uses (saved, else measured). */
double eg_measure_bandwidth(void);
const char *eg_build_id(void);
void eg_calibrate(const struct eg_config *cfg);

#endif /* EG_EXECUTOR_H */
