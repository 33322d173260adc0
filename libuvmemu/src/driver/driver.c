// SPDX-License-Identifier: MIT
/* driver.c - the fault-handler thread: its loop, its commands, its life. */
#include "driver_int.h"
#include "testing.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "placement.h"
#include "timing.h"
#include "uvmmu.h"

/* ------------------------------------------------------------- the loop */

/* A saturated field halves in every counter, between batches. */
static void halve_counters(struct uvm_driver *d)
{
	bool acc = d->halve_accesses || atomic_exchange(&d->halve_requested, false);

	if (acc || d->halve_trips)
		uvm_counters_halve(d->dep.space, acc, d->halve_trips);
	d->halve_accesses = d->halve_trips = false;
}

/* --check: every invariant after every batch (tests; slow). */
static void check(struct uvm_driver *d)
{
	char err[256];

	if (!d->check)
		return;
	/* The copy backend's unmaps must have landed for the views to agree. */
	uvm_tracker_wait_before(&d->tracker, UINT64_MAX);
	if (uvm_res_check(&d->res, err, sizeof(err)) == 0 &&
	    uvm_views_check(d->dep.arena, d->dep.space, d->backend.ops, err, sizeof(err)) == 0)
		return;
	fprintf(stderr, "uvmemu: internal error: residency check after batch %llu: %s\n",
		(unsigned long long)d->seq, err);
	abort();
}

static void tell_launches(struct uvm_driver *d)
{
	uint64_t now = atomic_load_explicit(&d->launch, memory_order_acquire);

	while (d->launch_seen < now)
		uvm_res_launch(&d->res, d->launch_seen++);
}

/* One pass: fetch, preprocess, service. Returns false when nothing came.
 * gpu: the batch had GPU faults the model charges a fault latency for. */
static bool service_pass(struct uvm_driver *d, bool *gpu)
{
	if (uvm_batch_take(d) == 0)
		return false;
	UVM_TIMED(d->st.ns.service, uvm_service_batch(d));
	d->st.batches++;
	/* A sampled access to a REMOTE block is the emulator's way of counting
	 * what a GPU's access counters count without stalling anyone: it costs
	 * no modelled fault latency. Every other GPU fault does. */
	for (size_t i = 0; i < d->nfault; i++)
		*gpu |= d->fault[i].gpu && !uvm_fault_emulated(&d->fault[i]);
	return true;
}

/* With GMMU accessors counting: where counters notify, after each batch
 * and scan (the policy's threshold moves as device memory fills). */
static void update_notify(struct uvm_driver *d)
{
	if (uvm_driver_counts_faults(d) || !d->res.remote_blocks)
		return;
	atomic_store_explicit(&d->dep.space->notify_at, uvm_service_notify_threshold(d),
			      memory_order_relaxed);
}

static void run_batch(struct uvm_driver *d)
{
	uint64_t t0 = uvm_now_ns();
	bool gpu = false;
	int passes = 0;
	uint64_t first;

	uvm_assert_driver_thread(d);
	first = ++d->seq; /* later passes of this service take more */
	uvm_model_batch_begin(&d->bt, t0);
	tell_launches(d);
	if (d->uvmmu) {
		/* Each fault alone; the wake-ups wait in the path's schedule. */
		if (!uvm_uvmmu_resolve(d))
			return;
		uvm_driver_publish(d, UVM_BATCH_FAULTS, t0);
		halve_counters(d);
		check(d);
		return;
	}
	while (service_pass(d, &gpu)) {
		passes++;
		/* --max-batches-per-service: nvidia-uvm's limit on one servicing pass. */
		if (d->replay != UVM_REPLAY_ONCE ||
		    passes == uvm_cfg_i(d->dep.cfg, UVM_OPT_max_batches_per_service))
			break;
		/* Once: keep servicing while faults wait, then replay once. */
		uvm_driver_publish(d, UVM_BATCH_FAULTS, t0);
		d->seq++;
	}
	if (passes == 0)
		return; /* spurious wake-up */
	uvm_driver_replay(d, gpu);

	UVM_TIMED(d->st.ns.tracker_wait, uvm_tracker_wait_before(&d->tracker, d->seq));
	uvm_driver_publish(d, UVM_BATCH_FAULTS, t0);
	halve_counters(d);
	check(d);
	uvm_driver_proactive_evict(d, first);
	update_notify(d);
}

