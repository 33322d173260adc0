// SPDX-License-Identifier: MIT
/*
 * Description: the model clock (model/batcher.h, model/gpu.h). Batches form
 * in modelled time: faults whose warps issued them close together share a
 * batch however far apart in real time they reach the driver, and a batch
 * holds what the GPU's buffer gathered while the one before it ran. A
 * worker's modelled time is its CPU time divided by D, never the real time
 * it spent blocked; a hand-out that never faulted spreads over the free
 * slots; the host's clock skips the real time of a call whose time is the
 * model's; a slot that reaches a block the real driver mapped before the
 * block's modelled arrival waits for it. Each check would fail under a
 * clock cut by real time.
 */
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "batcher.h"
#include "clock.h"
#include "config.h"
#include "gpu.h"
#include "link.h"
#include "model.h"

#define MS 1000000ull
#define US 1000ull

/* ------------------------------------------------------ the buffer alone */

/* Queues faults on pages[i] stamped at us[i] microseconds, from slot i. */
static void add_faults(struct uvm_batcher *b, const uint64_t *us, const uint64_t *pages, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(uvm_batcher_add(b, us[i] * US, pages[i], (uint32_t)i), 0);
}

/* The next batch starts at want_start us and holds the faults on pages
 * want[0..n), in that order. */
