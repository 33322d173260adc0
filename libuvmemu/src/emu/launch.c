// SPDX-License-Identifier: MIT
/*
 * launch.c - kernel launches as the executor reports them: the capacity an
 * --oversub ratio gives, the driver's launch events, the launch
 * subscribers (the object manager), --flush-launches, and the launch's
 * trace rows (its kernel, the blocks it touched, its data reuse).
 */
#include "emu_int.h"

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "units.h"
#include "use.h"

/* Access counts are per 64 KB basic block at either unit (space.h): one
 * step of these loops is one counter, its first block standing for it. */
#define EACH_COUNTER(e, r, b)                                                                      \
	for (size_t b = ((r)->base - (e)->arena.host) >> UVM_BLOCK_SHIFT,                          \
		    b##_end = b + uvm_blocks_of((r)->size);                                        \
	     b < b##_end; b += UVM_BLOCKS_PER_BASIC)

static void rebase_allocation(const struct uvm_range *r, void *arg)
{
	struct uvm_emu *e = arg;

	EACH_COUNTER(e, r, b)
	e->access_seen[uvm_counter_of(b)] = uvm_counter_accesses(&e->space, b);
}

/*
 * --flush-launches: every managed block back on the host, so that each block
 * the launch touches faults in it; and its accesses counted from here, not
 * from the last launch's end (explicit copies in between are no launch's).
 */
static void flush_range(const struct uvm_range *r, void *arg)
{
	uvm_emu_prefetch(arg, (const void *)r->base, r->size, cudaCpuDeviceId);
}

static void flush_launch(struct uvm_emu *e)
{
	uvm_ranges_each(&e->ranges, UVM_PTR_MANAGED, flush_range, e);
	uvm_emu_synchronize(e);
	if (uvm_trace_wants_accesses(e->trace)) {
		uvm_mutex_lock(&e->lock);
		uvm_ranges_each(&e->ranges, UVM_PTR_MANAGED, rebase_allocation, e);
		uvm_mutex_unlock(&e->lock);
	}
}

/* What cudaMalloc holds of the capacity --oversub gives ("" for nothing). */
static const char *pinned_note(char *buf, size_t len, uint64_t pinned, bool on_top)
{
	char a[32];

	if (!pinned)
		return "";
	snprintf(buf, len, on_top ? " (cudaMalloc's %s on top)" : " (of which cudaMalloc holds %s)",
		 uvm_fmt_size(a, sizeof(a), pinned << UVM_BLOCK_SHIFT));
	return buf;
}

/*
 * --oversub at the first launch: each GPU with a ratio gets the managed
 * footprint over it (a list gives each GPU its own; the note names every
 * GPU's when they differ), and with --oversub-pinned out the blocks
 * cudaMalloc holds by then as well. e->lock held.
 */
static int resolve_oversub(struct uvm_emu *e)
{
	uint64_t footprint = atomic_load(&e->session->managed_bytes);
	/* One ratio for every GPU: its capacity is said once. */
	bool each = strchr(uvm_cfg_s(&e->session->cfg, UVM_OPT_oversub), ',') != NULL;
	bool on_top = uvm_cfg_i(&e->session->cfg, UVM_OPT_oversub_pinned) == UVM_OVERSUB_PINNED_OUT;
	size_t len;
	char a[32];
	int rc = 0;

	len = (size_t)snprintf(e->capacity_note, sizeof(e->capacity_note),
			       "--oversub %s of a %s managed footprint at the first launch gives",
			       uvm_cfg_s(&e->session->cfg, UVM_OPT_oversub),
			       uvm_fmt_size(a, sizeof(a), footprint));
	for (unsigned g = 0; g < e->arena.ngpus; g++) {
		double ratio = e->oversub_gpu[g];
		uint64_t blocks =
		    ratio > 0 ? (uint64_t)((double)footprint / ratio) >> UVM_BLOCK_SHIFT : 0;
		struct uvm_pool now;
		char b[32], c[64];

		if (ratio <= 0)
			continue;
		uvm_pool_snapshot(&e->pool[g], &now);
		if (on_top)
			blocks += now.pinned;
		if (len < sizeof(e->capacity_note) && (each || g == 0))
			len += (size_t)snprintf(
			    e->capacity_note + len, sizeof(e->capacity_note) - len, "%s %s%s",
			    g ? "," : "", uvm_fmt_size(b, sizeof(b), blocks << UVM_BLOCK_SHIFT),
			    pinned_note(c, sizeof(c), now.pinned, on_top));
		if (!uvm_pool_room_beside(blocks, now.pinned)) {
			snprintf(
			    e->launch_error, sizeof(e->launch_error),
			    "%s, less than one 2 MB vablock of device memory%s%s; use a smaller "
			    "ratio or a larger footprint%s",
			    e->capacity_note, now.pinned ? " beside cudaMalloc's" : "",
			    each ? " on a GPU" : "",
			    now.pinned && !on_top
				? ", or --oversub-pinned out to size the managed share alone"
				: "");
			rc = -EINVAL;
			break;
		}
		uvm_pool_set_capacity(&e->pool[g], blocks);
	}
	e->oversub = 0;
	return rc;
}

/* The record of GPU `device`'s kernel (device 0's for a bad number). */
static unsigned kernel_gpu(const struct uvm_emu *e, int device)
{
	return device >= 0 && (unsigned)device < e->arena.ngpus ? (unsigned)device : 0;
}

int uvm_emu_kernel_begin(struct uvm_emu *e, uint64_t index, const struct uvmemu_launch *launch)
{
	unsigned gpu = kernel_gpu(e, launch->device);
	__typeof__(e->kernel[0]) *k = &e->kernel[gpu];
	int rc = 0;

	uvm_mutex_lock(&e->lock);
	k->running = true;
	k->index = index;
	k->begin_ns = uvm_now_ns();
	k->launch = *launch;
	snprintf(k->name, sizeof(k->name), "%s", launch->kernel ? launch->kernel : "");
	k->launch.kernel = k->name;
	if (e->oversub > 0)
		rc = resolve_oversub(e);
	uvm_mutex_unlock(&e->lock);
	if (rc)
		return rc;
	for (unsigned g = 0; g < e->arena.ngpus; g++)
		if (uvm_pool_excess(&e->pool[g])) {
			uvm_driver_shrink(e->driver);
			break;
		}
	uvm_driver_launch(e->driver, index);
	/* A GPU runs one kernel at a time: the record is its running launch's. */
	uvm_objuse_args(e, launch, &k->objs);
	if (uvm_cfg_i(&e->session->cfg, UVM_OPT_flush_launches) == UVM_FLUSH_LAUNCHES_ON)
		flush_launch(e);
	for (size_t i = 0; i < e->nsubs && !rc; i++)
		rc = e->subs[i].begin(e->subs[i].p, index, k->name, e->launch_error,
				      sizeof(e->launch_error));
	/* After its stream's work before it (the subscribers' prefetches). */
	if (!rc && e->gpu)
		uvm_gpu_kernel_begin(e->gpu, gpu,
				     (uint64_t)launch->grid.x * launch->grid.y * launch->grid.z,
				     launch->slots, launch->cores,
				     launch->host_ns ? launch->host_ns : uvm_gpu_host_now(e->gpu));
	return rc;
}

struct access_scan {
	struct uvm_emu *e;
	uint64_t launch;
	const char *kernel;
	bool gmmu;
};

/* The accesses a launch made: each counter now, less at the last launch's
 * end (a halving in between makes the difference the count itself); a row
 * per 64 KB basic block, named by its index (arena offset >> 16) at either
 * unit, so that traces read alike whatever --page-size wrote them (trace.h). */
static void scan_allocation(const struct uvm_range *r, void *arg)
{
	struct access_scan *a = arg;
	struct uvm_emu *e = a->e;
	uint32_t alloc = e->space.vablock[(r->base - e->arena.host) >> UVM_VABLOCK_SHIFT].alloc;

	EACH_COUNTER(e, r, b)
	{
		uint32_t *seen = &e->access_seen[uvm_counter_of(b)];
		uint32_t now = uvm_counter_accesses(&e->space, b);
		uint32_t delta = now >= *seen ? now - *seen : now;

		if (delta)
			uvm_trace_access(e->trace, a->launch, a->kernel, alloc, uvm_counter_of(b),
					 delta, a->gmmu);
		*seen = now;
	}
}

struct reuse_end {
	struct uvm_reuse *reuse;
	struct uvm_reuse_launch *out;
};

/* On the driver thread, which feeds the measurement. */
static void end_reuse(void *arg)
{
	struct reuse_end *a = arg;

	uvm_reuse_end(a->reuse, a->out);
}

/* The GPU whose running kernel is launch `index`. */
static unsigned running_gpu(struct uvm_emu *e, uint64_t index)
{
	unsigned gpu = 0;

	uvm_mutex_lock(&e->lock);
	for (unsigned g = 0; g < e->arena.ngpus && g < UVM_MAX_GPUS; g++)
		if (e->kernel[g].running && e->kernel[g].index == index)
			gpu = g;
	uvm_mutex_unlock(&e->lock);
	return gpu;
}

/*
 * With several GPUs running kernels at once, the reuse measurement and the
 * accesses a launch made (both since the latest launch's begin, or the last
 * launch's end) cover the other GPUs' kernels that overlapped it too.
 */
void uvm_emu_kernel_end(struct uvm_emu *e, uint64_t index)
{
	struct access_scan a = {e, index, NULL, !uvm_emu_counts_faults(e)};
	unsigned gpu = running_gpu(e, index);
	__typeof__(e->kernel[0]) *k = &e->kernel[gpu];
	struct uvm_reuse_launch reuse;
	struct uvmemu_launch l;
	uint64_t begin, end = uvm_now_ns(), model_begin = 0, model_end = 0;

	uvm_objuse_reached(e, &k->objs);
	uvm_driver_call(e->driver, end_reuse, &(struct reuse_end){&e->reuse, &reuse});
	if (e->gpu)
		uvm_gpu_kernel_end(e->gpu, gpu, &model_begin, &model_end);
	uvm_mutex_lock(&e->lock);
	k->model_begin = model_begin;
	k->model_end = model_end;
	uvm_reuse_run_add(&e->reuse_run, &reuse);
	if (e->trace) {
		struct uvm_trace_span model = {k->model_begin, k->model_end};

		l = k->launch;
		begin = k->begin_ns;
		a.kernel = k->name;
		if (uvm_trace_wants_accesses(e->trace))
			uvm_ranges_each(&e->ranges, UVM_PTR_MANAGED, scan_allocation, &a);
		uvm_trace_kernel(e->trace, index, &l, begin, end, e->gpu ? &model : NULL, &reuse,
				 &k->objs);
	}
	k->running = false;
	uvm_mutex_unlock(&e->lock);
}

const char *uvm_emu_launch_error(const struct uvm_emu *e)
{
	return e->launch_error;
}

void uvm_emu_cta(struct uvm_emu *e, uint64_t launch, unsigned cta, unsigned sm, bool begin)
{
	/* The worker's thread id, asked for once per thread: faults name
	 * threads by it, and a system call per CTA would cost more than the
	 * record. */
	static _Thread_local uint32_t tid;

	if (!uvm_trace_wants_ctas(e->trace))
		return;
	if (!tid)
		tid = (uint32_t)syscall(SYS_gettid);
	uvm_trace_cta(e->trace, tid, sm, launch, cta, begin, uvm_now_ns());
}

/* The worker's GPU is its thread's current device (uvmemu.h). */
const struct uvmemu_slot *uvm_emu_worker_register(struct uvm_emu *e, unsigned sm)
{
	uvm_tidmap_add(&e->workers, (uint32_t)syscall(SYS_gettid), sm);
	return e->gpu ? uvm_gpu_register(e->gpu, uvm_emu_current_gpu(e), sm) : NULL;
}

void uvm_emu_run(struct uvm_emu *e, uint64_t ncta, bool begin)
{
	/* A hand-out's remote sectors are on the link before its slot ends. */
	if (!begin)
		uvm_emu_gmmu_flush(e);
	if (!e->gpu)
		return;
	if (begin)
		uvm_gpu_run_begin(e->gpu, ncta);
	else
		uvm_gpu_run_end(e->gpu, ncta);
}

void uvm_emu_warp_end(struct uvm_emu *e, bool barrier)
{
	if (e->gpu && barrier)
		uvm_gpu_barrier(e->gpu);
	else if (e->gpu)
		uvm_gpu_warp_end(e->gpu);
}

bool uvm_emu_turns(struct uvm_emu *e)
{
	return e->gpu && uvm_gpu_turns(e->gpu);
}

void uvm_emu_turn(struct uvm_emu *e, bool take)
{
	if (e->gpu && take)
		uvm_gpu_turn_take(e->gpu);
	else if (e->gpu)
		uvm_gpu_turn_pass(e->gpu);
}

uint64_t uvm_emu_launch(struct uvm_emu *e, bool begin, uint64_t host_ns)
{
	if (!e->gpu)
		return 0;
	if (begin)
		return uvm_gpu_host_pause(e->gpu);
	uvm_gpu_host_resume(e->gpu, host_ns + e->model.launch_cost_ns);
	return host_ns;
}

uint64_t uvm_emu_host_time(struct uvm_emu *e)
{
	return e->gpu ? uvm_gpu_host_now(e->gpu) : 0;
}