/* An access counter notification makes the scan due at once. */
static uint64_t counter_scan_due(const struct uvm_driver *d)
{
	if (!d->res.remote_blocks || uvm_driver_counts_faults(d))
		return UINT64_MAX;
	return atomic_load(&d->counter_notified) ? 0 : d->next_counter_scan;
}

/* Without GMMU accessors, remote accesses are seen by sampling. */
static uint64_t sample_due(const struct uvm_driver *d)
{
	if ((!atomic_load_explicit(&d->res.remote_mapped, memory_order_relaxed) &&
	     !d->res.peer_mapped) ||
	    !uvm_driver_counts_faults(d))
		return UINT64_MAX;
	return d->next_sample;
}

/* The clock periodic work (sampling, counter scans) is due on: the GPU's
 * progress under the model clock, so that a period is modelled time as the
 * kernels see it; the host's real time under the real clock. */
static uint64_t periodic_now(struct uvm_driver *d)
{
	return d->dep.gpu ? uvm_gpu_progress(d->dep.gpu) : uvm_now_ns();
}

/* How often the driver reads the GPU's progress while periodic work is
 * due in modelled time (the progress moves without an event). */
#define PERIODIC_POLL_NS 1000000u

/* Periodic work due at `due` on periodic_now's clock, as a deadline on the
 * host's real clock for the driver's poll. */
static uint64_t periodic_deadline(struct uvm_driver *d, uint64_t due, uint64_t now)
{
	if (due == UINT64_MAX || !d->dep.gpu)
		return due;
	return periodic_now(d) >= due ? now : now + PERIODIC_POLL_NS;
}

static void sample(struct uvm_driver *d)
{
	uint64_t t = uvm_now_ns();

	d->seq++;
	uvm_model_batch_begin(&d->bt, t);
	d->st.sample_unmaps += uvm_service_sample_remote(d, d->sample_blocks);
	uvm_driver_claim(d, NULL, false);
	uvm_driver_publish(d, UVM_BATCH_OTHER, t);
	d->next_sample = uvm_model_next_sample(d->dep.model, periodic_now(d));
}

static void counter_scan(struct uvm_driver *d)
{
	uint64_t t = uvm_now_ns();

	/* Cleared first: a count reaching the threshold during the scan rings
	 * again. */
	atomic_store(&d->counter_notified, false);
	d->seq++;
	uvm_model_batch_begin(&d->bt, t);
	uvm_service_counter_migrations(d);
	uvm_driver_claim(d, NULL, false);
	uvm_driver_publish(d, UVM_BATCH_OTHER, t);
	d->next_counter_scan =
	    periodic_now(d) + (uint64_t)uvm_cfg_i(d->dep.cfg, UVM_OPT_counter_scan_period);
	update_notify(d);
}

/* How soon the driver looks again at the model clock's buffer while a
 * fault in it waits for a slot's clock to pass its batch's start. */
#define MODEL_POLL_NS 100000u

/* The model clock: forms the batches it may (rung: its doorbell rang). */
static void step_model(struct uvm_driver *d, bool rung)
{
	uint64_t v;

	if (rung && read(uvm_gpu_doorbell(d->dep.gpu), &v, sizeof(v)) < 0 && errno != EAGAIN)
		uvm_bug("reading the GPU clock's doorbell", 0, errno);
	d->model_pending = uvm_gpu_step(d->dep.gpu) > 0;
}