static void expect_batch(struct uvm_batcher *b, uint64_t want_start, const uint64_t *want, size_t n)
{
	struct uvm_mfault out[8];
	uint64_t start;

	assert_true(uvm_batcher_next(b, &start));
	assert_int_equal(start, want_start * US);
	assert_int_equal(uvm_batcher_take(b, start, out), n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(out[i].page, want[i]);
}

static void test_batch_holds_faults_stamped_by_its_start(void **state)
{
	struct uvm_batcher b;
	uint64_t start;

	(void)state;
	uvm_batcher_init(&b, 8, 0, 0);
	/* Arrival order is not stamp order: the buffer orders by stamp. */
	add_faults(&b, (const uint64_t[]){30, 10, 20, 200}, (const uint64_t[]){3, 1, 2, 4}, 4);
	/* The first batch starts at the earliest fault and holds it alone. */
	expect_batch(&b, 10, (const uint64_t[]){1}, 1);
	uvm_batcher_done(&b, 55 * US);
	/* The next starts when the driver is free and holds what arrived
	 * meanwhile, earliest first; the fault at 200 us waits. */
	expect_batch(&b, 55, (const uint64_t[]){2, 3}, 2);
	uvm_batcher_done(&b, 100 * US);
	expect_batch(&b, 200, (const uint64_t[]){4}, 1);
	assert_false(uvm_batcher_next(&b, &start));
	uvm_batcher_destroy(&b);
}

static void test_batch_size_caps_a_batch(void **state)
{
	struct uvm_batcher b;
	struct uvm_mfault out[4];
	uint64_t start;

	(void)state;
	uvm_batcher_init(&b, 4, 0, 0);
	for (uint64_t i = 0; i < 10; i++)
		assert_int_equal(uvm_batcher_add(&b, 5 * US, i, 0), 0);
	assert_true(uvm_batcher_next(&b, &start));
	/* Ties go in arrival order. */
	assert_int_equal(uvm_batcher_take(&b, start, out), 4);
	for (uint64_t i = 0; i < 4; i++)
		assert_int_equal(out[i].page, i);
	assert_int_equal(uvm_batcher_pending(&b), 6);
	uvm_batcher_destroy(&b);
}

/* The driver reads the buffer for its fetch window from a batch's start:
 * faults issued meanwhile join the batch, later ones wait for the next. */
static void test_fetch_window_takes_faults_issued_while_reading(void **state)
{
	struct uvm_batcher b;
	struct uvm_mfault out[8];
	uint64_t start;

	(void)state;
	uvm_batcher_init(&b, 8, 5 * US, 0);
	add_faults(&b, (const uint64_t[]){10, 15, 16, 61}, (const uint64_t[]){1, 2, 3, 4}, 4);
	assert_true(uvm_batcher_next(&b, &start));
	/* The batch still starts at the first fault; it reads until 15 us. */
	assert_int_equal(start, 10 * US);
	assert_int_equal(uvm_batcher_fetched_by(&b, start), 15 * US);
	assert_int_equal(uvm_batcher_take(&b, start, out), 2);
	assert_int_equal(out[0].page, 1);
	assert_int_equal(out[1].page, 2);
	/* Busy until 55 us, the driver then reads until 60: the fault at 16 us
	 * is there, the one at 61 us is not. */
	uvm_batcher_done(&b, 55 * US);
	assert_true(uvm_batcher_next(&b, &start));
	assert_int_equal(start, 55 * US);
	assert_int_equal(uvm_batcher_take(&b, start, out), 1);
	assert_int_equal(out[0].page, 3);
	assert_true(uvm_batcher_next(&b, &start));
	assert_int_equal(start, 61 * US);
	uvm_batcher_destroy(&b);
	/* Without a window the first batch holds the first fault alone. */
	uvm_batcher_init(&b, 8, 0, 0);
	add_faults(&b, (const uint64_t[]){10, 15}, (const uint64_t[]){1, 2}, 2);
	assert_true(uvm_batcher_next(&b, &start));
	assert_int_equal(uvm_batcher_take(&b, start, out), 1);
	uvm_batcher_destroy(&b);
}

/* With --fault-gap the buffer takes one fault per gap: faults issued
 * together arrive spread out, a batch holds those arrived by its start, and
 * a fault stamped after a gap's worth of quiet arrives at its stamp. */
static void test_fault_gap_spreads_arrivals(void **state)
{
	struct uvm_batcher b;
	uint64_t start;

	(void)state;
	uvm_batcher_init(&b, 8, 0, 2 * US);
	/* Five faults issued at once (lockstep warps), one much later. */
	add_faults(&b, (const uint64_t[]){10, 10, 10, 10, 10, 100},
		   (const uint64_t[]){1, 2, 3, 4, 5, 6}, 6);
	/* Only the first had arrived when the driver read the buffer. */
	expect_batch(&b, 10, (const uint64_t[]){1}, 1);
	/* Busy until 15 us: the second arrived at 12, the third at 14, the
	 * fourth arrives at 16. */
	uvm_batcher_done(&b, 15 * US);
	expect_batch(&b, 15, (const uint64_t[]){2, 3}, 2);
	/* A free driver waits for the next arrival, not the stamp. */
	uvm_batcher_done(&b, 15 * US);
	expect_batch(&b, 16, (const uint64_t[]){4}, 1);
	uvm_batcher_done(&b, 30 * US);
	expect_batch(&b, 30, (const uint64_t[]){5}, 1);
	/* Long after the last arrival a fault arrives when issued. */
	assert_true(uvm_batcher_next(&b, &start));
	assert_int_equal(start, 100 * US);
	uvm_batcher_destroy(&b);
	/* Without a gap all five are there at once. */
	uvm_batcher_init(&b, 8, 0, 0);
	add_faults(&b, (const uint64_t[]){10, 10, 10, 10, 10}, (const uint64_t[]){1, 2, 3, 4, 5},
		   5);
	expect_batch(&b, 10, (const uint64_t[]){1, 2, 3, 4, 5}, 5);
	uvm_batcher_destroy(&b);
}

/* ------------------------------------------------- the clock with threads */

struct rig {
	struct uvm_config cfg;
	struct uvm_model model;
	struct uvm_gpu *gpu;
};

/* A GPU over `nblocks` blocks; vablock_cost NULL: the default. */
static void rig_up_blocks(struct rig *r, const char *dilation, const char *latency,
			  const char *vablock_cost, size_t nblocks)
{
	char err[256];

	uvm_config_defaults(&r->cfg);
	assert_int_equal(uvm_config_set(&r->cfg, "dilation", dilation, "test", err, sizeof(err)),
			 0);
	assert_int_equal(
	    uvm_config_set(&r->cfg, "fault-latency", latency, "test", err, sizeof(err)), 0);
	if (vablock_cost)
		assert_int_equal(
		    uvm_config_set(&r->cfg, "vablock-cost", vablock_cost, "test", err, sizeof(err)),
		    0);
	uvm_config_resolve(&r->cfg);
	uvm_model_init(&r->model, &r->cfg);
	assert_int_equal(uvm_gpu_create(&r->gpu, &r->model, &r->cfg, nblocks, err, sizeof(err)), 0);
	uvm_gpu_set_costs(r->gpu, 0, 0);
}

static void rig_up_latency(struct rig *r, const char *dilation, const char *latency)
{
	rig_up_blocks(r, dilation, latency, NULL, 64);
}

static void rig_up(struct rig *r, const char *dilation)
{
	rig_up_latency(r, dilation, "45us");
}

static void rig_down(struct rig *r)
{
	uvm_gpu_destroy(r->gpu);
	uvm_model_destroy(&r->model);
}

static uint64_t thread_cpu(void)
{
	return uvm_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* Runs kernel code for `ns` of this thread's CPU time. */
static void burn(uint64_t ns)
{
	uint64_t end = thread_cpu() + ns;
	volatile uint64_t x = 0;

	while (thread_cpu() < end)
		for (int i = 0; i < 1000; i++)
			x += (uint64_t)i;
	(void)x;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};

	while (nanosleep(&ts, &ts))
		;
}

#define NWORKERS 4

/* A worker's far fault, as the driver sees it: the thread blocks in it
 * until the driver has committed it. */
struct fault_msg {
	uint32_t tid;
	uint64_t page;
	bool posted, taken; /* one per worker: under load two may post at once */
};

struct faulting {
	struct rig *r;
	unsigned idx;
	uint64_t late_ns; /* real time it sleeps before its fault */
	sem_t *to_driver, resolved;
	struct fault_msg *msg;
	pthread_mutex_t *msg_lock;
	unsigned page_shift; /* its page is (idx + 1) << page_shift */
};

static void *faulting_worker(void *arg)
{
	struct faulting *f = arg;
	const struct uvmemu_slot *slot = uvm_gpu_register(f->r->gpu, 0, f->idx);

	assert_non_null(slot);
	uvm_gpu_run_begin(f->r->gpu, 1);
	burn(2 * MS);
	/* Blocked, not computing: the real time reaches no modelled clock. */
	sleep_ns(f->late_ns);
	pthread_mutex_lock(f->msg_lock);
	f->msg[f->idx] = (struct fault_msg){(uint32_t)syscall(SYS_gettid),
					    (uint64_t)(f->idx + 1) << f->page_shift, true, false};
	pthread_mutex_unlock(f->msg_lock);
	sem_post(f->to_driver);
	while (sem_wait(&f->resolved))
		;
	/* The warp's end: the slot goes on (the CTA's other warps would);
	 * the loop's end stalls until its fault's batch is formed. */
	assert_int_equal(atomic_load(&slot->attention), UVMEMU_ATTN_WARP | UVMEMU_ATTN_LOOP);
	uvm_gpu_warp_end(f->r->gpu);
	assert_int_equal(atomic_load(&slot->attention), UVMEMU_ATTN_LOOP);
	uvm_gpu_barrier(f->r->gpu);
	assert_int_equal(atomic_load(&slot->attention), 0);
	burn(1 * MS);
	uvm_gpu_run_end(f->r->gpu, 1);
	return NULL;
}

/* The driver's side: each fault stamped and committed as it comes, and the
 * buffer stepped until every fault is in a batch. */
static void drive(struct rig *r, struct faulting *w, sem_t *to_driver, struct fault_msg *msg,
		  pthread_mutex_t *msg_lock)
{
	for (unsigned got = 0; got < NWORKERS; got++) {
		struct fault_msg m = {0};
		struct uvm_gpu_stamp s;
		unsigned from = NWORKERS;

		while (sem_wait(to_driver))
			;
		pthread_mutex_lock(msg_lock);
		for (unsigned i = 0; i < NWORKERS && from == NWORKERS; i++)
			if (msg[i].posted && !msg[i].taken) {
				msg[i].taken = true;
				m = msg[i];
				from = i;
			}
		pthread_mutex_unlock(msg_lock);
		assert_true(from < NWORKERS);
		s = uvm_gpu_stamp(r->gpu, m.tid);
		assert_true(s.slot >= 0);
		uvm_gpu_claim(r->gpu, m.page >> UVMEMU_BLOCK_SHIFT, 64 << 10, 1, 0, 0);
		uvm_gpu_commit(r->gpu, s, m.page, true, 0);
		sem_post(&w[from].resolved);
		uvm_gpu_step(r->gpu);
	}
	while (uvm_gpu_step(r->gpu) > 0)
		sleep_ns(100 * US);
}

/* Four workers on four slots at D = 1 (a worker's CPU time is its slot's)
 * each fault once, worker i on page (i + 1) << page_shift after sleeping
 * i * late_step of real time, and the driver forms every batch; the
 * kernel's modelled span goes in *span. */
static void run_faulting(struct rig *r, uint64_t late_step, unsigned page_shift, uint64_t *span)
{
	struct faulting w[NWORKERS];
	pthread_t th[NWORKERS];
	sem_t to_driver;
	struct fault_msg msg[NWORKERS] = {{0}};
	pthread_mutex_t msg_lock = PTHREAD_MUTEX_INITIALIZER;
	uint64_t begin, end;

	sem_init(&to_driver, 0, 0);
	uvm_gpu_kernel_begin(r->gpu, 0, NWORKERS, NWORKERS, NWORKERS, 0);
	for (unsigned i = 0; i < NWORKERS; i++) {
		w[i] = (struct faulting){r,	i,   late_step * i, &to_driver,
					 {{0}}, msg, &msg_lock,	    page_shift};
		sem_init(&w[i].resolved, 0, 0);
		assert_int_equal(pthread_create(&th[i], NULL, faulting_worker, &w[i]), 0);
	}
	drive(r, w, &to_driver, msg, &msg_lock);
	for (unsigned i = 0; i < NWORKERS; i++)
		pthread_join(th[i], NULL);
	uvm_gpu_kernel_end(r->gpu, 0, &begin, &end);
	*span = end - begin;
	for (unsigned i = 0; i < NWORKERS; i++)
		sem_destroy(&w[i].resolved);
	sem_destroy(&to_driver);
}

static void test_batches_form_in_modelled_time(void **state)
{
	struct rig r;
	struct uvm_gpu_figures fig;
	uint64_t span, t0 = uvm_now_ns(), real;

	(void)state;
	/* A batch of 5 ms: the workers' stamps (2 ms of CPU each, give or take
	 * what thread start-up costs under a sanitizer) all fall within the
	 * first batch, so the second takes every fault the first did not. */
	rig_up_latency(&r, "1", "5ms");
	/* Each reaches its fault 30 ms of real time after the one before: a
	 * batch cut by real time would hold one fault. */
	run_faulting(&r, 30 * MS, 16, &span);
	real = uvm_now_ns() - t0;
	uvm_gpu_figures(r.gpu, &fig);
	printf("4 faults, 30 ms apart in real time (%.1f ms in all): %llu batches, the fullest "
	       "%llu; kernel %.3f ms modelled\n",
	       (double)real / 1e6, (unsigned long long)fig.batches,
	       (unsigned long long)fig.max_faults, (double)span / 1e6);
	assert_int_equal(fig.faults, NWORKERS);
	/* Issued within microseconds of each other in modelled time: the
	 * first batch holds the earliest, the next the rest (the buffer
	 * filled while the first ran). */
	assert_true(fig.batches <= 2);
	assert_true(fig.max_faults >= NWORKERS - 1);
	/* 2 ms, two batches of 5 ms, 1 ms: the 90 ms of real time the
	 * workers slept are nowhere. */
	assert_true(real > 90 * MS);
	assert_true(span >= 8 * MS);
	assert_true(span < 20 * MS);
	assert_true(fig.stall_ns >= 5 * MS);
	rig_down(&r);
}

/* --vablock-cost: the driver services a batch's vablocks one by one after
 * its latency, so each batch lasts its latency plus the cost times its
 * vablocks, however the faults split between batches. */
static void test_vablock_cost_lengthens_batches(void **state)
{
	struct rig r;
	struct uvm_gpu_figures fig;
	uint64_t span;

	(void)state;
	/* Each worker faults on a vablock of its own (2 MB apart). */
	rig_up_blocks(&r, "1", "5ms", "1ms", (size_t)(NWORKERS + 1) << 5);
	run_faulting(&r, 0, 21, &span);
	uvm_gpu_figures(r.gpu, &fig);
	printf("4 faults in 4 vablocks: %llu batches, %.3f ms in batches\n",
	       (unsigned long long)fig.batches, (double)fig.batch_ns / 1e6);
	assert_int_equal(fig.faults, NWORKERS);
	assert_int_equal(fig.vablocks, NWORKERS);
	assert_int_equal(fig.batch_ns, fig.batches * 5 * MS + NWORKERS * MS);
	rig_down(&r);
}

struct computing {
	struct rig *r;
	uint64_t ncta, cpu_ns, blocked_ns;
	unsigned dev;	 /* the GPU it is a worker of */
	uint64_t blocks; /* basic blocks it "runs" (the callback, called) */
};

/* GCC's coverage callback, which instrumented kernel code calls at every
 * basic block (common/blocks_run.c). */
void __sanitizer_cov_trace_pc(void);

static void *computing_worker(void *arg)
{
	struct computing *c = arg;

	assert_non_null(uvm_gpu_register(c->r->gpu, c->dev, 0));
	uvm_gpu_run_begin(c->r->gpu, c->ncta);
	for (uint64_t i = 0; i < c->blocks; i++)
		__sanitizer_cov_trace_pc();
	burn(c->cpu_ns);
	sleep_ns(c->blocked_ns);
	uvm_gpu_run_end(c->r->gpu, c->ncta);
	return NULL;
}

static uint64_t one_kernel(struct rig *r, struct computing *c, unsigned slots, unsigned cores)
{
	pthread_t th;
	uint64_t begin, end;

	uvm_gpu_kernel_begin(r->gpu, 0, c->ncta, slots, cores, 0);
	assert_int_equal(pthread_create(&th, NULL, computing_worker, c), 0);
	pthread_join(th, NULL);
	uvm_gpu_kernel_end(r->gpu, 0, &begin, &end);
	return end - begin;
}

static void test_compute_is_cpu_time_over_dilation(void **state)
{
	struct rig r;
	struct computing c;
	uint64_t k;

	(void)state;
	rig_up(&r, "2");
	/* One CTA on one slot of one core: 6 ms of CPU at D = 2 is 3 ms; the
	 * 60 ms it then spends blocked are not the GPU's. */
	c = (struct computing){&r, 1, 6 * MS, 60 * MS, 0, 0};
	k = one_kernel(&r, &c, 1, 1);
	printf("6 ms of CPU and 60 ms blocked at D = 2: kernel %.3f ms modelled\n",
	       (double)k / 1e6);
	assert_true(k >= 2900 * US);
	assert_true(k < 6 * MS);
	rig_down(&r);
}

static void test_compute_counts_blocks_not_cpu_time(void **state)
{
	struct rig r;
	struct computing c;
	uint64_t k;

	(void)state;
	rig_up(&r, "2");
	/* --compute blocks at 10 ns a block: 300000 blocks are 3 ms of CPU,
	 * 1.5 ms at D = 2, exactly; the 6 ms the thread also burns outside
	 * counted code and the 20 ms it sleeps are nothing. */
	uvm_gpu_set_block_cost(r.gpu, 10.0);
	c = (struct computing){&r, 1, 6 * MS, 20 * MS, 0, 300000};
	k = one_kernel(&r, &c, 1, 1);
	printf("300000 blocks at 10 ns, 6 ms of CPU, 20 ms blocked, D = 2: kernel %.6f ms\n",
	       (double)k / 1e6);
	assert_int_equal(k, 1500 * US);
	/* Back to CPU time: the same worker's 6 ms are 3 ms again. */
	uvm_gpu_set_block_cost(r.gpu, 0);
	c.blocks = 0;
	k = one_kernel(&r, &c, 1, 1);
	assert_true(k >= 2900 * US);
	assert_true(k < 6 * MS);
	rig_down(&r);
}

/* Steps the buffer until told to stop: the driver's side while the test's
 * thread is a worker that waits at a barrier. */
struct stepper {
	struct rig *r;
	_Atomic bool stop;
};

static void *stepping(void *arg)
{
	struct stepper *st = arg;

	while (!atomic_load(&st->stop)) {
		uvm_gpu_step(st->r->gpu);
		sleep_ns(200 * US);
	}
	return NULL;
}

static void run_blocks(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__sanitizer_cov_trace_pc();
}

/*
 * The real driver maps a block at once; on a GPU it is there only when the
 * batch that moved it ends. A slot whose modelled time is earlier faults on
 * it (a late hit) and waits until it arrives, not until the end of the
 * batch its duplicate fault lands in; another warp of the same SM on the
 * same page waits without a fault of its own; after the wait, the blocks
 * that came with it hit.
 */
static void test_late_hit_waits_for_arrival(void **state)
{
	struct rig r;
	struct stepper st;
	pthread_t th;
	const struct uvmemu_slot *slot;
	const _Atomic uint64_t *arrival;
	struct uvm_gpu_stamp s;
	struct uvm_gpu_figures fig;
	uint64_t begin, end, t1;

	(void)state;
	rig_up_latency(&r, "1", "1ms");
	uvm_gpu_set_block_cost(r.gpu, 10.0); /* 100000 blocks are 1 ms, exactly */
	uvm_gpu_kernel_begin(r.gpu, 0, 1, 1, 1, 0);
	slot = uvm_gpu_register(r.gpu, 0, 0);
	assert_non_null(slot);
	uvm_gpu_run_begin(r.gpu, 1);
	run_blocks(100000);
	/* Its fault on block 1 at 1 ms brings blocks 2 and 3 with it. */
	s = uvm_gpu_stamp(r.gpu, (uint32_t)syscall(SYS_gettid));
	assert_int_equal(s.stamp, 1 * MS);
	uvm_gpu_claim(r.gpu, 1, 64 << 10, 1, 0, 0);
	uvm_gpu_follow(r.gpu, 1, 1, 3);
	uvm_gpu_commit(r.gpu, s, 1ull << UVMEMU_BLOCK_SHIFT, true, 0);
	uvm_gpu_warp_end(r.gpu);
	assert_int_equal(uvm_gpu_step(r.gpu), 0);
	/* Its batch: 1 ms of latency from 1 ms (the 64 KB take microseconds). */
	arrival = uvm_gpu_arrivals(r.gpu);
	t1 = atomic_load(&arrival[1]);
	assert_int_equal(t1, 2 * MS);
	/* The next warp, still at 1 ms, reads block 2: mapped on the host,
	 * on its way in modelled time. */
	uvm_gpu_late(r.gpu, 2ull << UVMEMU_BLOCK_SHIFT);
	assert_int_equal(atomic_load(&slot->attention), UVMEMU_ATTN_WARP | UVMEMU_ATTN_LOOP);
	uvm_gpu_warp_end(r.gpu);
	/* The one after it too: its SM waits for the page already. */
	uvm_gpu_late(r.gpu, 2ull << UVMEMU_BLOCK_SHIFT);
	assert_int_equal(atomic_load(&slot->attention), UVMEMU_ATTN_WARP | UVMEMU_ATTN_LOOP);
	uvm_gpu_warp_end(r.gpu);
	st = (struct stepper){&r, false};
	assert_int_equal(pthread_create(&th, NULL, stepping, &st), 0);
	uvm_gpu_barrier(r.gpu);
	atomic_store(&st.stop, true);
	pthread_join(th, NULL);
	/* At 2 ms blocks 3 (it came with block 1) and 4 (it never moved)
	 * are there. */
	uvm_gpu_late(r.gpu, 3ull << UVMEMU_BLOCK_SHIFT);
	uvm_gpu_late(r.gpu, 4ull << UVMEMU_BLOCK_SHIFT);
	assert_int_equal(atomic_load(&slot->attention), 0);
	assert_int_equal(atomic_load(&slot->clock_lb), t1);
	uvm_gpu_run_end(r.gpu, 1);
	uvm_gpu_kernel_end(r.gpu, 0, &begin, &end);
	uvm_gpu_figures(r.gpu, &fig);
	printf("late hit at 1 ms on a block arriving at %.3f ms: kernel %.3f ms, %llu faults in "
	       "%llu batches, %llu late hits, %llu joined\n",
	       (double)t1 / 1e6, (double)(end - begin) / 1e6, (unsigned long long)fig.faults,
	       (unsigned long long)fig.batches, (unsigned long long)fig.late_hits,
	       (unsigned long long)fig.late_joins);
	assert_int_equal(fig.late_hits, 1);
	assert_int_equal(fig.late_joins, 1);
	/* The duplicate is in the second batch (2-3 ms), but the warp went
	 * on when its block arrived: the kernel ends at 2 ms, not 1 ms (no
	 * late hit) nor 3 ms. */
	assert_int_equal(fig.faults, 2);
	assert_int_equal(fig.batches, 2);
	assert_int_equal(end - begin, 2 * MS);
	assert_int_equal(fig.stall_ns, 1 * MS);
	rig_down(&r);
}

/* A block whose own transfers wait for their batch (it led a service, left
 * and came back with another) does not become that one's follower: its
 * ledger would be charged to no batch, and the link would book less than
 * the driver moved. */
static void test_pending_lead_keeps_its_transfers(void **state)
{
	struct rig r;
	const _Atomic uint64_t *arrival;

	(void)state;
	rig_up(&r, "1");
	arrival = uvm_gpu_arrivals(r.gpu);
	uvm_gpu_claim(r.gpu, 5, 64 << 10, 1, 0, 0);
	assert_int_equal(atomic_load(&arrival[5]), UINT64_MAX);
	/* Block 9's service brings blocks 4-6 back. */
	uvm_gpu_follow(r.gpu, 9, 4, 3);
	assert_int_equal(atomic_load(&arrival[5]), UINT64_MAX);
	assert_true(atomic_load(&arrival[4]) != 0 && atomic_load(&arrival[4]) != UINT64_MAX);
	assert_true(atomic_load(&arrival[6]) != 0 && atomic_load(&arrival[6]) != UINT64_MAX);
	rig_down(&r);
}

static void test_unstalled_handout_spreads_over_free_slots(void **state)
{
	struct rig r;
	struct computing c;
	uint64_t k;

	(void)state;
	rig_up(&r, "1");
	/* 8 CTAs in one hand-out on a GPU of 4 slots, run on one core: 4 ms
	 * of CPU is 16 ms of slot time, 2 ms per CTA, two rounds on 4 slots. */
	c = (struct computing){&r, 8, 4 * MS, 0, 0, 0};
	k = one_kernel(&r, &c, 4, 1);
	printf("8 CTAs, 4 ms of CPU on one core, 4 slots: kernel %.3f ms modelled\n",
	       (double)k / 1e6);
	assert_true(k >= 3900 * US);
	assert_true(k < 8 * MS);
	rig_down(&r);
}

/*
 * --gpus 2: each GPU has its own slots and stream. Two kernels of 4 ms of
 * CPU each, one per GPU, launched at the same host time, both begin then and
 * overlap in modelled time (one stream would have run them one after the
 * other: 8 ms); a second kernel on GPU 0 begins after GPU 0's first only. A
 * wait for GPU 1 joins the host with GPU 1's stream, not GPU 0's later one.
 */
static void test_gpus_run_kernels_side_by_side(void **state)
{
	struct rig r;
	struct computing c[2];
	struct uvm_gpu_figures fig;
	pthread_t th[2];
	uint64_t begin[3], end[3], host;
	char err[256];

	(void)state;
	uvm_config_defaults(&r.cfg);
	assert_int_equal(uvm_config_set(&r.cfg, "dilation", "1", "test", err, sizeof(err)), 0);
	assert_int_equal(uvm_config_set(&r.cfg, "gpus", "2", "test", err, sizeof(err)), 0);
	uvm_config_resolve(&r.cfg);
	uvm_model_init(&r.model, &r.cfg);
	assert_int_equal(uvm_gpu_create(&r.gpu, &r.model, &r.cfg, 64, err, sizeof(err)), 0);
	uvm_gpu_set_costs(r.gpu, 0, 0);
	for (unsigned g = 0; g < 2; g++) {
		c[g] = (struct computing){&r, 1, 4 * MS, 0, g, 0};
		uvm_gpu_kernel_begin(r.gpu, g, 1, 1, 1, 1 * MS);
	}
	for (unsigned g = 0; g < 2; g++)
		assert_int_equal(pthread_create(&th[g], NULL, computing_worker, &c[g]), 0);
	for (unsigned g = 0; g < 2; g++)
		pthread_join(th[g], NULL);
	for (unsigned g = 0; g < 2; g++)
		uvm_gpu_kernel_end(r.gpu, g, &begin[g], &end[g]);
	/* GPU 0 again, 20 ms, launched at host time 1 ms: after its first. Long
	 * enough that the host's own CPU time before the wait below (thread
	 * starts and joins: milliseconds under TSan on a loaded machine) does
	 * not reach its end. */
	c[0].cpu_ns = 20 * MS;
	uvm_gpu_kernel_begin(r.gpu, 0, 1, 1, 1, 1 * MS);
	assert_int_equal(pthread_create(&th[0], NULL, computing_worker, &c[0]), 0);
	pthread_join(th[0], NULL);
	uvm_gpu_kernel_end(r.gpu, 0, &begin[2], &end[2]);
	uvm_gpu_figures(r.gpu, &fig);
	printf("two 4 ms kernels on two GPUs: [%.3f, %.3f] and [%.3f, %.3f] ms; GPU 0's next "
	       "[%.3f, %.3f] ms\n",
	       (double)begin[0] / 1e6, (double)end[0] / 1e6, (double)begin[1] / 1e6,
	       (double)end[1] / 1e6, (double)begin[2] / 1e6, (double)end[2] / 1e6);
	assert_int_equal(begin[0], 1 * MS);
	assert_int_equal(begin[1], 1 * MS);
	assert_true(end[0] >= 1 * MS + 3900 * US && end[1] >= 1 * MS + 3900 * US);
	/* Overlapping: GPU 1's ends well before two kernels' time. */
	assert_true(end[1] < begin[0] + 6 * MS);
	assert_int_equal(begin[2], end[0]);
	assert_int_equal(fig.ndev, 2);
	assert_int_equal(fig.dev[0].kernels, 2);
	assert_int_equal(fig.dev[1].kernels, 1);
	assert_int_equal(fig.dev[0].stream_end_ns, end[2]);
	assert_int_equal(fig.dev[1].stream_end_ns, end[1]);
	assert_int_equal(fig.stream_end_ns, end[2] > end[1] ? end[2] : end[1]);
	assert_int_equal(fig.kernels, 3);
	/* The host waits for GPU 1 only: it goes on from GPU 1's end. */
	uvm_gpu_host_pause(r.gpu);
	uvm_gpu_join(r.gpu, 1);
	host = uvm_gpu_host_now(r.gpu);
	assert_true(host >= end[1]);
	assert_true(host < end[2]);
	uvm_gpu_join(r.gpu, -1);
	assert_true(uvm_gpu_host_now(r.gpu) >= end[2]);
	rig_down(&r);
}

/*
 * --gpu gtx1080ti,v100: the dilation is GPU 0's; GPU 1's kernels run faster
 * by the presets' DRAM bandwidths, 900 / 484 GB/s. The same 4 ms of CPU on
 * one slot of one core at D = 1 takes 4 ms on GPU 0 and about 2.15 ms on 1.
 */
static void test_gpu_preset_per_device(void **state)
{
	struct rig r;
	struct computing c;
	uint64_t k[2];
	char err[256];

	(void)state;
	uvm_config_defaults(&r.cfg);
	assert_int_equal(uvm_config_set(&r.cfg, "dilation", "1", "test", err, sizeof(err)), 0);
	assert_int_equal(uvm_config_set(&r.cfg, "gpus", "2", "test", err, sizeof(err)), 0);
	assert_int_equal(uvm_config_set(&r.cfg, "gpu", "gtx1080ti,v100", "test", err, sizeof(err)),
			 0);
	uvm_config_resolve(&r.cfg);
	assert_int_equal(uvm_config_check(&r.cfg, err, sizeof(err)), 0);
	uvm_model_init(&r.model, &r.cfg);
	assert_int_equal(uvm_gpu_create(&r.gpu, &r.model, &r.cfg, 64, err, sizeof(err)), 0);
	uvm_gpu_set_costs(r.gpu, 0, 0);
	for (unsigned g = 0; g < 2; g++) {
		pthread_t th;
		uint64_t begin, end;

		c = (struct computing){&r, 1, 4 * MS, 0, g, 0};
		uvm_gpu_kernel_begin(r.gpu, g, 1, 1, 1, 0);
		assert_int_equal(pthread_create(&th, NULL, computing_worker, &c), 0);
		pthread_join(th, NULL);
		uvm_gpu_kernel_end(r.gpu, g, &begin, &end);
		k[g] = end - begin;
	}
	printf("4 ms of CPU: %.3f ms on a gtx1080ti, %.3f ms on a v100\n", (double)k[0] / 1e6,
	       (double)k[1] / 1e6);
	assert_true(k[0] >= 3900 * US && k[0] < 6 * MS);
	assert_true(k[1] >= 2 * MS && k[1] < 3300 * US);
	rig_down(&r);
}

static void test_host_clock_skips_modelled_calls(void **state)
{
	struct rig r;
	uint64_t at, after;

	(void)state;
	rig_up(&r, "1");
	at = uvm_gpu_host_pause(r.gpu);
	sleep_ns(40 * MS); /* the call's real time, the emulator's */
	uvm_gpu_host_resume(r.gpu, at + 1 * MS);
	after = uvm_gpu_host_now(r.gpu);
	printf("a 1 ms modelled call that took 40 ms: the host moved %.3f ms\n",
	       (double)(after - at) / 1e6);
	assert_true(after - at >= 1 * MS);
	assert_true(after - at < 20 * MS);
	/* A host fault costs the CPU-fault path's 10 us and its transfer on
	 * the link, not the real time its service took. */
	at = uvm_gpu_host_now(r.gpu);
	sleep_ns(40 * MS);
	uvm_gpu_host_fault(r.gpu, at, (const uint64_t[2]){0, 64ull << 20},
			   (const uint32_t[2]){0, 1});
	after = uvm_gpu_host_now(r.gpu);
	printf(
	    "a host fault moving 64 MiB to the host, serviced in 40 ms: the host moved %.3f ms\n",
	    (double)(after - at) / 1e6);
	assert_true(after - at >= 4 * MS); /* 64 MiB at pcie3's 16 GB/s: 4.2 ms */
	assert_true(after - at < 20 * MS);
	rig_down(&r);
}

/*
 * Under --compute blocks the host's code is priced like a kernel's, by the
 * blocks it ran at block_ns each, undilated (host code runs at the host's
 * speed): the CPU time it burns outside counted code, a busy machine and a
 * fault's trap move nothing, and nothing after a host fault is skipped.
 */
static void test_host_clock_counts_blocks(void **state)
{
	struct rig r;
	uint64_t at, after;

	(void)state;
	rig_up(&r, "2");
	uvm_gpu_set_block_cost(r.gpu, 10.0);
	at = uvm_gpu_host_pause(r.gpu);
	uvm_gpu_host_resume(r.gpu, at); /* this thread is the host's */
	burn(6 * MS);
	run_blocks(200000);
	after = uvm_gpu_host_now(r.gpu);
	printf("200000 blocks at 10 ns and 6 ms of CPU outside counted code: the host moved "
	       "%.6f ms\n",
	       (double)(after - at) / 1e6);
	assert_int_equal(after - at, 2 * MS);
	at = uvm_gpu_host_now(r.gpu);
	uvm_gpu_host_fault(r.gpu, at, (const uint64_t[2]){0, 64ull << 10},
			   (const uint32_t[2]){0, 1});
	at = uvm_gpu_host_now(r.gpu);
	burn(2 * MS);
	run_blocks(100000);
	assert_int_equal(uvm_gpu_host_now(r.gpu) - at, 1 * MS);
	rig_down(&r);
}

/* ------------------------------------------- remote (zero-copy) traffic */

/*
 * Remote transactions cost their bytes at the link's rate and, with at most
 * --remote-inflight of them outstanding, a latency each: on a 1 GB/s link of
 * 1 us with 4 in flight, small transactions are latency-bound (250 ns each)
 * and large ones bandwidth-bound. Booked at t, the last lands a latency
 * after the direction is free, and the next booking queues behind it.
 */
static void test_remote_transactions_pay_latency(void **state)
{
	static const char *const set[][2] = {
	    {"link-bw", "1G"}, {"link-latency", "1us"}, {"remote-inflight", "4"}};
	struct uvm_config cfg;
	struct uvm_link l;
	char err[256];

	(void)state;
	uvm_config_defaults(&cfg);
	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		assert_int_equal(
		    uvm_config_set(&cfg, set[i][0], set[i][1], "test", err, sizeof(err)), 0);
	uvm_config_resolve(&cfg);
	uvm_link_init(&l, &cfg);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 0, 0, 1), 0);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 128, 1, 1), 250);
	/* The same bytes in twice the transactions take twice as long. */
	assert_int_equal(uvm_link_remote_busy_ns(&l, 128000, 1000, 1), 250 * US);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 128000, 2000, 1), 500 * US);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 40960, 10, 1), 40960);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 128, 1, 2), 500);
	assert_int_equal(uvm_link_book_remote(&l, UVM_H2D, 128000, 1000, 1 * MS, 1),
			 1 * MS + 250 * US + 1 * US);
	assert_int_equal(uvm_link_book_remote(&l, UVM_H2D, 128, 1, 1 * MS, 1),
			 1 * MS + 250 * US + 250 + 1 * US);
	/* The other direction is free. */
	assert_int_equal(uvm_link_book_remote(&l, UVM_D2H, 128, 1, 1 * MS, 1),
			 1 * MS + 250 + 1 * US);
	uvm_link_destroy(&l);
}

