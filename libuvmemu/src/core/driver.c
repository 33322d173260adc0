// SPDX-License-Identifier: MIT
/* driver.c - the fault-handler thread: its loop, time model and commands. */
#include "driver_int.h"

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
#include "uvmmu.h"

void uvm_driver_bug(const char *what, size_t block, int err)
{
	fprintf(stderr, "uvmemu: internal error: %s (block %zu): %s\n", what, block,
		strerror(err < 0 ? -err : err));
	abort();
}

/* ------------------------------------------------------------- the loop */

/*
 * The time model: a batch with GPU faults costs the far-fault latency, and
 * no thread wakes before the last of its transfers completes on the link.
 * Whatever real time servicing took counts against both; what remains is
 * waited here, first as fault latency, then as link throttle.
 */
static void model_wait(struct uvm_driver *d, uint64_t t0, bool gpu)
{
	double dil = uvm_link_dilation(d->dep.link);
	uint64_t lat_end = gpu ? t0 + (uint64_t)((double)d->fault_latency_ns * dil) : t0;
	uint64_t end = lat_end > d->model_end ? lat_end : d->model_end;
	uint64_t now = uvm_now_ns();
	uint64_t lat_part;

	if (gpu || d->model_end > t0)
		d->st.modelled_batches++;
	d->model_end = end; /* the batch's modelled end, as its trace row reports it */
	if (now >= end) {
		if (now > end && (gpu || d->model_end > t0))
			d->st.model_overruns++;
		return;
	}
	lat_part = lat_end > now ? lat_end - now : 0;
	/* A wake-up later than a tenth of the batch's modelled time is the
	 * model overrun by the host's scheduler, not by the emulator's work. */
	if (uvm_driver_wait(d, now, end) > (end - t0) / 10)
		d->st.late_wakes++;
	d->st.ns.fault_latency += lat_part;
	d->st.ns.throttle += end - now - lat_part;
}

uint64_t uvm_driver_wait(struct uvm_driver *d, uint64_t now, uint64_t end)
{
	uint64_t late;

	if (end <= now)
		return 0;
	uvm_wait_until(end);
	late = uvm_elapsed_ns(end);
	d->st.ns.late_wake += late;
	return late;
}

static void wake_all(struct uvm_driver *d)
{
	for (size_t i = 0; i < d->nwake; i++) {
		int rc = uvm_uffd_wake(d->dep.uffd, d->wake[i].addr, d->wake[i].len);

		if (rc)
			uvm_driver_bug("waking faulting threads", 0, rc);
	}
	d->nwake = 0;
}

/* Waits for the model (fault latency, link), then wakes the faulting threads:
 * the replay stage is the wake-ups alone. */
void uvm_driver_replay(struct uvm_driver *d, uint64_t t0, bool gpu)
{
	model_wait(d, t0, gpu);
	UVM_TIMED(d->st.ns.replay, wake_all(d));
}

/* Folds the batch's counters into the run's totals and, when tracing, writes
 * them as one row: the rows add up to the totals. Evictions outside a batch
 * (a shrinking pool) get a row of their own. */
static void publish(struct uvm_driver *d, enum uvm_trace_kind kind, uint64_t start)
{
	static const struct uvm_stats zero;

	if (memcmp(&d->st, &zero, sizeof(zero)) == 0)
		return;
	uvm_mutex_lock(&d->stats_lock);
	uvm_stats_add(&d->totals, &d->st);
	uvm_mutex_unlock(&d->stats_lock);
	uvm_trace_batch(d->dep.trace, kind, d->seq, start, d->model_end, &d->st);
	memset(&d->st, 0, sizeof(d->st));
}

bool uvm_driver_counts_faults(const struct uvm_driver *d)
{
	const struct uvmemu_executor *ex = atomic_load(&d->dep.session->executor);

	return !ex || !ex->gmmu_accessors;
}

void uvm_driver_trace_fault(struct uvm_driver *d, const struct uvm_fault *f)
{
	struct uvm_trace_fault row;
	uint64_t launch = atomic_load_explicit(&d->launch, memory_order_relaxed);

	if (!uvm_trace_wants_faults(d->dep.trace))
		return;
	row = (struct uvm_trace_fault){
	    .t_ns = d->batch_t0 - d->dep.session->start_ns,
	    .page = f->page,
	    .launch = launch ? launch - 1 : UINT64_MAX,
	    .tid = f->tid,
	    .sm = uvm_workers_sm(d->dep.workers, f->tid),
	    .count = f->count,
	    .gpu = f->gpu,
	    .write = f->write,
	    .outcome = f->outcome,
	};
	uvm_trace_fault(d->dep.trace, &row);
}

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

