// SPDX-License-Identifier: MIT
/*
 * executor.c - the process-wide executor: configuration, a worker pool and a
 * default stream per device (launch queue, kernel start and completion,
 * synchronize).
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
 * The one executor instance. A process has its GPUs, each with one default
 * stream, and the runtime's cudaDeviceSynchronize() reaches us through a
 * plain function pointer, so the state is a single static object rather than
 * a handle.
 */
struct eg_executor eg = {
    .cfg_once = PTHREAD_ONCE_INIT,
    .start_lock = PTHREAD_MUTEX_INITIALIZER,
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

/* Device dev's preset and SMs. */
static void resolve_device(struct eg_config *c, unsigned dev)
{
	struct eg_dev_config *d = &c->dev[dev];

	d->gpu = eg_gpu_find(uvmemu_opt_dev_str(UVMEMU_OPT_gpu, dev));
	if (!d->gpu) {
		/* The runtime validated the value against the same list. */
		fprintf(stderr, "emu-gpu: internal error: no preset for --gpu %s\n",
			uvmemu_opt_dev_str(UVMEMU_OPT_gpu, dev));
		abort();
	}
	d->sms = (unsigned)uvmemu_opt_dev_int(UVMEMU_OPT_sms, dev);
	if (d->sms == 0)
		d->sms = d->gpu->sms;
	d->workers = d->sms * c->ctas_per_sm;
}

static void resolve_config(void)
{
	struct eg_config *c = &eg.cfg;
	int n = 1;

	/* The runtime's --gpus (1 natively unless it says otherwise). */
	if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1)
		n = 1;
	c->ndev = (unsigned)n < UVMEMU_MAX_DEVICES ? (unsigned)n : UVMEMU_MAX_DEVICES;
	c->ctas_per_sm = (unsigned)uvmemu_opt_int(UVMEMU_OPT_ctas_per_sm);
	for (unsigned d = 0; d < c->ndev; d++) {
		resolve_device(c, d);
		eg.dev[d].id = d;
		eg.dev[d].cfg = &c->dev[d];
	}
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

unsigned eg_current_device(void)
{
	int dev = 0;

	if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || (unsigned)dev >= eg_config()->ndev)
		dev = 0;
	return (unsigned)dev;
}

/* Workers free their own per-thread resources on the way out. */
static void stop_workers(struct eg_device *d, unsigned started)
{
	atomic_store(&eg.shutdown, true);
	eg_workers_wake_all(d);
	for (unsigned i = 0; i < started; i++)
		pthread_join(d->workers[i].thread, NULL);
}

/*
 * Workers that run every kernel: one per core the process may use (or per
 * core pinning uses), at most all of them. The others are spares that join
 * only while CTAs block (worker.c).
 */
unsigned eg_main_workers(const struct eg_config *cfg, unsigned workers)
{
	cpu_set_t set;
	int cores = cfg->pin ? eg_pin_cores() : 0;

	if (cores <= 0 && sched_getaffinity(0, sizeof(set), &set) == 0)
		cores = CPU_COUNT(&set);
	if (cores <= 0)
		cores = 1;
	return (unsigned)cores < workers ? (unsigned)cores : workers;
}

/* Device d's pool; eg.start_lock held. */
static void start_pool(struct eg_device *d)
{
	const struct eg_config *cfg = eg_config();
	const struct eg_dev_config *dc = d->cfg;
	unsigned started = 0;
	int err;

	/* Once, before the first pool's workers start: later pools' starts
	 * must not write what running workers read. */
	if (!eg.gmmu_known) {
		eg.gmmu = uvmemu_gmmu_get();
		eg.gmmu_known = true;
	}
	d->slots = aligned_alloc(EG_CACHELINE, sizeof(*d->slots) * EG_QUEUE_DEPTH);
	d->workers = calloc(dc->workers, sizeof(*d->workers));
	err = -ENOMEM;
	if (!d->slots || !d->workers)
		goto err;
	memset(d->slots, 0, sizeof(*d->slots) * EG_QUEUE_DEPTH);
	/* Before the workers start: it says which futex word each sleeps on. */
	d->nmain = eg_main_workers(cfg, dc->workers);
	err = eg_fault_install();
	if (err)
		goto err;
	for (; started < dc->workers; started++) {
		struct eg_worker *w = &d->workers[started];

		w->dev = d;
		w->id = started;
		/* Consecutive workers go to different SMs, as a GPU spreads CTAs. */
		w->sm = started % dc->sms;
		w->slot = started / dc->sms;
		err = eg_worker_start(w);
		if (err)
			goto err_workers;
	}
	/* Every worker has named its SM to the memory system before any kernel
	 * runs, and none is still starting up when the process exits. */
	eg_lock();
	while (d->registered < started)
		eg_wait_changed();
	eg_unlock();
	if (cfg->pin) {
		err = eg_pin_workers(d->workers, dc->workers);
		if (err < 0)
			fprintf(stderr,
				"emu-gpu: --pin on: cannot pin workers (%s); running unpinned\n",
				strerror(-err));
		d->pinned = err > 0;
	}
	atomic_store(&d->ready, true);
	/* Once per run, on the first pool, where no saved calibration was
	 * found at load: the dilation is the model's. */
	if (cfg->calibrate && !eg.calibrated) {
		eg.calibrated = true;
		eg_calibrate_measured(cfg, d->id);
	}
	return;

err_workers:
	stop_workers(d, started);
err:
	fprintf(stderr,
		"emu-gpu: cannot start device %u's %u workers (sms %u x ctas-per-sm %u) after %u: "
		"%s\n",
		d->id, dc->workers, dc->sms, cfg->ctas_per_sm, started, strerror(-err));
	free(d->workers);
	free(d->slots);
	d->workers = NULL;
	d->slots = NULL;
	d->pool_error = err == -ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInitializationError;
}