/* A link of `set` (pairs of option and value). */
static void link_of(struct uvm_link *l, const char *const (*set)[2], size_t n)
{
	struct uvm_config cfg;
	char err[256];

	uvm_config_defaults(&cfg);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(
		    uvm_config_set(&cfg, set[i][0], set[i][1], "test", err, sizeof(err)), 0);
	uvm_config_resolve(&cfg);
	uvm_link_init(l, &cfg);
}

/*
 * pcie3-uvmsmart answers a remote access as GPGPU-Sim UVMSmart does: 135 ns
 * after it is issued, one at a time, whatever its size (its curve's 2.2
 * GB/s would move 128 bytes in 58 ns); pcie3 keeps 256 in flight, a
 * microsecond each. --remote-latency and --remote-inflight override a
 * preset's; --link-latency moves the remote latency of a preset without one.
 */
static void test_remote_latency_of_presets(void **state)
{
	static const char *const smart[][2] = {{"link", "pcie3-uvmsmart"}};
	static const char *const pcie3[][2] = {{"link", "pcie3"}};
	static const char *const over[][2] = {
	    {"link", "pcie3-uvmsmart"}, {"remote-latency", "1us"}, {"remote-inflight", "4"}};
	static const char *const custom[][2] = {{"link", "pcie3"}, {"link-latency", "2us"}};
	struct uvm_link l;

	(void)state;
	link_of(&l, smart, 1);
	assert_int_equal(uvm_link_remote_latency_ns(&l), 135);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 128, 1, 1), 135);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 32000, 1000, 1), 135 * US);
	/* A migration's transfer keeps the curve and no latency of its own. */
	assert_int_equal(uvm_link_book(&l, UVM_H2D, 65536, 0, 1), uvm_link_busy_ns(&l, 65536, 1));
	/* Remote transactions queue behind it on the direction they share. */
	assert_int_equal(uvm_link_book_remote(&l, UVM_H2D, 128, 1, 0, 1),
			 uvm_link_busy_ns(&l, 65536, 1) + 135 + 135);
	uvm_link_destroy(&l);
	link_of(&l, pcie3, 1);
	assert_int_equal(uvm_link_remote_latency_ns(&l), 1 * US);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 12800, 256, 1), 1 * US);
	uvm_link_destroy(&l);
	link_of(&l, over, 3);
	assert_int_equal(uvm_link_remote_latency_ns(&l), 1 * US);
	assert_int_equal(uvm_link_remote_busy_ns(&l, 128, 1, 1), 250);
	uvm_link_destroy(&l);
	link_of(&l, custom, 2);
	assert_int_equal(uvm_link_remote_latency_ns(&l), 2 * US);
	uvm_link_destroy(&l);
}