static void *driver_main(void *arg)
{
	struct uvm_driver *d = arg;

	pthread_setname_np(pthread_self(), "uvmemu-driver");
	uvm_thread_role_set(UVM_ROLE_DRIVER);
	atomic_store(&d->wait_how, uvm_clock_precise_thread());
	if (uvm_cfg_i(d->dep.cfg, UVM_OPT_pin) == UVM_PIN_ON)
		d->pinned = uvm_placement_pin_driver() == 1;
	for (;;) {
		/* Unused entries have fd -1: poll skips them. */
		struct pollfd p[4] = {
		    {d->dep.uffd->fd, POLLIN, 0},
		    {d->evfd, POLLIN, 0},
		    {d->tracker.inflight ? uvm_tracker_fd(&d->tracker) : -1, POLLIN, 0},
		    {d->dep.gpu ? uvm_gpu_doorbell(d->dep.gpu) : -1, POLLIN, 0},
		};
		uint64_t due, scan, samp, wk;
		struct timespec ts, *timeout = NULL;
		uint64_t now;
		int rc;

		if (d->uvmmu)
			uvm_uvmmu_settle(d); /* may wait: the time is read after it */
		now = uvm_now_ns();
		due = uvm_batch_next_deferred(d);
		scan = periodic_deadline(d, counter_scan_due(d), now);
		samp = periodic_deadline(d, sample_due(d), now);
		wk = uvm_uvmmu_next_wake(d);
		if (wk < due)
			due = wk;
		if (scan < due)
			due = scan;
		if (samp < due)
			due = samp;
		/* The model clock: faults wait in its buffer for a slot that
		 * could still fault earlier; its clock moves on without an
		 * event (it computes), so look again soon. */
		if (d->model_pending && now + MODEL_POLL_NS < due)
			due = now + MODEL_POLL_NS;
		if (due != UINT64_MAX) {
			uint64_t wait = due > now ? due - now : 0;

			ts = (struct timespec){(time_t)(wait / 1000000000u),
					       (long)(wait % 1000000000u)};
			timeout = &ts;
		}
		rc = ppoll(p, 4, timeout, NULL);
		if (rc < 0 && errno != EINTR)
			uvm_bug("poll", 0, errno);
		if (p[1].revents && uvm_driver_run_commands(d))
			break;
		if (p[2].revents)
			uvm_tracker_reap(&d->tracker);
		if (scan != UINT64_MAX && periodic_now(d) >= counter_scan_due(d))
			counter_scan(d);
		if (samp != UINT64_MAX && periodic_now(d) >= sample_due(d))
			sample(d);
		if (p[0].revents || (due != UINT64_MAX && due != scan && due != samp && due != wk &&
				     uvm_now_ns() >= due))
			run_batch(d);
		if (d->dep.gpu)
			step_model(d, p[3].revents != 0);
	}
	return NULL;
}

/* --------------------------------------------------------- life and API */

