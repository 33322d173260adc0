// SPDX-License-Identifier: MIT
/*
 * executor.c - the process-wide executor: configuration, the worker pool and
 * the default stream (launch queue, kernel start and completion, synchronize).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

#include "executor.h"
#include "uvmemu_options.h"

/*
 * The one executor instance. A process has one GPU and one default stream, and
 * the runtime's cudaDeviceSynchronize() reaches us through a plain function
 * pointer, so the state is a single static object rather than a handle.
 */
struct eg_executor eg = {
    .cfg_once = PTHREAD_ONCE_INIT,
    .pool_once = PTHREAD_ONCE_INIT,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .changed = PTHREAD_COND_INITIALIZER,
};

static enum eg_order dispatch_order(void)
{
	switch ((enum uvm_dispatch_choice)uvmemu_opt_int(UVMEMU_OPT_dispatch)) {
	case UVM_DISPATCH_DESC:
		return EG_DESC;
	case UVM_DISPATCH_SWITCH:
		return EG_SWITCH;
	case UVM_DISPATCH_ASC:
		break;
	}
	return EG_ASC;
}

static void resolve_config(void)
{
	struct eg_config *c = &eg.cfg;

	c->gpu = eg_gpu_find(uvmemu_opt_str(UVMEMU_OPT_gpu));
	if (!c->gpu) {
		/* The runtime validated the value against the same list. */
		fprintf(stderr, "emu-gpu: internal error: no preset for --gpu %s\n",
			uvmemu_opt_str(UVMEMU_OPT_gpu));
		abort();
	}
	c->sms = (unsigned)uvmemu_opt_int(UVMEMU_OPT_sms);
	if (c->sms == 0)
		c->sms = c->gpu->sms;
	c->ctas_per_sm = (unsigned)uvmemu_opt_int(UVMEMU_OPT_ctas_per_sm);
	c->workers = c->sms * c->ctas_per_sm;
	c->order = dispatch_order();
	c->order_name = uvmemu_opt_str(UVMEMU_OPT_dispatch); /* the value as validated */
	c->pin = uvmemu_opt_int(UVMEMU_OPT_pin) == UVM_PIN_ON;
	c->calibrate = uvmemu_calibration_wanted();
	c->chunk_target_ns = (uint64_t)uvmemu_opt_int(UVMEMU_OPT_cta_chunk_target);
	c->chunk_max = (uint32_t)uvmemu_opt_int(UVMEMU_OPT_cta_chunk_max);
}

const struct eg_config *eg_config(void)
{
	pthread_once(&eg.cfg_once, resolve_config);
	return &eg.cfg;
}

/* Workers free their own per-thread resources on the way out. */
static void stop_workers(unsigned started)
{
	atomic_store(&eg.shutdown, true);
	eg_workers_wake_all();
	for (unsigned i = 0; i < started; i++)
		pthread_join(eg.workers[i].thread, NULL);
}

/*
 * Workers that run every kernel: one per core the process may use (or per
 * core pinning uses), at most all of them. The others are spares that join
 * only while CTAs block (worker.c).
 */
unsigned eg_main_workers(const struct eg_config *cfg)
{
	cpu_set_t set;
	int cores = cfg->pin ? eg_pin_cores() : 0;

	if (cores <= 0 && sched_getaffinity(0, sizeof(set), &set) == 0)
		cores = CPU_COUNT(&set);
	if (cores <= 0)
		cores = 1;
	return (unsigned)cores < cfg->workers ? (unsigned)cores : cfg->workers;
}

static void start_pool(void)
{
	const struct eg_config *cfg = eg_config();
	unsigned started = 0;
	int err;

	eg.gmmu = uvmemu_gmmu_get();
	eg.slots = aligned_alloc(EG_CACHELINE, sizeof(*eg.slots) * EG_QUEUE_DEPTH);
	eg.workers = calloc(cfg->workers, sizeof(*eg.workers));
	err = -ENOMEM;
	if (!eg.slots || !eg.workers)
		goto err;
	memset(eg.slots, 0, sizeof(*eg.slots) * EG_QUEUE_DEPTH);
	/* Before the workers start: it says which futex word each sleeps on. */
	eg.nmain = eg_main_workers(cfg);
	err = eg_fault_install();
	if (err)
		goto err;
	for (; started < cfg->workers; started++) {
		struct eg_worker *w = &eg.workers[started];

		w->id = started;
		/* Consecutive workers go to different SMs, as a GPU spreads CTAs. */
		w->sm = started % cfg->sms;
		w->slot = started / cfg->sms;
		err = eg_worker_start(w);
		if (err)
			goto err_workers;
	}
	/* Every worker has named its SM to the memory system before any kernel
	 * runs, and none is still starting up when the process exits. */
	eg_lock();
	while (eg.registered < started)
		eg_wait_changed();
	eg_unlock();
	if (cfg->pin) {
		err = eg_pin_workers(eg.workers, cfg->workers);
		if (err < 0)
			fprintf(stderr,
				"emu-gpu: --pin on: cannot pin workers (%s); running unpinned\n",
				strerror(-err));
		eg.pinned = err > 0;
	}
	atomic_store(&eg.ready, true);
	if (cfg->calibrate)
		eg_calibrate(cfg);
	return;

err_workers:
	stop_workers(started);
err:
	fprintf(stderr, "emu-gpu: cannot start %u workers (sms %u x ctas-per-sm %u) after %u: %s\n",
		cfg->workers, cfg->sms, cfg->ctas_per_sm, started, strerror(-err));
	free(eg.workers);
	free(eg.slots);
	eg.workers = NULL;
	eg.slots = NULL;
	eg.pool_error = err == -ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInitializationError;
}