static void run_batch(struct uvm_driver *d)
{
	uint64_t t0 = uvm_now_ns();
	bool gpu = false;
	int passes = 0;

	d->seq++;
	d->model_end = t0;
	d->batch_t0 = t0;
	tell_launches(d);
	if (d->uvmmu) {
		/* Each fault alone; the wake-ups wait in the path's schedule. */
		if (!uvm_uvmmu_resolve(d))
			return;
		publish(d, UVM_TRACE_BATCH, t0);
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
		publish(d, UVM_TRACE_BATCH, t0);
		d->seq++;
	}
	if (passes == 0)
		return; /* spurious wake-up */
	uvm_driver_replay(d, t0, gpu);

	UVM_TIMED(d->st.ns.tracker_wait, uvm_tracker_wait_before(&d->tracker, d->seq));
	publish(d, UVM_TRACE_BATCH, t0);
	halve_counters(d);
	check(d);
}

/* ------------------------------------------------------------- commands */

static void cmd_free(struct uvm_driver *d, struct uvm_cmd *c)
{
	size_t first = c->off >> UVM_BLOCK_SHIFT;
	size_t n = (c->len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;
	size_t dropped = 0;

	uvm_tracker_settle(&d->tracker, first, n);
	uvm_thrash_forget(&d->thrash, first, n);
	/* Deferred faults of the freed range are dropped and their threads
	 * woken here, or nothing would wake them (neither a release nor an
	 * unmap wakes a thread waiting on a userfaultfd). A woken thread
	 * faults again, on a range now unallocated (uvm_service_batch). */
	for (size_t i = 0; i < d->ndeferred; i++) {
		const struct uvm_fault *f = &d->deferred[i];

		if (f->page >= c->off && f->page < c->off + c->len) {
			int rc = uvm_uffd_wake(d->dep.uffd,
					       (f->gpu ? d->dep.arena->dev : d->dep.arena->host) +
						   f->page,
					       UVM_PAGE_SIZE);

			if (rc)
				uvm_driver_bug("waking a fault of a freed range", f->page, rc);
			dropped++;
		} else {
			d->deferred[i - dropped] = *f;
		}
	}
	d->ndeferred -= dropped;
	uvm_res_free(&d->res, c->off, c->len);
	c->result = 0;
}

static void cmd_prefetch(struct uvm_driver *d, struct uvm_cmd *c)
{
	uint64_t t = uvm_now_ns();
	size_t first = c->off >> UVM_BLOCK_SHIFT;
	size_t n = ((c->off + c->len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT) - first;

	d->seq++; /* the prefetched vablocks are in use, nothing else */
	d->model_end = t;
	uvm_service_prefetch(d, first, n, c->to_device);
	if (d->model_end > d->prefetch_end)
		d->prefetch_end = d->model_end;
	/* Nobody waits on a prefetched range: wake-ups recorded for it (CPU
	 * side operations add them) are harmless and dropped here. */
	wake_all(d);
	publish(d, UVM_TRACE_EVICTION, t);
	c->result = 0;
}

static void cmd_advise(struct uvm_driver *d, struct uvm_cmd *c)
{
	struct uvm_space *s = d->dep.space;
	size_t first = c->off >> UVM_BLOCK_SHIFT;
	size_t end = (c->off + c->len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;

	d->seq++;
	for (size_t b = first; b < end; b++) {
		s->block[b].advice = (uint8_t)((s->block[b].advice & ~c->clear) | c->set);
		/* Read-mostly withdrawn: a duplicated block keeps its device
		 * copy, now the only one. */
		if ((c->clear & UVM_ADV_READ_MOSTLY) && s->block[b].state == UVM_DUPLICATED)
			uvm_op_dup_to_device(d, b, 1);
	}
	wake_all(d);
	publish(d, UVM_TRACE_EVICTION, uvm_now_ns());
	c->result = 0;
}

static bool run_commands(struct uvm_driver *d)
{
	bool stop = false;
	uint64_t v;

	if (read(d->evfd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		uvm_driver_bug("reading the command doorbell", 0, errno);
	uvm_mutex_lock(&d->cmd_lock);
	while (d->cmd_head) {
		struct uvm_cmd *c = d->cmd_head;

		d->cmd_head = c->next;
		if (!d->cmd_head)
			d->cmd_tail = NULL;
		uvm_mutex_unlock(&d->cmd_lock);
		switch (c->kind) {
		case UVM_CMD_FREE:
			cmd_free(d, c);
			break;
		case UVM_CMD_SHRINK: {
			uint64_t t = uvm_now_ns();

			d->seq++; /* nothing is in use */
			uvm_service_evict_all_excess(d);
			publish(d, UVM_TRACE_EVICTION, t);
			c->result = 0;
			break;
		}
		case UVM_CMD_FLUSH:
			/* Commands run between batches: everything so far is in. */
			publish(d, UVM_TRACE_EVICTION, uvm_now_ns());
			c->result = 0;
			break;
		case UVM_CMD_CALL:
			c->fn(c->arg);
			c->result = 0;
			break;
		case UVM_CMD_PREFETCH:
			cmd_prefetch(d, c);
			break;
		case UVM_CMD_ADVISE:
			cmd_advise(d, c);
			break;
		case UVM_CMD_STOP:
			stop = true;
			c->result = 0;
			break;
		}
		uvm_mutex_lock(&d->cmd_lock);
		if (c->async) {
			free(c);
			continue;
		}
		c->done = true;
		pthread_cond_broadcast(&d->cmd_cond);
	}
	uvm_mutex_unlock(&d->cmd_lock);
	return stop;
}

/* Queues c behind every earlier command and rings the driver's doorbell. */
static int enqueue(struct uvm_driver *d, struct uvm_cmd *c)
{
	uint64_t one = 1;

	uvm_mutex_lock(&d->cmd_lock);
	if (d->cmd_tail)
		d->cmd_tail->next = c;
	else
		d->cmd_head = c;
	d->cmd_tail = c;
	uvm_mutex_unlock(&d->cmd_lock);
	return write(d->evfd, &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
}

static int submit(struct uvm_driver *d, struct uvm_cmd *cmd)
{
	struct uvm_cmd c = *cmd;
	int rc;

	/* The driver thread takes locks of its own while it works. */
	uvm_lock_assert_handoff(UVM_LOCK_INTERRUPT, "the driver thread");
	rc = enqueue(d, &c);
	if (rc)
		return rc;
	uvm_mutex_lock(&d->cmd_lock);
	while (!c.done)
		uvm_cond_wait(&d->cmd_cond, &d->cmd_lock);
	uvm_mutex_unlock(&d->cmd_lock);
	return c.result;
}

static int command(struct uvm_driver *d, enum uvm_cmd_kind kind, uint64_t off, uint64_t len)
{
	struct uvm_cmd c = {.kind = kind, .off = off, .len = len};

	return submit(d, &c);
}

int uvm_driver_prefetch(struct uvm_driver *d, uint64_t off, uint64_t len, bool to_device)
{
	struct uvm_cmd *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	*c = (struct uvm_cmd){.kind = UVM_CMD_PREFETCH,
			      .off = off,
			      .len = len,
			      .to_device = to_device,
			      .async = true};
	return enqueue(d, c);
}

static void read_prefetch_end(void *arg)
{
	struct uvm_driver *d = ((void **)arg)[0];

	*(uint64_t *)((void **)arg)[1] = d->prefetch_end;
}

void uvm_driver_sync(struct uvm_driver *d)
{
	uint64_t end = 0;
	void *arg[2] = {d, &end};

	/* Commands run in order: this one runs after every queued prefetch. */
	uvm_driver_call(d, read_prefetch_end, arg);
	uvm_wait_until(end);
}

int uvm_driver_advise(struct uvm_driver *d, uint64_t off, uint64_t len, uint8_t set, uint8_t clear)
{
	struct uvm_cmd c = {
	    .kind = UVM_CMD_ADVISE, .off = off, .len = len, .set = set, .clear = clear};

	return submit(d, &c);
}

void uvm_driver_call(struct uvm_driver *d, void (*fn)(void *arg), void *arg)
{
	struct uvm_cmd c = {.kind = UVM_CMD_CALL, .fn = fn, .arg = arg};

	submit(d, &c);
}

static uint64_t counter_scan_due(const struct uvm_driver *d)
{
	if (!d->res.remote_blocks || uvm_driver_counts_faults(d))
		return UINT64_MAX;
	return d->next_counter_scan;
}

/* Without GMMU accessors, remote accesses are seen by sampling. */
static uint64_t sample_due(const struct uvm_driver *d)
{
	if (!atomic_load_explicit(&d->res.remote_mapped, memory_order_relaxed) ||
	    !uvm_driver_counts_faults(d))
		return UINT64_MAX;
	return d->next_sample;
}

static void sample(struct uvm_driver *d)
{
	uint64_t t = uvm_now_ns();

	d->seq++;
	d->model_end = t;
	d->st.sample_unmaps += uvm_service_sample_remote(d, d->sample_blocks);
	publish(d, UVM_TRACE_EVICTION, t);
	d->next_sample =
	    uvm_now_ns() + (uint64_t)((double)d->sample_period_ns * uvm_link_dilation(d->dep.link));
}

static void counter_scan(struct uvm_driver *d)
{
	uint64_t t = uvm_now_ns();

	d->seq++;
	d->model_end = t;
	uvm_service_counter_migrations(d);
	publish(d, UVM_TRACE_EVICTION, t);
	d->next_counter_scan =
	    uvm_now_ns() + (uint64_t)uvm_cfg_i(d->dep.cfg, UVM_OPT_counter_scan_period);
}

static void *driver_main(void *arg)
{
	struct uvm_driver *d = arg;

	pthread_setname_np(pthread_self(), "uvmemu-driver");
	atomic_store(&d->wait_how, uvm_clock_precise_thread());
	if (uvm_cfg_i(d->dep.cfg, UVM_OPT_pin) == UVM_PIN_ON)
		d->pinned = uvm_placement_pin_driver() == 1;
	for (;;) {
		struct pollfd p[3] = {
		    {d->dep.uffd->fd, POLLIN, 0},
		    {d->evfd, POLLIN, 0},
		    {uvm_tracker_fd(&d->tracker), POLLIN, 0},
		};
		nfds_t n;
		uint64_t due, scan, samp, wk;
		struct timespec ts, *timeout = NULL;
		uint64_t now;
		int rc;

		if (d->uvmmu)
			uvm_uvmmu_settle(d); /* may wait: the time is read after it */
		now = uvm_now_ns();
		n = d->tracker.inflight ? 3 : 2;
		due = uvm_batch_next_deferred(d);
		scan = counter_scan_due(d);
		samp = sample_due(d);
		wk = uvm_uvmmu_next_wake(d);
		if (wk < due)
			due = wk;
		if (scan < due)
			due = scan;
		if (samp < due)
			due = samp;
		if (due != UINT64_MAX) {
			uint64_t wait = due > now ? due - now : 0;

			ts = (struct timespec){(time_t)(wait / 1000000000u),
					       (long)(wait % 1000000000u)};
			timeout = &ts;
		}
		rc = ppoll(p, n, timeout, NULL);
		if (rc < 0 && errno != EINTR)
			uvm_driver_bug("poll", 0, errno);
		if (p[1].revents && run_commands(d))
			break;
		if (n == 3 && p[2].revents)
			uvm_tracker_reap(&d->tracker);
		if (scan != UINT64_MAX && uvm_now_ns() >= scan)
			counter_scan(d);
		if (samp != UINT64_MAX && uvm_now_ns() >= samp)
			sample(d);
		if (p[0].revents || (due != UINT64_MAX && due != scan && due != samp && due != wk &&
				     uvm_now_ns() >= due))
			run_batch(d);
	}
	return NULL;
}

/* --------------------------------------------------------- life and API */

static int policies(struct uvm_driver *d, char *err, size_t errlen)
{
	const struct uvm_config *cfg = d->dep.cfg;
	const char *e = uvm_cfg_s(cfg, UVM_OPT_evict), *p = uvm_cfg_s(cfg, UVM_OPT_prefetch),
		   *m = uvm_cfg_s(cfg, UVM_OPT_migrate);

	d->evict = uvm_evict_find(e);
	d->prefetch = uvm_prefetch_find(p);
	d->migrate = uvm_migrate_find(m);
	if (!d->evict || !d->prefetch || !d->migrate) {
		snprintf(err, errlen, "no policy named '%s'", !d->evict ? e : !d->prefetch ? p : m);
		return -EINVAL;
	}
	/* It explains its own failure (a missing input file) in err. */
	d->evict_p = d->evict->create(d->dep.space, cfg, err, errlen);
	if (!d->evict_p)
		return -EINVAL;
	d->prefetch_p = d->prefetch->create(d->dep.space, cfg);
	d->migrate_p = d->migrate->create(d->dep.space, cfg);
	if (!d->evict_p || !d->prefetch_p || !d->migrate_p) {
		snprintf(err, errlen, "out of memory creating policies");
		return -ENOMEM;
	}
	return 0;
}

/* Thrashing detection hears of every fault-driven migration. */
static void thrash_migrated(void *p, size_t b, enum uvm_side to)
{
	struct uvm_driver *d = p;

	uvm_thrash_record(&d->thrash, b, to, uvm_now_ns(), uvm_link_dilation(d->dep.link));
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
	if (trips > 0)
		t->trips[trips]--;
	if (trips + 1 < UVM_MAX_TRIPS)
		t->trips[trips + 1]++;
	uvm_mutex_unlock(&d->stats_lock);
}

/* Residency's observers: the data reuse measurement, the eviction policy,
 * thrashing detection and its statistics. */
static void observe(struct uvm_driver *d)
{
	struct uvm_res_observer reuse = uvm_reuse_observer(&d->reuse);

	uvm_res_init(&d->res, d->dep.space, d->dep.pool, &d->st);
	uvm_res_observe(&d->res, &reuse);
	uvm_res_observe(&d->res, &(struct uvm_res_observer){
				     .p = d->evict_p,
				     .resident = d->evict->resident,
				     .released = d->evict->released,
				     .touched = d->evict->touched,
				     .launch = d->evict->launch,
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
	uvm_mutex_init(&d->cmd_lock, UVM_LOCK_DRIVER_CMD);
	pthread_cond_init(&d->cmd_cond, NULL);
	uvm_mutex_init(&d->stats_lock, UVM_LOCK_DRIVER_STATS);
	d->max_batch = (unsigned)uvm_cfg_i(cfg, UVM_OPT_batch);
	d->fault_latency_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_fault_latency);
	d->host_fill = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_host_fill);
	d->wake_at_copy = d->fault_latency_ns == 0 && deps->link->unlimited;
	d->replay = (int)uvm_cfg_i(cfg, UVM_OPT_replay); /* block|batch|batch_flush|once */
	if (uvm_cfg_i(cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU) { /* uvmmu.h wakes */
		d->wake_at_copy = false;
		d->replay = UVM_REPLAY_BATCH;
	}
	d->check = uvm_cfg_i(cfg, UVM_OPT_check) != 0;
	d->sample_period_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_remote_sample_period);
	d->sample_blocks = (size_t)(uvm_cfg_i(cfg, UVM_OPT_remote_sample_size) >> UVM_BLOCK_SHIFT);
	d->remote_sample_bytes = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_remote_sample_bytes);
	d->fault = calloc(d->max_batch, sizeof(*d->fault));
	d->deferred = calloc(d->max_batch, sizeof(*d->deferred));
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
	if (!d->fault || !d->deferred || z == MAP_FAILED) {
		snprintf(err, errlen, "out of memory starting the driver");
		goto fail;
	}
	d->backend.zeros = (uintptr_t)z;
	d->next_sample = uvm_now_ns() + d->sample_period_ns;
	rc = policies(d, err, errlen);
	if (rc)
		goto fail;
	rc = uvm_reuse_init(&d->reuse, deps->space, (uint64_t)uvm_cfg_i(cfg, UVM_OPT_seed),
			    (uint64_t)uvm_cfg_i(cfg, UVM_OPT_reuse_probes) >> UVM_BLOCK_SHIFT);
	if (rc) {
		snprintf(err, errlen, "out of memory for reuse accounting");
		goto fail;
	}
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
		command(d, UVM_CMD_STOP, 0, 0);
		pthread_join(d->thread, NULL);
		/* Threads still waiting for a fault would wait forever. */
		for (size_t i = 0; i < d->ndeferred; i++)
			uvm_uffd_wake(
			    d->dep.uffd,
			    (d->deferred[i].gpu ? d->dep.arena->dev : d->dep.arena->host) +
				d->deferred[i].page,
			    UVM_PAGE_SIZE);
	}
	uvm_uvmmu_destroy(d);
	uvm_tracker_destroy(&d->tracker);
	uvm_thrash_destroy(&d->thrash);
	if (d->reuse.space)
		uvm_reuse_destroy(&d->reuse);
	if (d->evict_p)
		d->evict->destroy(d->evict_p);
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
	free(d->wake);
	uvm_mutex_destroy(&d->cmd_lock);
	pthread_cond_destroy(&d->cmd_cond);
	uvm_mutex_destroy(&d->stats_lock);
	free(d);
}

int uvm_driver_free_range(struct uvm_driver *d, uint64_t off, uint64_t len)
{
	return command(d, UVM_CMD_FREE, off, len);
}

int uvm_driver_shrink(struct uvm_driver *d)
{
	return command(d, UVM_CMD_SHRINK, 0, 0);
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
	d->nprobe = uvm_reuse_begin(&d->reuse, !counts, counts && d->backend.ops->probe, d->probe);
	for (size_t i = 0; i < d->nprobe; i++)
		uvm_op_probe(d, d->probe[i].first, d->probe[i].n);
	publish(d, UVM_TRACE_EVICTION, t);
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

struct launch_end_arg {
	struct uvm_driver *d;
	struct uvm_reuse_launch *out;
};

static void launch_end(void *arg)
{
	struct launch_end_arg *a = arg;

	uvm_reuse_end(&a->d->reuse, a->out);
}

void uvm_driver_launch_end(struct uvm_driver *d, struct uvm_reuse_launch *reuse)
{
	struct launch_end_arg a = {d, reuse};

	uvm_driver_call(d, launch_end, &a);
}

void uvm_driver_request_halving(struct uvm_driver *d)
{
	atomic_store(&d->halve_requested, true);
}

void uvm_driver_account(struct uvm_driver *d, const struct uvm_stats *delta)
{
	uvm_mutex_lock(&d->stats_lock);
	uvm_stats_add(&d->totals, delta);
	uvm_mutex_unlock(&d->stats_lock);
}

void uvm_driver_totals(struct uvm_driver *d, struct uvm_stats *out)
{
	uvm_mutex_lock(&d->stats_lock);
	*out = d->totals;
	uvm_mutex_unlock(&d->stats_lock);
}

void uvm_driver_thrash_stats(struct uvm_driver *d, struct uvm_thrash_stats *out)
{
	uvm_mutex_lock(&d->stats_lock);
	*out = d->thrash_stats;
	out->alloc = malloc((out->nalloc ? out->nalloc : 1) * sizeof(*out->alloc));
	if (!out->alloc)
		out->nalloc = 0;
	else if (out->nalloc)
		memcpy(out->alloc, d->thrash_stats.alloc, out->nalloc * sizeof(*out->alloc));
	uvm_mutex_unlock(&d->stats_lock);
}

static void sample_now(void *arg)
{
	sample(arg);
}

void uvm_driver_sample(struct uvm_driver *d)
{
	uvm_driver_call(d, sample_now, d);
}

uint64_t uvm_driver_remote_mapped(struct uvm_driver *d)
{
	return atomic_load_explicit(&d->res.remote_mapped, memory_order_relaxed);
}

static void read_remote_blocks(void *arg)
{
	struct uvm_driver *d = ((void **)arg)[0];

	*(uint64_t *)((void **)arg)[1] = d->res.remote_blocks;
}

uint64_t uvm_driver_remote_blocks(struct uvm_driver *d)
{
	uint64_t n = 0;
	void *arg[2] = {d, &n};

	uvm_driver_call(d, read_remote_blocks, arg);
	return n;
}

void uvm_driver_stats(struct uvm_driver *d, struct uvm_stats *out)
{
	/* A thread woken by a batch may ask before that batch is published. */
	command(d, UVM_CMD_FLUSH, 0, 0);
	uvm_mutex_lock(&d->stats_lock);
	*out = d->totals;
	uvm_mutex_unlock(&d->stats_lock);
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