/* ------------------------------------------------------------ turns */

#define TURN_CTAS 4

/* Workers running the executor's loop: the turn, a ticket, the CTA. */
struct turns {
	struct rig *r;
	_Atomic unsigned next, running;
	pthread_mutex_t lock;
	char log[128];
};

struct turn_thread {
	struct turns *t;
	unsigned delay_ms; /* real time before it asks for its first turn */
};

static void note(struct turns *t, unsigned cta, char what)
{
	size_t n;

	pthread_mutex_lock(&t->lock);
	n = strlen(t->log);
	snprintf(t->log + n, sizeof(t->log) - n, "%s%u%c", n ? " " : "", cta, what);
	pthread_mutex_unlock(&t->lock);
}

/* Kernel code runs in one worker at a time. */
static void enter_code(struct turns *t)
{
	assert_int_equal(atomic_fetch_add(&t->running, 1), 0);
}

static void leave_code(struct turns *t)
{
	atomic_fetch_sub(&t->running, 1);
}

static void *turn_worker(void *arg)
{
	struct turn_thread *me = arg;
	struct turns *t = me->t;
	struct uvm_gpu *g = t->r->gpu;
	/* CTA 0: 1 ms, a far fault, 0.5 ms; the others 2, 1 and 1 ms. */
	static const uint64_t work[TURN_CTAS] = {100000, 200000, 100000, 100000};

	sleep_ns(me->delay_ms * MS);
	assert_non_null(uvm_gpu_register(g, 0, 0));
	for (;;) {
		unsigned c;

		assert_true(uvm_gpu_turn_take(g));
		c = atomic_fetch_add(&t->next, 1);
		if (c >= TURN_CTAS) {
			uvm_gpu_turn_pass(g);
			break;
		}
		uvm_gpu_run_begin(g, 1);
		enter_code(t);
		note(t, c, 'b');
		run_blocks(work[c]);
		if (c == 0) {
			struct uvm_gpu_stamp s = uvm_gpu_stamp(g, (uint32_t)syscall(SYS_gettid));

			assert_int_equal(s.stamp, 1 * MS);
			uvm_gpu_claim(g, 1, 64 << 10, 1, 0, 0);
			uvm_gpu_commit(g, s, 1ull << UVMEMU_BLOCK_SHIFT, true, 0);
			note(t, c, 'f');
			uvm_gpu_warp_end(g);
			leave_code(t);
			uvm_gpu_barrier(g); /* the turn goes to whoever is earliest */
			enter_code(t);
			note(t, c, 'r');
			run_blocks(50000);
		}
		note(t, c, 'e');
		leave_code(t);
		uvm_gpu_run_end(g, 1);
	}
	return NULL;
}