static int policies(struct uvm_driver *d, char *err, size_t errlen)
{
	const struct uvm_config *cfg = d->dep.cfg;
	const char *e = uvm_cfg_s(cfg, UVM_OPT_evict), *p = uvm_cfg_s(cfg, UVM_OPT_prefetch),
		   *m = uvm_cfg_s(cfg, UVM_OPT_migrate), *cp = uvm_cfg_s(cfg, UVM_OPT_cpu_prefetch);
	bool own_cpu = strcmp(cp, "same") != 0;

	d->evict = uvm_evict_find(e);
	d->prefetch = uvm_prefetch_find(p);
	d->migrate = uvm_migrate_find(m);
	d->cpu_prefetch = own_cpu ? uvm_prefetch_find(cp) : d->prefetch;
	if (!d->evict || !d->prefetch || !d->migrate || !d->cpu_prefetch) {
		snprintf(err, errlen, "no policy named '%s'",
			 !d->evict	? e
			 : !d->prefetch ? p
			 : !d->migrate	? m
					: cp);
		return -EINVAL;
	}
	/* It explains its own failure (a missing input file) in err. One per
	 * GPU: each chooses among its own GPU's copies. */
	for (unsigned g = 0; g < d->ngpus; g++) {
		d->evict_p[g] = d->evict->create(d->dep.space, cfg, err, errlen);
		if (!d->evict_p[g])
			return -EINVAL;
	}
	d->prefetch_p = d->prefetch->create(d->dep.space, cfg);
	d->cpu_prefetch_p = own_cpu ? d->cpu_prefetch->create(d->dep.space, cfg) : d->prefetch_p;
	d->migrate_p = d->migrate->create(d->dep.space, cfg);
	if (!d->prefetch_p || !d->cpu_prefetch_p || !d->migrate_p) {
		snprintf(err, errlen, "out of memory creating policies");
		return -ENOMEM;
	}
	return 0;
}

uint64_t uvm_driver_thrash_now(struct uvm_driver *d)
{
	uint64_t t;

	if (!d->thrash.enabled)
		return 0; /* nothing reads it */
	if (!d->dep.gpu)
		return uvm_now_ns();
	t = uvm_gpu_progress(d->dep.gpu);
	return t > d->model_floor ? t : d->model_floor;
}

/* Thrashing detection hears of every fault-driven migration; one to the
 * device went to the GPU that now holds the block. */
static void thrash_migrated(void *p, size_t b, enum uvm_side to)
{
	struct uvm_driver *d = p;
	uint8_t proc = uvm_thrash_proc(to, d->dep.space->block[b].gpu);

	uvm_thrash_record(&d->thrash, b, proc, uvm_driver_thrash_now(d), d->dep.model);
}

/* A block of allocation `alloc` came back after `trips` earlier returns: the
 * report's thrashing table and round-trip histogram. */
static void thrash_returned(void *p, size_t b, uint32_t alloc, uint8_t trips)
{
	struct uvm_driver *d = p;
	struct uvm_thrash_stats *t = &d->thrash_stats;

	(void)b;
	uvm_mutex_lock(&d->stats_lock);
	if (alloc >= t->nalloc) {
		size_t n = alloc + 64;
		struct uvm_alloc_thrash *a = realloc(t->alloc, n * sizeof(*a));

		if (!a) {
			uvm_mutex_unlock(&d->stats_lock);
			return; /* the per-allocation breakdown goes; totals stay exact */
		}
		memset(a + t->nalloc, 0, (n - t->nalloc) * sizeof(*a));
		t->alloc = a;
		t->nalloc = n;
	}
	t->alloc[alloc].returns++;
	t->alloc[alloc].blocks += trips == 0;
	/* The top bucket holds every block with that many round trips or more:
	 * a block already there stays. */
	if (trips + 1 < UVM_MAX_TRIPS) {
		if (trips > 0)
			t->trips[trips]--;
		t->trips[trips + 1]++;
	}
	uvm_mutex_unlock(&d->stats_lock);
}

/* The eviction policies hear of their own GPU's copies. */
static void evict_resident(void *p, size_t b)
{
	struct uvm_driver *d = p;

	if (d->evict->resident)
		d->evict->resident(d->evict_p[uvm_res_event_gpu(&d->res)], b);
}

static void evict_released(void *p, size_t b)
{
	struct uvm_driver *d = p;

	if (d->evict->released)
		d->evict->released(d->evict_p[uvm_res_event_gpu(&d->res)], b);
}

/* A touch is the faulting GPU's (d->target's while its faults are serviced). */
static void evict_touched(void *p, size_t b, bool write)
{
	struct uvm_driver *d = p;

	if (d->evict->touched)
		d->evict->touched(d->evict_p[d->target], b, write);
}