/* The pool's start and the calibration are the executor's work, not the
 * program's: the runtime's host clock leaves them out. */
static void start_pool_aside(void)
{
	uvmemu_executor_overhead(true);
	start_pool();
	uvmemu_executor_overhead(false);
}

cudaError_t eg_pool_start(void)
{
	pthread_once(&eg.pool_once, start_pool_aside);
	return eg.pool_error;
}

static struct eg_kernel *slot_of(uint64_t seq)
{
	return &eg.slots[seq % EG_QUEUE_DEPTH];
}

/* Runs when the stream reaches k; called without eg.lock. */
static void start_kernel(struct eg_kernel *k)
{
	if (!k->internal) {
		struct uvmemu_launch l = {.kernel = k->kernel->name,
					  .grid = k->grid,
					  .block = k->block,
					  .shared_bytes = k->shared_bytes,
					  .args = k->args,
					  .args_size = k->kernel->args_size,
					  .host_ns = k->host_ns,
					  .slots = eg.cfg.workers,
					  .cores = eg.nmain,
					  .device = k->device};

		k->index = uvmemu_kernel_begin(&l);
	}
	eg_workers_run(k);
}

/*
 * Translates every 8-byte word of the copied arguments that points into a
 * live managed allocation; the struct's own alignment makes pointer members
 * land on those words. A word that is not a pointer (two packed ints, say)
 * could fall in the managed address range, but pointing into a live
 * allocation as well takes a value the program almost never holds: the
 * allocation lookup is what keeps such words unchanged. Natively the range
 * is empty and nothing changes.
 */
/* Before eg.lock is taken: asking the runtime which words are managed
 * pointers takes its locks, and nothing of the runtime is called under
 * eg.lock (the innermost lock of the order). */
static void translate_args(unsigned char *args, size_t size, const struct uvmemu_view_map *views)
{
	if (views->host_lo == views->host_hi)
		return;
	for (size_t off = 0; off + sizeof(uint64_t) <= size; off += sizeof(uint64_t)) {
		void *p;

		memcpy(&p, args + off, sizeof(p));
		if ((uintptr_t)p < views->host_lo || (uintptr_t)p >= views->host_hi ||
		    !uvmemu_has_device_view(p))
			continue;
		p = uvmemu_view_to_device(views, p);
		memcpy(args + off, &p, sizeof(p));
	}
}

static void fill_slot(struct eg_kernel *k, uint64_t seq, const struct emu_kernel *kernel, dim3 grid,
		      dim3 block, size_t shared_bytes, const void *args, bool internal,
		      const struct uvmemu_view_map *views)
{
	bool desc = eg.cfg.order == EG_DESC;

	if (!internal && eg.cfg.order == EG_SWITCH)
		desc = eg.ordinal & 1; /* launch 0 ascending, 1 descending, ... */
	if (!internal)
		eg.ordinal++;
	k->kernel = kernel;
	k->grid = grid;
	k->block = block;
	k->nthreads = block.x * block.y * block.z;
	k->shared_bytes = shared_bytes;
	k->ncta = (uint64_t)grid.x * grid.y * grid.z;
	k->seq = seq;
	k->index = 0;
	k->desc = desc;
	k->internal = internal;
	atomic_store_explicit(&k->abort, false, memory_order_relaxed);
	atomic_store_explicit(&k->error, cudaSuccess, memory_order_relaxed);
	atomic_store_explicit(&k->faulting, false, memory_order_relaxed);
	atomic_store_explicit(&k->blocked, false, memory_order_relaxed);
	atomic_store_explicit(&k->chunk, 1, memory_order_relaxed);
	atomic_store_explicit(&k->done, 0, memory_order_relaxed);
	k->views = *views;
	memcpy(k->args, args, kernel->args_size);
}

