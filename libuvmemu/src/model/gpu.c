// SPDX-License-Identifier: MIT
/*
 * gpu.c - the GPUs' clocks under --clock model (gpu.h): workers' slot
 * clocks, each GPU's modelled CTA slots, stream and fault buffer, the
 * driver's batches, the host's clock.
 */
#include "gpu.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "abandon.h"
#include "batcher.h"
#include "blocks_run.h"
#include "lock_order.h"
#include "model.h"
#include "gpu_priv.h"
#include "tidmap.h"
#include "timing.h"

/* ------------------------------------------------------------- clocks */

static uint64_t thread_cpu(void)
{
	return uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* Counted blocks as CPU time. */
static uint64_t priced(const struct uvm_gpu *g, uint64_t blocks)
{
	return (uint64_t)((double)blocks * g->block_ns);
}

/*
 * The calling worker's work so far: ns of its CPU clock, or under --compute
 * blocks the basic blocks of kernel code it ran (common/blocks_run.h),
 * priced only as a difference (compute_cpu): a price rounded per read
 * would make one CTA's compute depend by a nanosecond on which thread ran
 * it, and in turns such a nanosecond can reorder a tie. Only differences
 * between two reads on one thread mean anything.
 */
static uint64_t work_now(const struct uvm_gpu *g)
{
	return g->block_ns > 0 ? uvm_blocks_run_self() : thread_cpu();
}

/* The same, of worker w, read from another thread (the driver's); false
 * if its CPU clock cannot be read. */
static bool work_of(const struct uvm_gpu *g, const struct worker *w, uint64_t *out)
{
	struct timespec ts;

	if (g->block_ns > 0) {
		*out = atomic_load_explicit(w->blocks, memory_order_relaxed);
		return true;
	}
	if (clock_gettime(w->cpu, &ts))
		return false;
	*out = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return true;
}

/* What cpu_ns of worker w's CPU time is on its GPU. */
static uint64_t modelled(const struct uvm_gpu *g, const struct worker *w, uint64_t cpu_ns)
{
	return (uint64_t)((double)cpu_ns * g->dev[w->dev].per_cpu_ns);
}

/* The kernel's share of w's CPU time from cpu0 to cpu (work_now's), in
 * ns: what its faults cost the thread (and the clock read that marked cpu0)
 * is not its. */
static uint64_t compute_cpu(const struct uvm_gpu *g, const struct worker *w, uint64_t cpu)
{
	uint64_t spent = cpu > w->cpu0 ? cpu - w->cpu0 : 0;
	uint64_t not_kernel;

	/* Counted blocks hold nothing of the emulator's. */
	if (g->block_ns > 0)
		return priced(g, spent);
	not_kernel = (uint64_t)w->faults * g->fault_cpu_ns + g->read_cpu_ns;

	return spent > not_kernel ? spent - not_kernel : 0;
}

/* Worker w's clock when its thread's CPU time reads cpu. */
static uint64_t clock_at(const struct uvm_gpu *g, const struct worker *w, uint64_t cpu)
{
	return w->t + modelled(g, w, compute_cpu(g, w, cpu));
}

/*
 * The host thread's work: its CPU time, or under --compute blocks the basic
 * blocks of program code it ran, which a fault's trap, the kernel's page
 * table work and a busy machine do not move (anchor_r if the thread is
 * gone: the clock waits for the next thread to synchronise).
 */
static uint64_t host_work(const struct uvm_gpu *g)
{
	struct timespec ts;

	if (clock_gettime(g->host_clk, &ts))
		return g->anchor_r;
	if (g->block_ns > 0)
		return atomic_load_explicit(g->host_blocks, memory_order_relaxed);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The host's clock: host code runs at the host's speed, so a counted block
 * costs the host what it cost the calibration kernel's CPU, undilated. */
static uint64_t host_now_locked(const struct uvm_gpu *g)
{
	uint64_t work = host_work(g), since = work > g->anchor_r ? work - g->anchor_r : 0;

	return g->anchor_h + (g->block_ns > 0 ? priced(g, since) : since);
}

/* The host's clock reads h now; the calling thread is the host's. */
static void anchor_here(struct uvm_gpu *g, uint64_t h)
{
	clockid_t c;

	if (pthread_getcpuclockid(pthread_self(), &c) == 0)
		g->host_clk = c;
	g->host_blocks = uvm_blocks_run_ptr();
	g->anchor_h = h;
	g->anchor_r = host_work(g);
}

static void ring(struct uvm_gpu *g)
{
	uint64_t one = 1;

	if (g->waiting && write(g->doorbell, &one, sizeof(one)) < 0)
		g->waiting = true; /* a full counter is rung already */
}

/* ------------------------------------------------------------ arrivals */

static uint64_t ready_of(const struct uvm_gpu *g, uint64_t b)
{
	return atomic_load_explicit(&g->ready[b], memory_order_relaxed);
}

static void set_ready(struct uvm_gpu *g, uint64_t b, uint64_t v)
{
	atomic_store_explicit(&g->ready[b], v, memory_order_relaxed);
}

static bool follows(uint64_t r)
{
	return r != PENDING && (r & FOLLOWS);
}

/* The block whose ledger holds b's transfers: its own, or while b arrives
 * with another block's service, that block's (a lead that moved again with
 * a later service is followed there, a few steps at most). */
static uint64_t owner(const struct uvm_gpu *g, uint64_t b)
{
	for (int hop = 0; hop < 4; hop++) {
		uint64_t r = ready_of(g, b);

		if (!follows(r) || (r & ~FOLLOWS) >= g->nblocks)
			return b;
		b = r & ~FOLLOWS;
	}
	return b;
}

/* When b's data is there in modelled time (0: long since; PENDING: its
 * batch has not formed). A block that came with another's service takes
 * that block's time once it is known. Not within a step: charge() marks an
 * owner 0 for a moment. */
static uint64_t arrival(struct uvm_gpu *g, uint64_t b)
{
	uint64_t r = ready_of(g, b);

	if (!follows(r))
		return r;
	r = ready_of(g, owner(g, b));
	if (r == PENDING || follows(r))
		return PENDING;
	set_ready(g, b, r);
	return r;
}

/* ---------------------------------------------------------- life */

/*
 * The dilation D is against GPU 0's preset (it is the run's: calibrated, or
 * given); a GPU of another preset (--gpu a,b) runs the same kernel code
 * faster or slower by the ratio of their DRAM bandwidths, the figure D
 * itself is measured on.
 */
static void set_speeds(struct uvm_gpu *g, const struct uvm_config *cfg)
{
	double base = uvm_gpu_preset_bytes_per_s(uvm_cfg_dev_s(cfg, UVM_OPT_gpu, 0));

	for (unsigned d = 0; d < UVMEMU_MAX_DEVICES; d++) {
		double bw = uvm_gpu_preset_bytes_per_s(uvm_cfg_dev_s(cfg, UVM_OPT_gpu, d));

		g->dev[d].speed = base > 0 && bw > 0 ? bw / base : 1;
	}
}

int uvm_gpu_create(struct uvm_gpu **out, struct uvm_model *m, const struct uvm_config *cfg,
		   size_t nblocks, char *err, size_t errlen)
{
	struct uvm_gpu *g = calloc(1, sizeof(*g));

	if (!g)
		goto nomem;
	g->model = m;
	uvm_mutex_init(&g->lock, UVM_LOCK_GPU_CLOCK);
	g->per_fault = uvm_cfg_i(cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU;
	g->latency_ns = g->per_fault ? m->uvmmu_latency_ns : m->fault_latency_ns;
	g->vablock_ns = g->per_fault ? 0 : (uint64_t)uvm_cfg_i(cfg, UVM_OPT_vablock_cost);
	g->batch_max = g->per_fault ? 1u : (unsigned)uvm_cfg_i(cfg, UVM_OPT_batch);
	g->ndev = m->ngpus ? m->ngpus : 1;
	if (g->ndev > UVMEMU_MAX_DEVICES)
		g->ndev = UVMEMU_MAX_DEVICES;
	/* UVMMU's hardware has no buffer to read: each fault goes alone. */
	for (unsigned d = 0; d < UVMEMU_MAX_DEVICES; d++)
		uvm_batcher_init(&g->dev[d].buf, g->batch_max,
				 g->per_fault ? 0 : (uint64_t)uvm_cfg_i(cfg, UVM_OPT_fetch_window),
				 g->per_fault ? 0 : (uint64_t)uvm_cfg_i(cfg, UVM_OPT_fault_gap));
	g->fig.ndev = g->ndev;
	set_speeds(g, cfg);
	g->w = calloc(UVM_TIDMAP_SLOTS, sizeof(*g->w));
	g->taken = calloc(g->batch_max, sizeof(*g->taken));
	g->doorbell = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	g->nblocks = nblocks;
	g->ledger = mmap(NULL, nblocks * sizeof(*g->ledger), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	g->ready = mmap(NULL, nblocks * sizeof(*g->ready), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!g->w || !g->taken || g->doorbell < 0 || g->ledger == MAP_FAILED ||
	    g->ready == MAP_FAILED) {
		if (g->ledger == MAP_FAILED)
			g->ledger = NULL;
		if (g->ready == MAP_FAILED)
			g->ready = NULL;
		uvm_gpu_destroy(g);
		goto nomem;
	}
	memset(g->sm_first, 0xff, sizeof(g->sm_first)); /* -1: no worker */
	uvm_turn_init(g, uvm_cfg_i(cfg, UVM_OPT_schedule) == UVM_SCHEDULE_MODEL);
	g->turn.automatic = uvm_cfg_i(cfg, UVM_OPT_schedule) == UVM_SCHEDULE_AUTO;
	g->ctas_per_sm = (unsigned)uvm_cfg_i(cfg, UVM_OPT_ctas_per_sm);
	g->host_clk = CLOCK_THREAD_CPUTIME_ID;
	anchor_here(g, 0);
	*out = g;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for the GPU's clock");
	return -ENOMEM;
}

void uvm_gpu_destroy(struct uvm_gpu *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nw; i++)
		free(g->w[i]);
	free(g->w);
	for (unsigned d = 0; d < UVMEMU_MAX_DEVICES; d++) {
		free(g->dev[d].free_t);
		free(g->dev[d].held);
		uvm_batcher_destroy(&g->dev[d].buf);
	}
	free(g->taken);
	if (g->ledger)
		munmap(g->ledger, g->nblocks * sizeof(*g->ledger));
	if (g->ready)
		munmap((void *)g->ready, g->nblocks * sizeof(*g->ready));
	if (g->doorbell >= 0)
		close(g->doorbell);
	uvm_mutex_destroy(&g->lock);
	free(g);
}

void uvm_gpu_set_costs(struct uvm_gpu *g, double fault_cpu_us, double map_touch_us)
{
	uint64_t t0 = thread_cpu();

	/* A read of the thread's CPU clock, timed on itself. */
	for (int i = 0; i < 63; i++)
		thread_cpu();
	uvm_mutex_lock(&g->lock);
	g->read_cpu_ns = (thread_cpu() - t0) / 64;
	g->fault_cpu_ns = (uint64_t)((fault_cpu_us + map_touch_us) * 1e3);
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_set_block_cost(struct uvm_gpu *g, double block_ns)
{
	uint64_t h;

	uvm_mutex_lock(&g->lock);
	/* The host's clock goes on in the new measure from where it is. */
	h = host_now_locked(g);
	g->block_ns = block_ns > 0 ? block_ns : 0;
	g->anchor_h = h;
	g->anchor_r = host_work(g);
	/* --schedule auto: in turns where compute is counted, the one case
	 * where turns make a run repeat exactly. */
	if (g->turn.automatic)
		g->turn.on = g->block_ns > 0;
	uvm_mutex_unlock(&g->lock);
}

double uvm_gpu_block_cost(const struct uvm_gpu *g)
{
	return g->block_ns;
}

int uvm_gpu_doorbell(const struct uvm_gpu *g)
{
	return g->doorbell;
}

/* ------------------------------------------------------------ observer */

void uvm_gpu_set_observer(struct uvm_gpu *g, const struct uvm_gpu_observer *o)
{
	uvm_mutex_lock(&g->lock);
	g->obs = o ? *o : (struct uvm_gpu_observer){0};
	uvm_mutex_unlock(&g->lock);
}

/* A batch just counted: its figures are the totals' growth since `was`. */
static void tell_batch(struct uvm_gpu *g, const struct uvm_gpu_figures *was, unsigned dev,
		       uint64_t start, uint64_t end)
{
	if (!g->obs.batch)
		return;
	g->obs.batch(g->obs.ctx, &(struct uvm_gpu_batch){
				     .seq = g->fig.batches,
				     .gpu = dev,
				     .start_ns = start,
				     .end_ns = end,
				     .faults = (uint32_t)(g->fig.faults - was->faults),
				     .vablocks = (uint32_t)(g->fig.vablocks - was->vablocks),
				     .pages = (uint32_t)(g->fig.pages - was->pages),
				     .h2d_bytes = g->fig.bytes_h2d - was->bytes_h2d,
				     .d2h_bytes = g->fig.bytes_d2h - was->bytes_d2h,
				 });
}

/* ------------------------------------------------------------ workers */

/* Its slot's clock has reached w->t: an accessor's access to a block that
 * arrives no later is a hit without asking (uvm_gpu_late). */
static void publish(struct worker *w)
{
	atomic_store_explicit(&w->pub.clock_lb, w->t, memory_order_relaxed);
}

const struct uvmemu_slot *uvm_gpu_register(struct uvm_gpu *g, unsigned dev, unsigned sm)
{
	struct worker *w = calloc(1, sizeof(*w));
	const struct uvmemu_slot *slot = NULL;

	if (!w || pthread_getcpuclockid(pthread_self(), &w->cpu)) {
		free(w);
		return NULL; /* the worker runs unmodelled: its faults cost nothing */
	}
	w->blocks = uvm_blocks_run_ptr();
	w->dev = dev < g->ndev ? dev : 0;
	w->sm = sm;
	w->held = -1;
	uvm_mutex_lock(&g->lock);
	if (g->nw == UVM_TIDMAP_SLOTS)
		goto out;
	w->idx = (uint32_t)g->nw;
	w->next_on_sm = -1;
	w->next_at_gate = -1;
	if (sm < SM_MAX) {
		w->next_on_sm = g->sm_first[w->dev][sm];
		g->sm_first[w->dev][sm] = (int32_t)w->idx;
	}
	g->w[g->nw] = w;
	uvm_tidmap_add(&g->tids, (uint32_t)syscall(SYS_gettid), (uint32_t)g->nw);
	g->nw++;
	slot = &w->pub;
	w = NULL;
out:
	uvm_mutex_unlock(&g->lock);
	free(w);
	return slot;
}

struct worker *uvm_gpu_self(struct uvm_gpu *g)
{
	int64_t i = uvm_tidmap_get(&g->tids, (uint32_t)syscall(SYS_gettid));

	/* Its own index, set by itself: no lock needed to read its record. */
	return i >= 0 && i < UVM_TIDMAP_SLOTS ? g->w[i] : NULL;
}

int uvm_gpu_next_slot(const struct dev *d)
{
	return uvm_gpu_ctas_left(d) ? uvm_gpu_earliest_free(d) : -1;
}

int uvm_gpu_earliest_free(const struct dev *d)
{
	int best = -1;

	for (unsigned i = 0; i < d->nslots; i++)
		if (!d->held[i] && (best < 0 || d->free_t[i] < d->free_t[best]))
			best = (int)i;
	return best;
}

void uvm_gpu_run_begin(struct uvm_gpu *g, uint64_t ncta)
{
	uint64_t cpu = work_now(g);
	struct worker *w;
	struct dev *d;
	int s;

	uvm_mutex_lock(&g->lock);
	w = uvm_gpu_self(g);
	d = w ? &g->dev[w->dev] : NULL;
	s = d && d->k.running ? uvm_gpu_earliest_free(d) : -1;
	if (s >= 0) {
		d->held[s] = true;
		w->held = s;
		w->t = d->free_t[s];
		w->done_t = 0; /* completions of an earlier hand-out are past */
		w->cpu0 = cpu;
		w->faults = 0;
		w->lb = w->t;
		w->lb_at = uvm_now_ns();
		publish(w);
		w->state = W_RUN;
		w->run_ncta = ncta;
		w->run_faulted = false;
		d->k.begun += ncta;
		if (g->turn.on && d->k.begun >= d->k.ncta)
			uvm_turn_close(g, w->dev);
	}
	uvm_mutex_unlock(&g->lock);
}

/*
 * A hand-out that never stalled ran its CTAs one after another on this
 * worker, but on the GPU they would have gone to whichever slots were free
 * first: list scheduling, each CTA its share of the hand-out's compute.
 */
static void spread(struct dev *d, struct worker *w, uint64_t compute)
{
	uint64_t each = compute / (w->run_ncta ? w->run_ncta : 1);

	d->free_t[w->held] = w->t;
	d->held[w->held] = false;
	for (uint64_t c = 0; c < w->run_ncta; c++) {
		int s = uvm_gpu_earliest_free(d);
		uint64_t end = d->free_t[s] + each;

		d->free_t[s] = end;
		if (end > d->k.end)
			d->k.end = end;
	}
}

void uvm_gpu_run_end(struct uvm_gpu *g, uint64_t ran)
{
	struct worker *w;
	uint64_t cpu;

	/* A fault outside a thread loop's warps is waited for here. */
	w = uvm_gpu_self(g);
	if (w && atomic_load_explicit(&w->pub.attention, memory_order_relaxed))
		uvm_gpu_barrier(g);
	cpu = work_now(g);
	uvm_mutex_lock(&g->lock);
	if (w && w->state == W_RUN) {
		struct dev *d = &g->dev[w->dev];
		uint64_t compute = modelled(g, w, compute_cpu(g, w, cpu));

		g->fig.compute_ns += compute;
		w->run_ncta = ran;
		if (w->run_faulted || ran <= 1) {
			uint64_t end = w->t + compute;

			d->free_t[w->held] = end;
			d->held[w->held] = false;
			if (end > d->k.end)
				d->k.end = end;
		} else {
			spread(d, w, compute);
		}
		w->held = -1;
		w->state = W_IDLE;
		ring(g);
	}
	/* The hand-out's end is its turn's: the next is the earliest worker's,
	 * this one's again if the earliest is a new hand-out on its GPU. What
	 * may be formed is formed first, so the choice is the model's alone. */
	if (w && g->turn.on && g->turn.holder == (int32_t)w->idx) {
		g->turn.holder = -1;
		uvm_gpu_form(g);
		uvm_turn_choose(g, w);
	}
	uvm_mutex_unlock(&g->lock);
}

/* The worker's clock moves to tc (what it computed since cpu0). */
static void account(struct uvm_gpu *g, struct worker *w, uint64_t tc)
{
	g->fig.compute_ns += tc - w->t;
	w->t = tc;
	w->lb = tc;
	w->lb_at = uvm_now_ns();
	w->faults = 0;
	publish(w);
}

/*
 * A warp that faulted ended: its faults wait in modelled time, the CTA's
 * other warps do not (a GPU hides one warp's stall behind the others'
 * compute), so the slot goes on; the next warp's faults carry its own
 * issue time. The loop's end (uvm_gpu_barrier) waits for them all.
 */
void uvm_gpu_warp_end(struct uvm_gpu *g)
{
	struct worker *w = uvm_gpu_self(g);
	uint64_t cpu;

	if (!w)
		return;
	cpu = work_now(g);
	uvm_mutex_lock(&g->lock);
	if (w->state == W_RUN) {
		account(g, w, clock_at(g, w, cpu));
		w->cpu0 = cpu;
	}
	atomic_fetch_and_explicit(&w->pub.attention, ~(uint32_t)UVMEMU_ATTN_WARP,
				  memory_order_relaxed);
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_remote(struct uvm_gpu *g, enum uvm_dir dir, uint64_t bytes, uint64_t xacts)
{
	struct worker *w = uvm_gpu_self(g);
	uint64_t cpu = work_now(g), tc, end;

	if (!w)
		return;
	uvm_mutex_lock(&g->lock);
	if (w->state == W_RUN) {
		tc = clock_at(g, w, cpu);
		account(g, w, tc);
		end = uvm_link_book_remote(&g->model->link, dir, bytes, xacts, tc, 1);
		g->fig.remote_bytes += bytes;
		if (end > tc) {
			g->fig.stall_ns += end - tc;
			g->fig.remote_stall_ns += end - tc;
			w->t = w->lb = end;
			publish(w);
		}
		w->cpu0 = cpu;
	}
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_barrier(struct uvm_gpu *g)
{
	struct worker *w = uvm_gpu_self(g);
	uint64_t before, tc;

	if (!w)
		return;
	before = work_now(g);
	uvm_mutex_lock(&g->lock);
	tc = clock_at(g, w, before);
	if (g->turn.on) {
		/* In turns the loop's end is a turn's: what may be formed is
		 * formed, then the earliest worker runs (this one if its
		 * batches ended first). */
		w->resume_t = tc;
		w->state = W_WAIT;
		uvm_gpu_form(g);
		if (w->pending == 0)
			w->state = W_RESUME;
		ring(g);
		uvm_turn_yield(g, w);
	}
	/* A run a signal is ending waits for no batch (uvm_gpu_abandon). */
	while (w->pending > 0 && !uvm_waits_abandoned()) {
		uint32_t gen = atomic_load(&w->wake);

		w->state = W_WAIT;
		ring(g);
		uvm_mutex_unlock(&g->lock);
		uvm_gpu_futex_wait(&w->wake, gen);
		uvm_mutex_lock(&g->lock);
	}
	w->state = W_RUN;
	account(g, w, tc);
	if (w->done_t > tc) {
		g->fig.stall_ns += w->done_t - tc;
		if (g->obs.stall && w->held >= 0)
			g->obs.stall(g->obs.ctx, (unsigned)w->held, tc, w->done_t);
		w->t = w->lb = w->done_t;
		publish(w);
	}
	/* The wait's own CPU time is not the kernel's. */
	w->cpu0 = work_now(g);
	atomic_store_explicit(&w->pub.attention, 0, memory_order_relaxed);
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_abandon(struct uvm_gpu *g)
{
	uvm_mutex_lock(&g->lock);
	for (size_t i = 0; i < g->nw; i++) {
		struct worker *w = g->w[i];

		/* Under the lock: a worker not waiting yet sees the flag before
		 * it waits. */
		if (w->state == W_WAIT)
			uvm_gpu_futex_wake(&w->wake);
	}
	if (g->turn.on)
		uvm_turn_abandon(g);
	uvm_mutex_unlock(&g->lock);
}

/* ------------------------------------------------------------- kernels */

static int size_slots(struct dev *d, unsigned slots)
{
	uint64_t *f;
	bool *h;

	if (slots == d->nslots)
		return 0;
	f = realloc(d->free_t, slots * sizeof(*f));
	if (f)
		d->free_t = f;
	h = realloc(d->held, slots * sizeof(*h));
	if (h)
		d->held = h;
	if (!f || !h)
		return -ENOMEM;
	d->nslots = slots;
	return 0;
}

static struct dev *dev_of(struct uvm_gpu *g, unsigned dev)
{
	return &g->dev[dev < g->ndev ? dev : 0];
}

void uvm_gpu_kernel_begin(struct uvm_gpu *g, unsigned dev, uint64_t ncta, unsigned slots,
			  unsigned cores, uint64_t host_ns)
{
	double dil = uvm_model_dilation(g->model);
	struct dev *d = dev_of(g, dev);
	uint64_t start;

	uvm_mutex_lock(&g->lock);
	if (slots == 0 || cores == 0 || size_slots(d, slots)) {
		d->k.running = false; /* unmodelled: its CTAs cost nothing */
		uvm_mutex_unlock(&g->lock);
		return;
	}
	/* A slot's share of the machine: D measured the executor on `cores`
	 * cores against the whole GPU, which has `slots` slots (GPU 0's
	 * preset: another's is D x its speed). */
	d->per_cpu_ns = (double)slots / ((double)cores * (dil > 0 ? dil : 1) * d->speed);
	/* After this GPU's earlier work only: another GPU's kernel runs
	 * beside it. */
	start = host_ns > d->stream_end ? host_ns : d->stream_end;
	for (unsigned i = 0; i < slots; i++) {
		d->free_t[i] = start;
		d->held[i] = false;
	}
	d->k.running = true;
	d->k.begin = d->k.end = start;
	d->k.ncta = ncta;
	d->k.begun = 0;
	if (g->turn.on)
		uvm_turn_choose(g, NULL);
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_kernel_end(struct uvm_gpu *g, unsigned dev, uint64_t *begin, uint64_t *end)
{
	struct dev *d = dev_of(g, dev);
	struct uvm_gpu_dev_figures *f = &g->fig.dev[d - g->dev];

	uvm_mutex_lock(&g->lock);
	*begin = d->k.begin;
	*end = d->k.running ? d->k.end : d->k.begin;
	if (d->k.running) {
		d->stream_end = d->k.end;
		g->fig.kernels++;
		g->fig.kernel_ns += d->k.end - d->k.begin;
		f->kernels++;
		f->kernel_ns += d->k.end - d->k.begin;
	}
	d->k.running = false;
	d->k.ncta = d->k.begun = 0;
	if (g->turn.on)
		uvm_turn_close(g, (unsigned)(d - g->dev));
	ring(g);
	uvm_mutex_unlock(&g->lock);
}

/* The latest end of the GPUs' streams. */
static uint64_t streams_end(const struct uvm_gpu *g)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < g->ndev; i++)
		t = g->dev[i].stream_end > t ? g->dev[i].stream_end : t;
	return t;
}

/* --------------------------------------------------------------- host */

uint64_t uvm_gpu_host_now(struct uvm_gpu *g)
{
	uint64_t t;

	uvm_mutex_lock(&g->lock);
	t = host_now_locked(g);
	uvm_mutex_unlock(&g->lock);
	return t;
}

uint64_t uvm_gpu_host_pause(struct uvm_gpu *g)
{
	uint64_t t;

	uvm_mutex_lock(&g->lock);
	t = g->paused_h = host_now_locked(g);
	uvm_mutex_unlock(&g->lock);
	return t;
}

void uvm_gpu_host_resume(struct uvm_gpu *g, uint64_t at)
{
	uvm_mutex_lock(&g->lock);
	anchor_here(g, at > g->paused_h ? at : g->paused_h);
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_join(struct uvm_gpu *g, int dev)
{
	uint64_t end;

	uvm_mutex_lock(&g->lock);
	end = dev < 0 ? streams_end(g) : dev_of(g, (unsigned)dev)->stream_end;
	anchor_here(g, end > g->paused_h ? end : g->paused_h);
	uvm_mutex_unlock(&g->lock);
}

/* Books bytes[dir] in xfers[dir] transfers from `start`; returns when the
 * last lands (start if none). */
static uint64_t book(struct uvm_gpu *g, uint64_t start, const uint64_t bytes[2],
		     const uint32_t xfers[2])
{
	uint64_t last = start;

	for (int dir = 0; dir < 2; dir++) {
		for (uint32_t x = 0; x < xfers[dir]; x++) {
			uint64_t end = uvm_link_book(&g->model->link, (enum uvm_dir)dir,
						     bytes[dir] / xfers[dir], start, 1);

			last = end > last ? end : last;
		}
	}
	return last;
}

void uvm_gpu_stream_transfers(struct uvm_gpu *g, unsigned dev, uint64_t at, const uint64_t bytes[2],
			      const uint32_t xfers[2])
{
	struct dev *d = dev_of(g, dev);
	uint64_t end;

	uvm_mutex_lock(&g->lock);
	end = book(g, at > d->stream_end ? at : d->stream_end, bytes, xfers);
	if (end > d->stream_end)
		d->stream_end = end;
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_host_fault(struct uvm_gpu *g, uint64_t at, const uint64_t bytes[2],
			const uint32_t xfers[2])
{
	uint64_t end;

	uvm_mutex_lock(&g->lock);
	end = book(g, at + g->model->cpu_fault_latency_ns, bytes, xfers);
	g->fig.host_faults++;
	g->fig.host_fault_bytes += bytes[UVM_H2D] + bytes[UVM_D2H];
	g->fig.host_fault_ns += end - at;
	/* The faulting thread sleeps: its CPU clock stands still meanwhile.
	 * (The driver calls this: the host's thread stays the anchor.) What
	 * the fault's trap and return and the first touch of what it mapped
	 * cost the thread in CPU time is the emulator's, as a worker's is
	 * (uvm_gpu_set_costs): the host's next that much does not count.
	 * Counted blocks hold none of it: nothing is skipped there. */
	g->anchor_h = end;
	g->anchor_r = host_work(g) + (g->block_ns > 0 ? 0 : g->fault_cpu_ns);
	uvm_mutex_unlock(&g->lock);
}

/* -------------------------------------------------------------- driver */

struct uvm_gpu_stamp uvm_gpu_stamp(struct uvm_gpu *g, uint32_t tid)
{
	struct uvm_gpu_stamp s = {.slot = -1};
	int64_t i = uvm_tidmap_get(&g->tids, tid);
	struct worker *w;
	uint64_t work;

	uvm_mutex_lock(&g->lock);
	if (i < 0 || (size_t)i >= g->nw || g->w[i]->state != W_RUN) {
		g->fig.unmodelled_faults++;
		goto out;
	}
	w = g->w[i];
	s.slot = (int32_t)i;
	w->faults++;
	if (atomic_load_explicit(&w->pub.attention, memory_order_relaxed) & UVMEMU_ATTN_WARP) {
		s.stamp = w->warp_t;
	} else {
		/* Its thread sleeps in the fault: its work so far is the
		 * warp's issue time, give or take the lanes before this one. */
		s.stamp = work_of(g, w, &work) ? clock_at(g, w, work) : w->t;
	}
out:
	uvm_mutex_unlock(&g->lock);
	return s;
}

/* w's running warp waits for a fault from now on, issued at `stamp` unless
 * it faulted before: the executor calls in at the warp's and loop's ends. */
static void mark_warp(struct worker *w, uint64_t stamp)
{
	if (!(atomic_load_explicit(&w->pub.attention, memory_order_relaxed) & UVMEMU_ATTN_WARP)) {
		w->warp_t = stamp;
		atomic_store_explicit(&w->pub.attention, UVMEMU_ATTN_WARP | UVMEMU_ATTN_LOOP,
				      memory_order_relaxed);
	}
}

/* A fault of w's warp (issued at `stamp` unless the warp faulted before)
 * on `page` enters its GPU's buffer; w goes on no earlier than not_before. */
static void enter(struct uvm_gpu *g, struct worker *w, uint64_t stamp, uint64_t page,
		  uint64_t not_before)
{
	mark_warp(w, stamp);
	if (not_before > w->done_t)
		w->done_t = not_before;
	if (uvm_batcher_add(&g->dev[w->dev].buf, w->warp_t, page, w->idx) == 0) {
		w->pending++;
		w->run_faulted = true;
		if (w->nwaited < WAITED_MAX)
			w->waited[w->nwaited++] = page;
	}
}

/* Whether a fault of w on `page` is pending. */
static bool waits_for(const struct worker *w, uint64_t page)
{
	for (uint32_t i = 0; i < w->nwaited; i++)
		if (w->waited[i] == page)
			return true;
	return false;
}

/* Whether a fault of w's SM on `page` is pending: the SM's TLB holds the
 * miss, and another warp's access to the page waits for the same fill. */
/*
 * The workers of w's SM, from `after` on (-1: the first): the SM its thread
 * stands for, or in turns the SM of the modelled slot its CTA holds (which
 * thread runs a CTA is the host's choice there, its slot the model's).
 * Returns -1 past the last.
 */
static int32_t next_of_sm(const struct uvm_gpu *g, const struct worker *w, int32_t after)
{
	if (!g->turn.on) {
		if (w->sm >= SM_MAX)
			return after < 0 ? (int32_t)w->idx : -1;
		return after < 0 ? g->sm_first[w->dev][w->sm] : g->w[after]->next_on_sm;
	}
	for (size_t i = (size_t)(after + 1); i < g->nw; i++) {
		const struct worker *x = g->w[i];

		if (x->dev == w->dev && x->held >= 0 && w->held >= 0 &&
		    (unsigned)x->held / g->ctas_per_sm == (unsigned)w->held / g->ctas_per_sm)
			return (int32_t)i;
	}
	return -1;
}

static bool sm_waits_for(const struct uvm_gpu *g, const struct worker *w, uint64_t page)
{
	for (int32_t i = next_of_sm(g, w, -1); i >= 0; i = next_of_sm(g, w, i))
		if (waits_for(g->w[i], page))
			return true;
	return false;
}

/*
 * In turns, worker w's clock is t (the one running, about to fault at t or
 * not): what may be formed before t is formed before a block's arrival is
 * read, so that whether the driver thread had stepped yet decides nothing.
 */
static void known_at(struct uvm_gpu *g, struct worker *w, uint64_t t)
{
	if (t > 0 && t - 1 > w->lb) {
		w->lb = t - 1;
		w->lb_at = uvm_now_ns();
	}
	uvm_gpu_form(g);
}

/* Whether a block arriving at r (arrival()) is there at modelled time t. */
static bool there_by(uint64_t r, uint64_t t)
{
	return r != PENDING && r <= t;
}

void uvm_gpu_commit(struct uvm_gpu *g, struct uvm_gpu_stamp s, uint64_t page, bool fresh,
		    uint64_t not_before)
{
	uint64_t block = page >> UVMEMU_BLOCK_SHIFT, r;

	if (s.slot < 0)
		return;
	uvm_mutex_lock(&g->lock);
	/* In turns, an arrival is read only after what may be formed is. */
	if (g->turn.on && block < g->nblocks && !fresh)
		known_at(g, g->w[s.slot], s.stamp);
	if (block < g->nblocks && fresh) {
		set_ready(g, block, PENDING); /* it moves now: the first batch holding it pays */
	} else if (block < g->nblocks && (r = arrival(g, block)) != 0 && there_by(r, s.stamp)) {
		/* Brought by another slot's fault whose batch had ended when
		 * this warp issued: on the GPU the access would have hit. */
		g->fig.free_faults++;
		uvm_mutex_unlock(&g->lock);
		return;
	}
	enter(g, g->w[s.slot], s.stamp, page, not_before);
	uvm_mutex_unlock(&g->lock);
}

bool uvm_gpu_late(struct uvm_gpu *g, uint64_t page)
{
	uint64_t block = page >> UVMEMU_BLOCK_SHIFT, cpu, t;
	struct worker *w = uvm_gpu_self(g);
	bool waits = false, mine;

	if (!w || block >= g->nblocks)
		return false;
	cpu = work_now(g);
	uvm_mutex_lock(&g->lock);
	/* A warp that faulted is stalled on a GPU: its later accesses come
	 * after the stall, which the loop's end charges. */
	if (w->state != W_RUN ||
	    (atomic_load_explicit(&w->pub.attention, memory_order_relaxed) & UVMEMU_ATTN_WARP))
		goto out;
	t = clock_at(g, w, cpu);
	if (g->turn.on)
		known_at(g, w, t);
	if (there_by(arrival(g, block), t)) {
		/* A hit: and the slot's clock is at least t. */
		if (t > atomic_load_explicit(&w->pub.clock_lb, memory_order_relaxed))
			atomic_store_explicit(&w->pub.clock_lb, t, memory_order_relaxed);
		goto out;
	}
	/* The real driver mapped it before this slot's modelled time reached
	 * its arrival: on the GPU the access faults (a duplicate of the fault
	 * that moves it) and the warp waits for it. A page its SM already
	 * waits for stalls the warp without another fault. */
	mine = waits_for(w, page);
	if (mine || (w->njoined < WAITED_MAX && sm_waits_for(g, w, page))) {
		if (!mine) {
			w->joined[w->njoined++] = page;
			w->pending++;
		}
		mark_warp(w, t);
		g->fig.late_joins++;
		waits = true;
		goto out;
	}
	g->fig.late_hits++;
	enter(g, w, t, page, 0);
	waits = true;
out:
	/* The driver steps the buffer when told: this fault did not come
	 * through it, so the slot's wait at its loop's end rings. */
	if (waits)
		g->waiting = true;
	uvm_mutex_unlock(&g->lock);
	return waits;
}

void uvm_gpu_follow(struct uvm_gpu *g, uint64_t lead, uint64_t first, uint64_t n)
{
	uvm_mutex_lock(&g->lock);
	/* A block whose own transfers wait for a batch (it led an earlier
	 * service, then left and came back with this one) keeps them: its
	 * ledger would be charged to no batch. */
	for (uint64_t b = first; b < first + n && b < g->nblocks; b++)
		if (b != lead && ready_of(g, b) != PENDING)
			set_ready(g, b, FOLLOWS | lead);
	uvm_mutex_unlock(&g->lock);
}

const _Atomic uint64_t *uvm_gpu_arrivals(const struct uvm_gpu *g)
{
	return g->ready;
}

void uvm_gpu_claim(struct uvm_gpu *g, uint64_t block, uint64_t h2d_bytes, uint32_t h2d_xfers,
		   uint64_t d2h_bytes, uint32_t d2h_xfers)
{
	struct ledger *l;

	if (block >= g->nblocks)
		return;
	uvm_mutex_lock(&g->lock);
	l = &g->ledger[block];
	l->h2d_bytes = (uint32_t)(l->h2d_bytes + h2d_bytes);
	l->h2d_xfers = (uint16_t)(l->h2d_xfers + h2d_xfers);
	l->d2h_bytes = (uint32_t)(l->d2h_bytes + d2h_bytes);
	l->d2h_xfers = (uint16_t)(l->d2h_xfers + d2h_xfers);
	set_ready(g, block, PENDING);
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_claim_peer(struct uvm_gpu *g, uint64_t block, unsigned link, enum uvm_dir dir,
			uint64_t bytes, uint32_t xfers)
{
	struct ledger *l;

	if (block >= g->nblocks)
		return;
	uvm_mutex_lock(&g->lock);
	l = &g->ledger[block];
	l->p2p_bytes = (uint32_t)(l->p2p_bytes + bytes);
	l->p2p_xfers = (uint16_t)(l->p2p_xfers + xfers);
	l->p2p_link = (uint8_t)link;
	l->p2p_dir = (uint8_t)dir;
	set_ready(g, block, PENDING);
	uvm_mutex_unlock(&g->lock);
}

/* Worker w's clock now, read at most every REFRESH_NS (a system call). */
static uint64_t lower_bound(struct uvm_gpu *g, struct worker *w, uint64_t now)
{
	uint64_t work;

	if (now - w->lb_at > REFRESH_NS && work_of(g, w, &work)) {
		w->lb = clock_at(g, w, work);
		w->lb_at = now;
	}
	return w->lb;
}

/*
 * The earliest modelled time a fault not yet in any GPU's buffer could
 * carry: no running worker can stamp one before its clock (or, faulted,
 * before its warp's issue time); a CTA not handed out yet starts no earlier
 * than the free slot it will take. A worker waiting at a warp's end goes on
 * only after its batch: it cannot stamp anything earlier. Every GPU counts,
 * as the one driver takes the earliest batch of any GPU next.
 */
static uint64_t horizon(struct uvm_gpu *g, uint64_t need)
{
	uint64_t h = UINT64_MAX, now = uvm_now_ns();

	for (size_t i = 0; i < g->nw; i++) {
		struct worker *w = g->w[i];
		uint64_t lb;

		/* Woken from its warp's end, it has not cleared its attention
		 * yet, but it goes on from done_t: its next fault is later. */
		if (w->state == W_RESUME)
			lb = w->done_t;
		else if (w->state != W_RUN)
			continue;
		else if (atomic_load_explicit(&w->pub.attention, memory_order_relaxed) &
			 UVMEMU_ATTN_WARP)
			/* In turns, a warp's lanes fault together: the batch
			 * its issue time starts waits for the warp's end. */
			lb = g->turn.on && w->warp_t > 0 ? w->warp_t - 1 : w->warp_t;
		else
			lb = w->lb < need ? lower_bound(g, w, now) : w->lb;
		if (lb < h)
			h = lb;
	}
	for (unsigned i = 0; i < g->ndev; i++) {
		const struct dev *d = &g->dev[i];
		int s = uvm_gpu_next_slot(d);

		if (s >= 0 && d->free_t[s] < h)
			h = d->free_t[s];
	}
	return h;
}

/* The transfers of the batch's blocks not charged yet, booked from `start`;
 * returns when the last lands (*h2d: the bytes it fetched). */
static uint64_t charge(struct uvm_gpu *g, const struct uvm_mfault *f, size_t n, uint64_t start,
		       uint64_t *h2d)
{
	struct uvm_link *link = &g->model->link;
	uint64_t end = start;

	*h2d = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t b = f[i].page >> UVMEMU_BLOCK_SHIFT, o;
		struct ledger *l;
		uint64_t e;

		/* A block that came with another's service brings its
		 * transfers into the first batch holding either. */
		if (b >= g->nblocks || ready_of(g, (o = owner(g, b))) != PENDING)
			continue;
		l = &g->ledger[o];
		for (unsigned x = 0; x < l->h2d_xfers; x++) {
			e = uvm_link_book(link, UVM_H2D, l->h2d_bytes / l->h2d_xfers, start, 1);
			end = e > end ? e : end;
		}
		for (unsigned x = 0; x < l->d2h_xfers; x++) {
			e = uvm_link_book(link, UVM_D2H, l->d2h_bytes / l->d2h_xfers, start, 1);
			end = e > end ? e : end;
		}
		/* The last transfer takes the bytes an even split leaves over:
		 * the link books them all (the report's peer links). */
		for (unsigned x = 0; x < l->p2p_xfers; x++) {
			uint64_t part = l->p2p_bytes / l->p2p_xfers +
					(x + 1 == l->p2p_xfers ? l->p2p_bytes % l->p2p_xfers : 0);

			e = uvm_model_transfer_peer(g->model, l->p2p_link, (enum uvm_dir)l->p2p_dir,
						    part, start);
			end = e > end ? e : end;
		}
		g->fig.bytes_p2p += l->p2p_bytes;
		l->p2p_bytes = 0;
		l->p2p_xfers = 0;
		g->fig.bytes_h2d += l->h2d_bytes;
		*h2d += l->h2d_bytes;
		g->fig.bytes_d2h += l->d2h_bytes;
		l->h2d_bytes = l->d2h_bytes = 0;
		l->h2d_xfers = l->d2h_xfers = 0;
		set_ready(g, o, 0); /* charged: set to the batch's end below */
	}
	return end;
}

static int cmp_page(const void *a, const void *b)
{
	uint64_t x = ((const struct uvm_mfault *)a)->page, y = ((const struct uvm_mfault *)b)->page;

	return x < y ? -1 : x > y;
}

/* A batch's shape: its distinct vablocks and pages. */
struct shape {
	size_t vablocks, pages;
};

/* Sorts a batch's faults by page (nothing in a batch depends on their
 * order: its transfers all book from its start, its waits end together)
 * and counts what they touch. */
static struct shape by_page(struct uvm_mfault *f, size_t n)
{
	uint64_t vab = UINT64_MAX, page = UINT64_MAX;
	struct shape sh = {0, 0};

	qsort(f, n, sizeof(*f), cmp_page);
	for (size_t i = 0; i < n; i++) {
		sh.vablocks += f[i].page >> 21 != vab;
		sh.pages += f[i].page != page;
		vab = f[i].page >> 21;
		page = f[i].page;
	}
	return sh;
}

/* The batch's figures: its faults, distinct vablocks and pages. */
static void count(struct uvm_gpu *g, unsigned dev, size_t n, struct shape sh)
{
	g->fig.vablocks += sh.vablocks;
	g->fig.pages += sh.pages;
	g->fig.batches++;
	g->fig.faults += n;
	g->fig.dev[dev].batches++;
	g->fig.dev[dev].faults += n;
	if (n > g->fig.max_faults)
		g->fig.max_faults = n;
}

/* Removes `page` from list[0..*n); whether it was there. */
static bool drop_page(uint64_t *list, uint32_t *n, uint64_t page)
{
	for (uint32_t i = 0; i < *n; i++) {
		if (list[i] == page) {
			list[i] = list[--*n];
			return true;
		}
	}
	return false;
}

/* One of w's waits ended at modelled time `done`. */
static void resolved(struct uvm_gpu *g, struct worker *w, uint64_t done)
{
	if (done > w->done_t)
		w->done_t = done;
	if (--w->pending == 0 && w->state == W_WAIT) {
		w->state = W_RESUME;
		/* In turns, it goes on when its turn comes (uvm_turn_choose). */
		if (!g->turn.on)
			uvm_gpu_futex_wake(&w->wake);
	}
}

/* w's fault on `page` completed at `done`: its SM's warps that joined it
 * go on then too. */
static void release_joined(struct uvm_gpu *g, struct worker *w, uint64_t page, uint64_t done)
{
	if (!drop_page(w->waited, &w->nwaited, page))
		return;
	for (int32_t i = next_of_sm(g, w, -1); i >= 0; i = next_of_sm(g, w, i)) {
		struct worker *x = g->w[i];

		while (drop_page(x->joined, &x->njoined, page))
			resolved(g, x, done);
	}
}

static void complete(struct uvm_gpu *g, const struct uvm_mfault *f, size_t n, uint64_t end)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t b = f[i].page >> UVMEMU_BLOCK_SHIFT;
		uint64_t o = b < g->nblocks ? owner(g, b) : UINT64_MAX;
		uint64_t r = o != UINT64_MAX ? ready_of(g, o) : PENDING;
		struct worker *w = g->w[f[i].slot];
		uint64_t done = end;

		/* Charged by this batch; or it came with an earlier one (a
		 * duplicate, or a late hit): the replay after that one let the
		 * warp go on when the block arrived. */
		if (r == 0)
			set_ready(g, o, end);
		else if (r != PENDING)
			done = r;
		release_joined(g, w, f[i].page, done);
		resolved(g, w, done);
	}
}

/* The GPU whose next batch starts earliest (the lowest on a tie), and
 * when; false when no buffer holds a fault. */
static bool next_batch(const struct uvm_gpu *g, unsigned *dev, uint64_t *start)
{
	bool any = false;

	for (unsigned i = 0; i < g->ndev; i++) {
		uint64_t t;

		if (uvm_batcher_next(&g->dev[i].buf, &t) && (!any || t < *start)) {
			any = true;
			*dev = i;
			*start = t;
		}
	}
	return any;
}

static size_t pending(const struct uvm_gpu *g)
{
	size_t n = 0;

	for (unsigned i = 0; i < g->ndev; i++)
		n += uvm_batcher_pending(&g->dev[i].buf);
	return n;
}

/* The one driver is free from `end` whichever GPU's buffer it read. */
static void driver_done(struct uvm_gpu *g, uint64_t end)
{
	for (unsigned i = 0; i < g->ndev; i++)
		uvm_batcher_done(&g->dev[i].buf, end);
}

static uint64_t driver_free(const struct uvm_gpu *g)
{
	return g->dev[0].buf.free_at;
}

void uvm_gpu_form(struct uvm_gpu *g)
{
	uint64_t start = 0;
	unsigned dev = 0;

	while (next_batch(g, &dev, &start)) {
		uint64_t lat_end = start + g->latency_ns, end, h2d;
		uint64_t by = uvm_batcher_fetched_by(&g->dev[dev].buf, start);
		struct uvm_gpu_figures was = g->fig; /* tell_batch's reference */
		struct shape sh;
		size_t n;

		/* A slot could still issue a fault the window reads. */
		if (horizon(g, by) < by) {
			g->waiting = true;
			g->fig.horizon_waits++;
			break;
		}
		n = uvm_batcher_take(&g->dev[dev].buf, start, g->taken);
		/* The driver services a batch's vablocks one by one after
		 * reading it (the batch study: service grows with them). */
		sh = by_page(g->taken, n);
		lat_end += g->vablock_ns * sh.vablocks;
		/* UVMMU's hardware fetches after its latency, the faulting
		 * page first; the driver's batch overlaps its latency with the
		 * transfers it issues. */
		end = charge(g, g->taken, n, g->per_fault ? lat_end : start, &h2d);
		if (g->per_fault)
			end = uvm_model_critical(g->model, lat_end, end, h2d);
		if (end < lat_end)
			end = lat_end;
		if (end < by) /* a window longer than the latency */
			end = by;
		complete(g, g->taken, n, end);
		count(g, dev, n, sh);
		g->fig.batch_ns += end - start;
		g->fig.dev[dev].batch_ns += end - start;
		tell_batch(g, &was, dev, start, end);
		/* The hardware path has no driver to be busy: faults overlap,
		 * only the link orders their transfers. */
		if (!g->per_fault)
			driver_done(g, end);
	}
}

size_t uvm_gpu_step(struct uvm_gpu *g)
{
	size_t left;

	uvm_mutex_lock(&g->lock);
	g->waiting = false;
	uvm_gpu_form(g);
	if (g->turn.on)
		uvm_turn_choose(g, NULL);
	left = pending(g);
	uvm_mutex_unlock(&g->lock);
	return left;
}

/* The later of the driver's free time and the GPUs' streams' ends. */
static uint64_t now_locked(const struct uvm_gpu *g)
{
	uint64_t f = driver_free(g), e = streams_end(g);

	return f > e ? f : e;
}

uint64_t uvm_gpu_now(struct uvm_gpu *g)
{
	uint64_t t;

	uvm_mutex_lock(&g->lock);
	t = now_locked(g);
	uvm_mutex_unlock(&g->lock);
	return t;
}

uint64_t uvm_gpu_progress(struct uvm_gpu *g)
{
	uint64_t t, now = uvm_now_ns();

	bool running = false;

	uvm_mutex_lock(&g->lock);
	t = now_locked(g);
	for (unsigned i = 0; i < g->ndev; i++) {
		if (!g->dev[i].k.running)
			continue;
		running = true;
		if (g->dev[i].k.end > t)
			t = g->dev[i].k.end;
	}
	if (!running) {
		uint64_t h = host_now_locked(g);

		uvm_mutex_unlock(&g->lock);
		return h > t ? h : t;
	}
	for (size_t i = 0; i < g->nw; i++) {
		struct worker *w = g->w[i];
		uint64_t lb;

		if (w->state != W_RUN)
			continue;
		lb = lower_bound(g, w, now);
		t = lb > t ? lb : t;
	}
	uvm_mutex_unlock(&g->lock);
	return t;
}

void uvm_gpu_figures(struct uvm_gpu *g, struct uvm_gpu_figures *out)
{
	uvm_mutex_lock(&g->lock);
	*out = g->fig;
	out->stream_end_ns = streams_end(g);
	for (unsigned i = 0; i < g->ndev; i++)
		out->dev[i].stream_end_ns = g->dev[i].stream_end;
	uvm_mutex_unlock(&g->lock);
}

void uvm_gpu_background(struct uvm_gpu *g, const uint64_t bytes[2], const uint32_t xfers[2])
{
	uvm_mutex_lock(&g->lock);
	book(g, now_locked(g), bytes, xfers);
	uvm_mutex_unlock(&g->lock);
}