static void evict_launch(void *p, uint64_t index)
{
	struct uvm_driver *d = p;

	for (unsigned g = 0; d->evict->launch && g < d->ngpus; g++)
		d->evict->launch(d->evict_p[g], index);
}

/* Residency's observers: those the driver was given (the data reuse
 * measurement, traces), the eviction policies, thrashing detection and its
 * statistics. */
static void observe(struct uvm_driver *d)
{
	uvm_res_init(&d->res, d->dep.space, d->dep.pool, &d->st);
	uvm_res_set_gpus(&d->res, d->ngpus);
	for (size_t i = 0; i < d->dep.nobservers; i++)
		uvm_res_observe(&d->res, &d->dep.observers[i]);
	uvm_res_observe(&d->res, &(struct uvm_res_observer){
				     .p = d,
				     .resident = evict_resident,
				     .released = evict_released,
				     .touched = evict_touched,
				     .launch = evict_launch,
				 });
	uvm_res_observe(&d->res, &(struct uvm_res_observer){
				     .p = d,
				     .migrated = thrash_migrated,
				     .returned = thrash_returned,
				 });
}

/*
 * --driver-sched. Under auto the process's own class wins: one started under
 * SCHED_IDLE or SCHED_BATCH (a background job) must not have its driver raise
 * itself above the rest of the machine, and a real-time process's driver is
 * real time already.
 */
static int driver_sched(struct uvm_driver *d, int64_t choice, char *err, size_t errlen)
{
	int policy = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
	int rc;

	if (choice == UVM_DRIVER_SCHED_NORMAL) {
		snprintf(d->sched_how, sizeof(d->sched_how), "normal (--driver-sched normal)");
		return 0;
	}
	if (choice == UVM_DRIVER_SCHED_AUTO && policy != SCHED_OTHER) {
		snprintf(d->sched_how, sizeof(d->sched_how), "%s, as the process was started",
			 policy == SCHED_IDLE	 ? "SCHED_IDLE"
			 : policy == SCHED_BATCH ? "SCHED_BATCH"
						 : "real time");
		d->realtime = policy == SCHED_FIFO || policy == SCHED_RR;
		return 0;
	}
	rc = uvm_clock_realtime(d->thread);
	d->realtime = rc == 0;
	if (rc == 0)
		snprintf(d->sched_how, sizeof(d->sched_how), "SCHED_FIFO 1 (real time)");
	else if (choice == UVM_DRIVER_SCHED_FIFO)
		snprintf(err, errlen,
			 "--driver-sched fifo: SCHED_FIFO refused (%s; " UVM_REALTIME_WHO
			 " allow it); --driver-sched auto falls back to a normal thread",
			 strerror(-rc));
	else
		snprintf(d->sched_how, sizeof(d->sched_how),
			 "normal: SCHED_FIFO refused (%s; " UVM_REALTIME_WHO " allow it)",
			 strerror(-rc));
	return choice == UVM_DRIVER_SCHED_FIFO ? rc : 0;
}