/*
 * A device's pool starts at its first launch: a program that uses one GPU
 * of several starts no threads for the others. The pool's start and the
 * calibration are the executor's work, not the program's: the runtime's host
 * clock leaves them out.
 */
cudaError_t eg_pool_start(unsigned dev)
{
	struct eg_device *d = &eg.dev[dev];

	if (!atomic_load(&d->started)) {
		pthread_mutex_lock(&eg.start_lock);
		if (!atomic_load(&d->started)) {
			uvmemu_executor_overhead(true);
			start_pool(d);
			uvmemu_executor_overhead(false);
			atomic_store(&d->started, true);
		}
		pthread_mutex_unlock(&eg.start_lock);
	}
	return d->pool_error;
}

static struct eg_kernel *slot_of(struct eg_device *d, uint64_t seq)
{
	return &d->slots[seq % EG_QUEUE_DEPTH];
}

/* Runs when device d's stream reaches k; called without eg.lock. */
static void start_kernel(struct eg_device *d, struct eg_kernel *k)
{
	if (!k->internal) {
		struct uvmemu_launch l = {.kernel = k->kernel->name,
					  .grid = k->grid,
					  .block = k->block,
					  .shared_bytes = k->shared_bytes,
					  .args = k->args,
					  .args_size = k->kernel->args_size,
					  .host_ns = k->host_ns,
					  .slots = d->cfg->workers,
					  .cores = d->nmain,
					  .device = k->device};

		k->index = uvmemu_kernel_begin(&l);
	}
	eg_workers_run(d, k);
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

static void fill_slot(struct eg_device *d, struct eg_kernel *k, uint64_t seq,
		      const struct emu_kernel *kernel, dim3 grid, dim3 block, size_t shared_bytes,
		      const void *args, bool internal, const struct uvmemu_view_map *views)
{
	bool desc = eg.cfg.order == EG_DESC;

	/* Each GPU's launches alternate (one block scheduler per GPU). */
	if (!internal && eg.cfg.order == EG_SWITCH)
		desc = d->ordinal & 1; /* launch 0 ascending, 1 descending, ... */
	if (!internal)
		d->ordinal++;
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

cudaError_t eg_submit(unsigned dev, const struct emu_kernel *kernel, dim3 grid, dim3 block,
		      size_t shared_bytes, const void *args, bool internal)
{
	struct eg_device *d = &eg.dev[dev];
	struct uvmemu_view_map views = {0};
	unsigned char translated[EG_MAX_ARGS];
	uint64_t host_ns;
	struct eg_kernel *k;
	uint64_t seq;
	bool start;

	/* The calibration kernel works on ordinary memory: no translation. */
	if (!internal)
		uvmemu_get_view_map(&views);
	memcpy(translated, args, kernel->args_size);
	translate_args(translated, kernel->args_size, &views);
	/* The model clock: the host's time at the launch, not at its start;
	 * what the launch costs the host is the model's (uvmemu.h). */
	host_ns = internal ? 0 : uvmemu_launch_begin();
	eg_lock();
	/* The next slot is free once the launch EG_QUEUE_DEPTH earlier
	 * completed... The position is read after the last wait: a launcher
	 * woken with others by the same completion may find the slot it waited
	 * for taken, and must wait again for the next. */
	while (d->submitted - d->completed >= EG_QUEUE_DEPTH)
		eg_wait_changed();
	seq = d->submitted;
	k = slot_of(d, seq);
	/* ...and the workers that ran it have let go (they need no lock for that,
	 * and only the last few instructions of their loop remain). */
	while (atomic_load(&k->active) != 0)
		sched_yield();
	fill_slot(d, k, seq, kernel, grid, block, shared_bytes, translated, internal, &views);
	k->host_ns = host_ns;
	k->device = (int)dev;
	start = d->completed == d->submitted;
	d->submitted++;
	eg_unlock();
	if (start)
		start_kernel(d, k);
	if (!internal)
		uvmemu_launch_end(host_ns);
	return cudaSuccess;
}

void eg_complete_kernel(struct eg_device *d, struct eg_kernel *k)
{
	struct eg_kernel *next = NULL;
	cudaError_t e = (cudaError_t)atomic_load(&k->error);

	if (!k->internal)
		uvmemu_kernel_end(k->index);
	/* The next kernel starts with spares if this one blocked. */
	atomic_store(&d->faulting, atomic_load(&k->blocked));
	atomic_store(&d->current, 0);
	eg_lock();
	if (e != cudaSuccess && d->error == cudaSuccess)
		d->error = e;
	d->completed++;
	if (d->completed < d->submitted)
		next = slot_of(d, d->completed);
	/* Wake only a waiter this completion releases: synchronize() when the
	 * stream is idle, a launcher when the queue was full (eg_submit). Waking
	 * the synchronizing thread at every kernel of a queued sequence cost a
	 * context switch per launch, and on a core the workers share, their
	 * time. */
	if (d->completed == d->submitted || d->completed + EG_QUEUE_DEPTH == d->submitted + 1)
		pthread_cond_broadcast(&eg.changed);
	eg_unlock();
	if (next)
		start_kernel(d, next);
}

/* eg.lock held. */
static cudaError_t wait_idle_locked(struct eg_device *d)
{
	cudaError_t e;

	while (d->completed != d->submitted)
		eg_wait_changed();
	e = d->error;
	d->error = cudaSuccess;
	return e;
}

cudaError_t eg_wait_idle(unsigned dev)
{
	cudaError_t e;

	eg_lock();
	e = wait_idle_locked(&eg.dev[dev]);
	eg_unlock();
	return e;
}

/*
 * cudaDeviceSynchronize() lands here through the runtime, for the calling
 * thread's current device: another device's stream goes on (CUDA's waits
 * for the current device only). cudaFree and the end of a region of
 * interest wait for every device (-1) and return the first error met; each
 * device's pending error is cleared as it is read (CUDA reports an
 * asynchronous error once).
 */
static cudaError_t synchronize(int device)
{
	const struct eg_config *cfg = eg_config();
	cudaError_t e = cudaSuccess;

	if (atomic_load(&eg.forked))
		return cudaErrorInitializationError;
	/* A kernel waiting for a stream (its own, or one that waits for its
	 * device's stream) could wait for itself. */
	if (eg_self())
		return cudaErrorNotSupported;
	eg_lock();
	for (unsigned i = 0; i < cfg->ndev; i++) {
		cudaError_t f;

		if (device >= 0 && (unsigned)device != i)
			continue;
		f = wait_idle_locked(&eg.dev[i]);
		if (e == cudaSuccess)
			e = f;
	}
	eg_unlock();
	return e;
}

static const struct uvmemu_executor executor = {
    .name = "emu-gpu",
    .synchronize = synchronize,
    .stalled = eg_workers_stalled,
#ifdef EMUGPU_GMMU
    /* Accessors count every access: the memory system stops counting faults. */
    .gmmu_accessors = true,
#endif
#ifdef EMUGPU_COUNT_BLOCKS
    .counts_blocks = true,
#endif
};

static void forked_child(void)
{
	atomic_store(&eg.forked, true);
}

__attribute__((constructor)) static void emugpu_load(void)
{
	const struct eg_config *cfg;

	uvmemu_executor_attach(&executor);
	pthread_atfork(NULL, NULL, forked_child);
	/* A saved calibration prices the GPU's work before main() runs: found
	 * only when the first pool starts, the host's clock would run on CPU
	 * time until the first kernel, and a region of interest that begins
	 * before it would move with the machine's load. A calibration that has
	 * to be measured still waits for the first pool. */
	cfg = eg_config();
	if (cfg->calibrate)
		eg.calibrated = eg_calibrate_saved(cfg);
}

/*
 * At exit, idle workers are stopped and joined. If kernels are still queued on
 * any device (the program exits without synchronizing, which CUDA allows)
 * every device's workers are left to die with the process: waiting could hang
 * on a memory system that is already shutting down, and the shutdown flag is
 * every pool's.
 */
__attribute__((destructor)) static void emugpu_unload(void)
{
	unsigned ndev = eg.cfg.ndev;
	bool idle = true;

	/* A forked child has none of the workers to stop. */
	if (atomic_load(&eg.forked))
		return;
	eg_lock();
	for (unsigned i = 0; i < ndev; i++)
		idle = idle && eg.dev[i].completed == eg.dev[i].submitted;
	eg_unlock();
	if (!idle)
		return;
	for (unsigned i = 0; i < ndev; i++) {
		struct eg_device *d = &eg.dev[i];

		if (!d->slots)
			continue;
		stop_workers(d, d->cfg->workers);
		free(d->workers);
		free(d->slots);
		d->workers = NULL;
		d->slots = NULL;
	}
}