cudaError_t eg_submit(const struct emu_kernel *kernel, dim3 grid, dim3 block, size_t shared_bytes,
		      const void *args, bool internal)
{
	struct uvmemu_view_map views = {0};
	unsigned char translated[EG_MAX_ARGS];
	uint64_t host_ns;
	struct eg_kernel *k;
	uint64_t seq;
	int device = 0;
	bool start;

	/* The calibration kernel works on ordinary memory: no translation. */
	if (!internal)
		uvmemu_get_view_map(&views);
	memcpy(translated, args, kernel->args_size);
	translate_args(translated, kernel->args_size, &views);
	/* The model clock: the host's time at the launch, not at its start. */
	host_ns = internal ? 0 : uvmemu_host_time();
	/* The launching thread's device, asked of the runtime before eg.lock
	 * as the rest is; the calibration kernel runs on device 0. */
	if (!internal && cudaGetDevice(&device) != cudaSuccess)
		device = 0;
	eg_lock();
	/* The next slot is free once the launch EG_QUEUE_DEPTH earlier
	 * completed... The position is read after the last wait: a launcher
	 * woken with others by the same completion may find the slot it waited
	 * for taken, and must wait again for the next. */
	while (eg.submitted - eg.completed >= EG_QUEUE_DEPTH)
		eg_wait_changed();
	seq = eg.submitted;
	k = slot_of(seq);
	/* ...and the workers that ran it have let go (they need no lock for that,
	 * and only the last few instructions of their loop remain). */
	while (atomic_load(&k->active) != 0)
		sched_yield();
	fill_slot(k, seq, kernel, grid, block, shared_bytes, translated, internal, &views);
	k->host_ns = host_ns;
	k->device = device;
	start = eg.completed == eg.submitted;
	eg.submitted++;
	eg_unlock();
	if (start)
		start_kernel(k);
	return cudaSuccess;
}

void eg_complete_kernel(struct eg_kernel *k)
{
	struct eg_kernel *next = NULL;
	cudaError_t e = (cudaError_t)atomic_load(&k->error);

	if (!k->internal)
		uvmemu_kernel_end(k->index);
	/* The next kernel starts with spares if this one blocked. */
	atomic_store(&eg.faulting, atomic_load(&k->blocked));
	atomic_store(&eg.current, 0);
	eg_lock();
	if (e != cudaSuccess && eg.error == cudaSuccess)
		eg.error = e;
	eg.completed++;
	if (eg.completed < eg.submitted)
		next = slot_of(eg.completed);
	/* Wake only a waiter this completion releases: synchronize() when the
	 * stream is idle, a launcher when the queue was full (eg_submit). Waking
	 * the synchronizing thread at every kernel of a queued sequence cost a
	 * context switch per launch, and on a core the workers share, their
	 * time. */
	if (eg.completed == eg.submitted || eg.completed + EG_QUEUE_DEPTH == eg.submitted + 1)
		pthread_cond_broadcast(&eg.changed);
	eg_unlock();
	if (next)
		start_kernel(next);
}

cudaError_t eg_wait_idle(void)
{
	cudaError_t e;

	eg_lock();
	while (eg.completed != eg.submitted)
		eg_wait_changed();
	e = eg.error;
	eg.error = cudaSuccess;
	eg_unlock();
	return e;
}

/* cudaDeviceSynchronize() lands here through the runtime. */
static cudaError_t synchronize(void)
{
	if (atomic_load(&eg.forked))
		return cudaErrorInitializationError;
	/* A kernel waiting for the stream it runs on would wait for itself. */
	if (eg_self())
		return cudaErrorNotSupported;
	return eg_wait_idle();
}

static const struct uvmemu_executor executor = {
    .name = "emu-gpu",
    .synchronize = synchronize,
    .stalled = eg_workers_stalled,
#ifdef EMUGPU_GMMU
    /* Accessors count every access: the memory system stops counting faults. */
    .gmmu_accessors = true,
#endif
};

static void forked_child(void)
{
	atomic_store(&eg.forked, true);
}

__attribute__((constructor)) static void emugpu_load(void)
{
	uvmemu_executor_attach(&executor);
	pthread_atfork(NULL, NULL, forked_child);
}

/*
 * At exit, idle workers are stopped and joined. If kernels are still queued
 * (the program exits without synchronizing, which CUDA allows) the workers are
 * left to die with the process: waiting could hang on a memory system that is
 * already shutting down.
 */
__attribute__((destructor)) static void emugpu_unload(void)
{
	bool idle;

	/* A forked child has none of the workers to stop. */
	if (!eg.slots || atomic_load(&eg.forked))
		return;
	eg_lock();
	idle = eg.completed == eg.submitted;
	eg_unlock();
	if (!idle)
		return;
	stop_workers(eg.cfg.workers);
	free(eg.workers);
	free(eg.slots);
	eg.workers = NULL;
	eg.slots = NULL;
}