int uvm_driver_start(struct uvm_driver **out, const struct uvm_driver_deps *deps, char *err,
		     size_t errlen)
{
	struct uvm_driver *d = calloc(1, sizeof(*d));
	const struct uvm_config *cfg = deps->cfg;
	void *z;
	int rc = -ENOMEM;

	if (!d)
		goto fail;
	d->dep = *deps;
	d->evfd = -1;
	d->ngpus = deps->arena->ngpus;
	d->evict_to_peer = uvm_cfg_i(cfg, UVM_OPT_evict_to) == UVM_EVICT_TO_PEER;
	uvm_mutex_init(&d->cmd_lock, UVM_LOCK_DRIVER_CMD);
	pthread_cond_init(&d->cmd_cond, NULL);
	uvm_mutex_init(&d->stats_lock, UVM_LOCK_DRIVER_STATS);
	d->max_batch = (unsigned)uvm_cfg_i(cfg, UVM_OPT_batch);
	d->host_fill = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_host_fill);
	d->wake_at_copy = deps->model->instant;
	d->replay = (enum uvm_replay_choice)uvm_cfg_i(cfg, UVM_OPT_replay);
	/* UVMMU's path wakes from its schedule (uvmmu.h); the model clock
	 * wakes a thread once its fault is committed to the GPU's clock. */
	if (uvm_cfg_i(cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU || deps->gpu) {
		d->wake_at_copy = false;
		d->replay = UVM_REPLAY_BATCH;
	}
	d->check = uvm_cfg_i(cfg, UVM_OPT_check) != 0;
	d->sample_blocks = (size_t)(uvm_cfg_i(cfg, UVM_OPT_remote_sample_size) >> UVM_BLOCK_SHIFT);
	d->proactive_blocks =
	    ((uint64_t)uvm_cfg_i(cfg, UVM_OPT_proactive_evict) + UVM_BLOCK_SIZE - 1) >>
	    UVM_BLOCK_SHIFT;
	d->remote_sample_bytes = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_remote_sample_bytes);
	d->fault = calloc(d->max_batch, sizeof(*d->fault));
	d->deferred = calloc(d->max_batch, sizeof(*d->deferred));
	d->stamped = calloc(d->max_batch, sizeof(*d->stamped));
	d->backend = (struct uvm_backend){
	    .ops = deps->backend,
	    .uffd = deps->uffd,
	    .arena = deps->arena,
	    .tracker = &d->tracker,
	    .st = &d->st,
	    .seq = &d->seq,
	    .wake = d->wake_at_copy ? UVM_MAP_WAKE : 0,
	};
	/* The copy backend's zero-fills copy from pages never written: every
	 * one reads as the kernel's zero page. */
	z = deps->backend->shared_frames
		? NULL
		: mmap(NULL, UVM_VABLOCK_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!d->fault || !d->deferred || !d->stamped || z == MAP_FAILED) {
		snprintf(err, errlen, "out of memory starting the driver");
		goto fail;
	}
	d->backend.zeros = (uintptr_t)z;
	d->next_sample = uvm_model_next_sample(d->dep.model, periodic_now(d));
	rc = policies(d, err, errlen);
	if (rc)
		goto fail;
	observe(d);
	if (uvm_cfg_i(cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU) {
		rc = uvm_uvmmu_create(d, err, errlen);
		if (rc)
			goto fail;
	}
	rc = uvm_thrash_init(&d->thrash, cfg, deps->space->nblocks);
	if (rc) {
		snprintf(err, errlen, "out of memory for thrashing detection");
		goto fail;
	}
	rc = uvm_tracker_init(&d->tracker, deps->space,
			      uvm_cfg_i(cfg, UVM_OPT_async) == UVM_ASYNC_ON);
	if (rc) {
		snprintf(err, errlen, "starting the tracker: %s", strerror(-rc));
		goto fail;
	}
	d->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (d->evfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		goto fail;
	}
	rc = -pthread_create(&d->thread, NULL, driver_main, d);
	if (rc) {
		snprintf(err, errlen, "starting the driver thread: %s", strerror(-rc));
		goto fail;
	}
	d->started = true;
	rc = driver_sched(d, uvm_cfg_i(cfg, UVM_OPT_driver_sched), err, errlen);
	if (rc)
		goto fail;
	*out = d;
	return 0;
fail:
	if (d)
		uvm_driver_stop(d);
	return rc;
}