/*
 * --schedule model: one worker runs kernel code at a time, and the turn
 * goes to whoever is earliest in modelled time, however the threads reach
 * it in real time. CTA 0 faults at 1 ms and waits; CTA 1 takes the other
 * slot from 0 to 2 ms, and its end forms CTA 0's batch (1.2 ms of fault
 * latency: it ends at 2.2 ms). CTA 2 then starts first (its slot is free
 * at 2 ms), CTA 0 goes on when CTA 2 ends at 3 ms (it is then the
 * earliest), and CTA 3 takes CTA 0's slot at its end, from 2.7 to 3.7 ms.
 * Under the host's schedule workers run side by side, and CTA 0 goes on as
 * soon as its batch forms.
 */
static void test_turns_run_earliest_first(void **state)
{
	static const unsigned delays[][3] = {{0, 3, 6}, {6, 3, 0}, {0, 0, 0}};
	char err[256];

	(void)state;
	for (size_t d = 0; d < sizeof(delays) / sizeof(delays[0]); d++) {
		struct turns t = {.lock = PTHREAD_MUTEX_INITIALIZER};
		struct turn_thread tt[3];
		struct rig r;
		struct stepper st = {.r = &r};
		pthread_t th[3], step;
		uint64_t begin, end;

		t.r = &r;
		uvm_config_defaults(&r.cfg);
		assert_int_equal(
		    uvm_config_set(&r.cfg, "schedule", "model", "test", err, sizeof(err)), 0);
		assert_int_equal(uvm_config_set(&r.cfg, "dilation", "1", "test", err, sizeof(err)),
				 0);
		assert_int_equal(
		    uvm_config_set(&r.cfg, "fault-latency", "1200us", "test", err, sizeof(err)), 0);
		uvm_config_resolve(&r.cfg);
		uvm_model_init(&r.model, &r.cfg);
		assert_int_equal(uvm_gpu_create(&r.gpu, &r.model, &r.cfg, 64, err, sizeof(err)), 0);
		uvm_gpu_set_costs(r.gpu, 0, 0);
		uvm_gpu_set_block_cost(r.gpu, 10.0); /* 100000 blocks are 1 ms, exactly */
		/* Two slots on two cores at D = 1: a worker's work is its slot's. */
		uvm_gpu_kernel_begin(r.gpu, 0, TURN_CTAS, 2, 2, 0);
		assert_int_equal(pthread_create(&step, NULL, stepping, &st), 0);
		for (unsigned i = 0; i < 3; i++) {
			tt[i] = (struct turn_thread){&t, delays[d][i]};
			assert_int_equal(pthread_create(&th[i], NULL, turn_worker, &tt[i]), 0);
		}
		for (unsigned i = 0; i < 3; i++)
			pthread_join(th[i], NULL);
		atomic_store(&st.stop, true);
		pthread_join(step, NULL);
		uvm_gpu_kernel_end(r.gpu, 0, &begin, &end);
		printf("turns, workers asking after %u, %u and %u ms: %s; kernel %.6f ms\n",
		       delays[d][0], delays[d][1], delays[d][2], t.log,
		       (double)(end - begin) / 1e6);
		assert_string_equal(t.log, "0b 0f 1b 1e 2b 2e 0r 0e 3b 3e");
		/* CTA 3 from CTA 0's end at 2.7 ms, for 1 ms. */
		assert_true(end - begin >= 3700 * US - 1 * US);
		assert_true(end - begin <= 3700 * US + 1 * US);
		rig_down(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_batch_holds_faults_stamped_by_its_start),
	    cmocka_unit_test(test_batch_size_caps_a_batch),
	    cmocka_unit_test(test_fetch_window_takes_faults_issued_while_reading),
	    cmocka_unit_test(test_fault_gap_spreads_arrivals),
	    cmocka_unit_test(test_vablock_cost_lengthens_batches),
	    cmocka_unit_test(test_batches_form_in_modelled_time),
	    cmocka_unit_test(test_compute_is_cpu_time_over_dilation),
	    cmocka_unit_test(test_compute_counts_blocks_not_cpu_time),
	    cmocka_unit_test(test_late_hit_waits_for_arrival),
	    cmocka_unit_test(test_pending_lead_keeps_its_transfers),
	    cmocka_unit_test(test_unstalled_handout_spreads_over_free_slots),
	    cmocka_unit_test(test_gpus_run_kernels_side_by_side),
	    cmocka_unit_test(test_gpu_preset_per_device),
	    cmocka_unit_test(test_host_clock_skips_modelled_calls),
	    cmocka_unit_test(test_host_clock_counts_blocks),
	    cmocka_unit_test(test_remote_transactions_pay_latency),
	    cmocka_unit_test(test_remote_latency_of_presets),
	    cmocka_unit_test(test_turns_run_earliest_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
