// SPDX-License-Identifier: MIT
/*
 * emu.c - an emulator instance: its parts assembled (the memory system, the
 * model, the driver, observation, the launch subscribers), taken apart, and
 * what the runtime asks of the whole.
 */
#include "emu_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "capture.h"
#include "fault_cost.h"
#include "units.h"
#include "use.h"

/* The fault capture, and the backend it and the options allow. */
static int open_capture(struct uvm_emu *e, const struct uvm_config *cfg, char *err, size_t errlen)
{
	int rc = uvm_uffd_open_capture(
	    &e->uffd, (enum uvm_fault_capture_choice)uvm_cfg_i(cfg, UVM_OPT_fault_capture), err,
	    errlen);

	if (rc)
		return rc;
	e->backend = uvm_backend_choose(uvm_cfg_s(cfg, UVM_OPT_backend), &e->uffd,
					(int)uvm_cfg_i(cfg, UVM_OPT_device_node), e->backend_why,
					sizeof(e->backend_why));
	if (!e->backend) {
		snprintf(err, errlen, "%s", e->backend_why);
		return -EINVAL;
	}
	return 0;
}

/* Per-block metadata over the whole arena, reserved (the kernel backs only
 * what is touched); uvm_emu_destroy frees what was made. */
static int reserve_metadata(struct uvm_emu *e, char *err, size_t errlen)
{
	int rc = uvm_space_init(&e->space, e->arena.size);

	if (rc) {
		snprintf(err, errlen, "reserving block metadata: %s", strerror(-rc));
		return rc;
	}
	e->access_seen =
	    mmap(NULL, e->space.ncounters * sizeof(*e->access_seen), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (e->access_seen == MAP_FAILED) {
		e->access_seen = NULL;
		snprintf(err, errlen, "reserving access-trace metadata: %s", strerror(errno));
		return -ENOMEM;
	}
	rc = uvm_objuse_init(e);
	if (rc)
		snprintf(err, errlen, "reserving the launches' allocation marks: %s",
			 strerror(-rc));
	return rc;
}

/* ---------------------------------------------- what the parts ask of it */

static uint64_t clock_host_time(void *ctx)
{
	return uvm_gpu_host_now(ctx);
}

/* A wait for a device: the host's clock pauses, then joins its stream's. */
static void clock_device_wait(void *ctx, bool begin, int device)
{
	if (begin)
		uvm_gpu_host_pause(ctx);
	else
		uvm_gpu_join(ctx, device);
}

static void progress_totals(void *ctx, struct uvm_stats *out)
{
	uvm_driver_totals(((struct uvm_emu *)ctx)->driver, out);
}

static uint64_t progress_kernels(void *ctx)
{
	return atomic_load(&((struct uvm_emu *)ctx)->session->kernels);
}

static double progress_elapsed(void *ctx)
{
	return uvm_session_wall_s(((struct uvm_emu *)ctx)->session);
}

static int env_advise(void *ctx, const void *p, size_t n, enum cudaMemoryAdvise advice, int device)
{
	return uvm_emu_advise(ctx, p, n, advice, device);
}

static int env_prefetch(void *ctx, const void *p, size_t n, int device)
{
	return uvm_emu_prefetch(ctx, p, n, device);
}

static int env_synchronize(void *ctx)
{
	return uvm_emu_synchronize(ctx);
}

/* Device memory less what cudaMalloc pinned: managed data's share. */
static uint64_t env_capacity(void *ctx)
{
	struct uvm_emu *e = ctx;
	uint64_t cap = uvm_emu_device_mem(e), pinned;
	struct uvm_pool p;

	uvm_pool_snapshot(&e->pool[0], &p);
	pinned = p.pinned << UVM_BLOCK_SHIFT;
	if (cap)
		cap = cap > pinned ? cap - pinned : UVM_BLOCK_SIZE;
	return cap;
}

static int env_locate(void *ctx, uint32_t id, uint64_t *bytes, uintptr_t *base)
{
	struct uvm_emu *e = ctx;
	int rc = -ENOENT;

	uvm_mutex_lock(&e->lock);
	if (id < e->nalloc_info && e->alloc_info[id].live) {
		*bytes = e->alloc_info[id].bytes;
		*base = e->arena.host + e->alloc_info[id].off;
		rc = 0;
	}
	uvm_mutex_unlock(&e->lock);
	return rc;
}

static int objmgr_begin(void *p, uint64_t index, const char *kernel, char *err, size_t errlen)
{
	return uvm_objmgr_launch(p, index, kernel, err, errlen);
}

/* The object manager (--objects) subscribes to launches. */
static int start_objects(struct uvm_emu *e, const struct uvm_config *cfg, char *err,
			 size_t errlen)
{
	const struct uvm_objmgr_env env = {
	    .ctx = e,
	    .advise = env_advise,
	    .prefetch = env_prefetch,
	    .synchronize = env_synchronize,
	    .capacity = env_capacity,
	    .locate = env_locate,
	};
	int rc = uvm_objmgr_create(&e->objmgr, cfg, &env, err, errlen);

	if (!rc && e->objmgr)
		e->subs[e->nsubs++] = (struct uvm_launch_sub){e->objmgr, objmgr_begin};
	return rc;
}

/* Observation: the reuse measurement and the traces hear the driver's
 * residency and fault-path events, and with several GPUs the per-GPU
 * counts. Returns how many observers obs[] holds (at most 3), or an error. */
static int start_observation(struct uvm_emu *e, const struct uvm_config *cfg,
			     struct uvm_res_observer obs[3], char *err, size_t errlen)
{
	int rc = uvm_reuse_init(&e->reuse, &e->space, (uint64_t)uvm_cfg_i(cfg, UVM_OPT_seed),
				(uint64_t)uvm_cfg_i(cfg, UVM_OPT_reuse_probes) >> UVM_BLOCK_SHIFT);

	if (rc) {
		snprintf(err, errlen, "out of memory for reuse accounting");
		return rc < 0 ? rc : -ENOMEM;
	}
	rc = uvm_trace_open(&e->trace, cfg, e->session->start_ns,
			    &(struct uvm_trace_deps){&e->pool[0], &e->model, &e->workers}, err,
			    errlen);
	if (rc)
		return rc < 0 ? rc : -EIO;
	obs[0] = uvm_reuse_observer(&e->reuse);
	obs[1] = uvm_trace_observer(e->trace);
	uvm_per_gpu_init(&e->per_gpu, e->model.ngpus);
	if (e->model.ngpus > 1)
		obs[2] = uvm_per_gpu_observer(&e->per_gpu);
	/* The model clock's batches and stalls, for the timeline's modelled
	 * time (its transfers reach the trace as the link's bookings). */
	if (e->gpu) {
		struct uvm_gpu_observer go = uvm_trace_gpu_observer(e->trace);

		uvm_gpu_set_observer(e->gpu, &go);
	}
	return e->model.ngpus > 1 ? 3 : 2;
}

/* What a block's first touch costs over a second (0: not measured). */
static double map_touch_excess_us(const struct uvm_map_touch *m)
{
	return m->measured && m->first_us > m->again_us ? m->first_us - m->again_us : 0;
}

int uvm_emu_create(struct uvm_emu **out, struct uvm_session *s, char *err, size_t errlen)
{
	const struct uvm_config *cfg = &s->cfg;
	struct uvm_res_observer obs[3];
	struct uvm_emu *e;
	int rc, nobs = 0;

	/* Before anything is reserved: the unit sizes every block array. */
	if (uvm_page_size_check(cfg, err, errlen))
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	e->session = s;
	e->uffd.fd = -1;
	e->arena.memfd = -1;
	uvm_mutex_init(&e->lock, UVM_LOCK_EMU);
	uvm_ranges_init(&e->ranges);
	uvm_model_init(&e->model, cfg);
	/* Each GPU's device memory or ratio (a list gives one per device; a
	 * GPU whose ratio is 0 has its --device-mem, resolved now). */
	for (unsigned g = 0; g < UVM_MAX_GPUS; g++) {
		uint64_t dev_mem = (uint64_t)uvm_cfg_dev_i(cfg, UVM_OPT_device_mem, g);

		e->oversub_gpu[g] = uvm_cfg_dev_d(cfg, UVM_OPT_oversub, g);
		if (e->oversub_gpu[g] > 0)
			e->oversub = e->oversub_gpu[g];
		uvm_pool_init(&e->pool[g], uvm_blocks_of(dev_mem), e->oversub_gpu[g] == 0);
	}

	rc = uvm_placement_init(&e->place, cfg, err, errlen);
	if (rc)
		goto fail;
	/* Before the driver's thread starts: the probe runs alone. */
	uvm_map_touch_probe(&e->map_touch);
	rc = open_capture(e, cfg, err, errlen);
	if (rc)
		goto fail;
	rc = uvm_arena_init(&e->arena, (unsigned)uvm_cfg_i(cfg, UVM_OPT_gpus), err, errlen);
	if (rc)
		goto fail;
	if (e->uffd.sig)
		uvm_sigcap_attach(e->uffd.sig, &e->arena);
	rc = reserve_metadata(e, err, errlen);
	if (rc)
		goto fail;
	if (e->model.computed) {
		rc = uvm_gpu_create(&e->gpu, &e->model, cfg, e->space.nblocks, err, errlen);
		if (rc)
			goto fail;
		uvm_fault_cost_probe(&e->fault_cost);
		uvm_gpu_set_costs(e->gpu, e->fault_cost.us, map_touch_excess_us(&e->map_touch));
		e->session_clock =
		    (struct uvm_session_clock){e->gpu, clock_host_time, clock_device_wait};
		s->clock = &e->session_clock;
	}
	rc = start_objects(e, cfg, err, errlen);
	if (rc)
		goto fail;
	nobs = start_observation(e, cfg, obs, err, errlen);
	if (nobs < 0) {
		rc = nobs;
		goto fail;
	}
	rc = uvm_driver_start(&e->driver,
			      &(struct uvm_driver_deps){
				  .backend = e->backend,
				  .uffd = &e->uffd,
				  .arena = &e->arena,
				  .space = &e->space,
				  .model = &e->model,
				  .gpu = e->gpu,
				  .pool = e->pool,
				  .cfg = cfg,
				  .session = s,
				  .observers = obs,
				  .nobservers = (size_t)nobs,
			      },
			      err, errlen);
	if (rc)
		goto fail;
	uvm_emu_gmmu_init(e, cfg);
	uvm_progress_start(&e->progress, cfg,
			   &(struct uvm_progress_src){e, progress_totals, progress_kernels,
						      progress_elapsed});
	*out = e;
	return 0;
fail:
	uvm_emu_destroy(e);
	return rc;
}

void uvm_emu_destroy(struct uvm_emu *e)
{
	uvm_emu_progress_stop(e);
	if (e->driver)
		uvm_driver_stop(e->driver);
	/* The GPU outlives the trace: it must not tell it anything more. */
	if (e->gpu)
		uvm_gpu_set_observer(e->gpu, NULL);
	uvm_trace_close(e->trace);
	if (e->reuse.space)
		uvm_reuse_destroy(&e->reuse);
	if (e->access_seen)
		munmap(e->access_seen, e->space.ncounters * sizeof(*e->access_seen));
	uvm_objuse_destroy(e);
	uvm_objmgr_destroy(e->objmgr);
	/* Dropping the views frees every frame; the arena goes with them. */
	uvm_arena_destroy(&e->arena);
	uvm_space_destroy(&e->space);
	uvm_uffd_close(&e->uffd);
	if (e->session->clock == &e->session_clock)
		e->session->clock = NULL;
	uvm_gpu_destroy(e->gpu);
	uvm_model_destroy(&e->model);
	uvm_ranges_destroy(&e->ranges);
	uvm_mutex_destroy(&e->lock);
	free(e->alloc_info);
	free(e);
}

/* ------------------------------------------------------- the whole run */

void uvm_emu_progress_stop(struct uvm_emu *e)
{
	uvm_progress_stop(&e->progress);
}

/*
 * --compute: the price of a counted block, where the build counts them
 * (auto, blocks) and the user did not ask for CPU time. Asked for and not
 * possible, the run stops here, before its first kernel, rather than
 * measure something else than it says.
 */
static void choose_compute(struct uvm_emu *e, double block_ns)
{
	long long how = uvm_cfg_i(&e->session->cfg, UVM_OPT_compute);

	if (!e->gpu || how == UVM_COMPUTE_CPU)
		return;
	if (how == UVM_COMPUTE_BLOCKS && !(block_ns > 0)) {
		fprintf(stderr,
			"uvmemu: --compute blocks (UVMEMU_COMPUTE): no price for a basic block: "
			"the executor does not count them (configure with "
			"-DEMUGPU_COUNT_BLOCKS=ON), or its saved calibration has no block_ns "
			"(run uvmemu calibrate again); use --compute cpu or auto\n");
		exit(2);
	}
	uvm_gpu_set_block_cost(e->gpu, block_ns);
}

void uvm_emu_calibrated(struct uvm_emu *e)
{
	struct uvm_session *s = e->session;
	double measured, target, block_ns;

	uvm_mutex_lock(&s->lock);
	measured = s->calib_measured;
	target = s->calib_target;
	block_ns = s->calib_block_ns;
	uvm_mutex_unlock(&s->lock);
	uvm_model_calibrate(&e->model, measured, target);
	choose_compute(e, block_ns);
}

double uvm_emu_dilation(struct uvm_emu *e)
{
	return uvm_model_dilation(&e->model);
}

void uvm_emu_stats(struct uvm_emu *e, struct uvm_stats *out)
{
	struct uvm_pool p;

	uvm_driver_stats(e->driver, out);
	out->remote_bytes += atomic_load_explicit(&e->remote_accessed, memory_order_relaxed);
	out->remote_xacts += atomic_load_explicit(&e->remote_xacts, memory_order_relaxed);
	uvm_pool_snapshot(&e->pool[0], &p);
	out->peak_device_bytes = p.peak << UVM_BLOCK_SHIFT;
}

uint64_t uvm_emu_device_mem(struct uvm_emu *e)
{
	struct uvm_pool p;

	uvm_pool_snapshot(&e->pool[0], &p);
	return p.resolved ? p.capacity << UVM_BLOCK_SHIFT : 0;
}

bool uvm_emu_owns(const struct uvm_emu *e, uintptr_t a)
{
	const struct uvm_arena *ar = &e->arena;
	struct uvm_range r;

	return (a >= ar->host && a < ar->host + uvm_arena_span(ar)) ||
	       uvm_ranges_find_unlocked(&e->ranges, a, &r) == 0;
}

int uvm_emu_fault_is_capture(const struct uvm_emu *e, const void *addr)
{
	return e->uffd.sig && uvm_arena_is_open(&e->arena, (uintptr_t)addr);
}

bool uvm_emu_capture_blind(const struct uvm_emu *e)
{
	return e->uffd.user_mode_only || e->uffd.sig;
}

bool uvm_emu_capture_warning(const struct uvm_emu *e, char *buf, size_t len)
{
	if (!uvm_emu_capture_blind(e))
		return false;
	snprintf(buf, len,
		 "--fault-capture %s (%s): system calls other than those the runtime wraps "
		 "(read, write, recv, send and their kin; README) fail with EFAULT on managed "
		 "memory not resident on the host",
		 uvm_uffd_capture_name(&e->uffd), e->uffd.why);
	return true;
}

void uvm_emu_abandon_waits(struct uvm_emu *e)
{
	if (e->gpu)
		uvm_gpu_abandon(e->gpu);
}

/* A wait longer than this makes a run take hours or years. */
#define LONG_WAIT_NS 1000000000u

bool uvm_emu_long_wait_warning(struct uvm_emu *e, char *buf, size_t len)
{
	const struct uvm_model *m = &e->model;
	uint64_t batch, block;
	char a[32], b[32];

	if (e->gpu)
		return false;
	batch = uvm_model_scaled(m, m->fault_latency_ns);
	block = m->link.unlimited ? 0
				  : uvm_model_busy_ns(m, UVMEMU_BLOCK_SIZE) +
					uvm_model_scaled(m, m->link.latency_ns);
	if (batch <= LONG_WAIT_NS && block <= LONG_WAIT_NS)
		return false;
	snprintf(buf, len,
		 "the model makes each batch of far faults wait %s and each 64 KB transfer "
		 "take %s (--fault-latency, --link-bw, dilation %g, --clock real): a run may take "
		 "hours; SIGINT or SIGTERM still ends it with its report",
		 uvm_fmt_duration(a, sizeof(a), (double)batch / 1e9),
		 uvm_fmt_duration(b, sizeof(b), (double)block / 1e9), uvm_model_dilation(m));
	return true;
}

void uvm_emu_flush_traces(struct uvm_emu *e)
{
	uvm_trace_flush(e->trace);
}

bool uvm_emu_counts_faults(struct uvm_emu *e)
{
	const struct uvmemu_executor *ex = atomic_load(&e->session->executor);

	/* --gmmu measure: accessors only measure; faults count as without them. */
	return !ex || !ex->gmmu_accessors || e->gmmu.measure_only;
}

bool uvm_emu_counts_blocks(struct uvm_emu *e)
{
	const struct uvmemu_executor *ex = atomic_load(&e->session->executor);

	return ex && ex->counts_blocks;
}

bool uvm_emu_remote_measured(struct uvm_emu *e, uint64_t *bytes, uint64_t *xacts)
{
	const struct uvmemu_executor *ex = atomic_load(&e->session->executor);

	*bytes = atomic_load_explicit(&e->exact_bytes, memory_order_relaxed);
	*xacts = atomic_load_explicit(&e->exact_xacts, memory_order_relaxed);
	return ex && ex->gmmu_accessors && e->gmmu.measure_only;
}