void uvm_driver_stop(struct uvm_driver *d)
{
	if (d->started) {
		uvm_driver_command(d, UVM_CMD_STOP, 0, 0);
		pthread_join(d->thread, NULL);
		/* Threads still waiting for a fault would wait forever. */
		for (size_t i = 0; i < d->ndeferred; i++)
			uvm_uffd_wake(d->dep.uffd, uvm_fault_addr(d, &d->deferred[i]),
				      UVM_PAGE_SIZE);
	}
	uvm_uvmmu_destroy(d);
	uvm_tracker_destroy(&d->tracker);
	uvm_thrash_destroy(&d->thrash);
	for (unsigned g = 0; g < d->ngpus; g++)
		if (d->evict_p[g])
			d->evict->destroy(d->evict_p[g]);
	if (d->cpu_prefetch_p && d->cpu_prefetch_p != d->prefetch_p)
		d->cpu_prefetch->destroy(d->cpu_prefetch_p);
	if (d->prefetch_p)
		d->prefetch->destroy(d->prefetch_p);
	if (d->migrate_p)
		d->migrate->destroy(d->migrate_p);
	if (d->evfd >= 0)
		close(d->evfd);
	if (d->backend.zeros)
		munmap((void *)d->backend.zeros, UVM_VABLOCK_SIZE);
	free(d->thrash_stats.alloc);
	free(d->fault);
	free(d->deferred);
	free(d->stamped);
	free(d->wake);
	uvm_mutex_destroy(&d->cmd_lock);
	pthread_cond_destroy(&d->cmd_cond);
	uvm_mutex_destroy(&d->stats_lock);
	free(d);
}

/* Probes of the last launch its kernel never touched are mapped again. */
static void unprobe_left(struct uvm_driver *d)
{
	const struct uvm_space *s = d->dep.space;

	for (size_t i = 0; i < d->nprobe; i++) {
		size_t b = d->probe[i].first, end = b + d->probe[i].n;

		while (b < end) {
			size_t run = 0;

			while (b + run < end && s->block[b + run].state == UVM_DEVICE &&
			       (s->block[b + run].flags & UVM_BF_PROBED))
				run++;
			if (run)
				uvm_op_unprobe(d, b, run);
			b += run ? run : 1;
		}
	}
	d->nprobe = 0;
}

static void launch_begin(void *arg)
{
	struct uvm_driver *d = arg;
	uint64_t t = uvm_now_ns();
	bool counts = uvm_driver_counts_faults(d);

	d->seq++;
	tell_launches(d);
	unprobe_left(d);
	/* The reuse probes unmap one view: with several GPUs, not measured. */
	d->nprobe = d->ngpus > 1 ? 0
				 : uvm_res_probe(&d->res, !counts, counts && d->backend.ops->probe,
						 d->probe);
	for (size_t i = 0; i < d->nprobe; i++)
		uvm_op_probe(d, d->probe[i].first, d->probe[i].n);
	uvm_driver_publish(d, UVM_BATCH_OTHER, t);
}

void uvm_driver_launch(struct uvm_driver *d, uint64_t index)
{
	uint64_t cur = atomic_load(&d->launch);

	while (cur < index + 1 && !atomic_compare_exchange_weak(&d->launch, &cur, index + 1))
		;
	/* Policies hear of the launch now, and the reuse measurement begins
	 * before the kernel's first access. */
	uvm_driver_call(d, launch_begin, d);
}

const char *uvm_driver_sync_reason(struct uvm_driver *d)
{
	return d->tracker.why_sync;
}

const char *uvm_driver_sched_how(const struct uvm_driver *d)
{
	return *d->sched_how ? d->sched_how : "not started";
}

bool uvm_driver_realtime(const struct uvm_driver *d)
{
	return d->realtime;
}

const char *uvm_driver_wait_how(struct uvm_driver *d)
{
	const char *how = atomic_load(&d->wait_how);

	return how ? how : "not started";
}

uint64_t uvm_driver_direct_fault(struct uvm_driver *d, uint64_t page, bool write)
{
	return uvm_uvmmu_direct(d, page, write);
}

static void sample_now(void *arg)
{
	sample(arg);
}

void uvm_driver_sample(struct uvm_driver *d)
{
	uvm_driver_call(d, sample_now, d);
}
