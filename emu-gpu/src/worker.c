// SPDX-License-Identifier: MIT
/*
 * worker.c - an SM slot: a thread that runs one CTA at a time.
 *
 * Workers sleep on a futex and wake when a kernel of their device starts
 * (each device has its pool; everything below is per device: `current`, the
 * futex words, the slots). Joining a kernel and
 * taking CTAs are lock-free, so that a hundred workers on two cores do not
 * queue on a mutex at every launch:
 *
 *   join   read current (seq + 1 of the running kernel), take a reference
 *          on its slot (active++), and re-read current. If it changed, the
 *          kernel ended in between and the slot may already hold a later
 *          launch: drop the reference, touch nothing else. A launcher reuses a
 *          slot only after its kernel completed and active is 0, so a
 *          reference taken while current still named the kernel keeps the
 *          slot intact (both sides use sequentially consistent operations).
 *   run    take tickets until the grid is exhausted (tickets.h); ticket t
 *          is CTA t in ascending order, n-1-t in descending order. A kernel
 *          that starts faulting has one share of tickets, so CTA k is handed
 *          out before CTA k+1 (or k-1); one that does not has a share per
 *          main worker, taken by that worker first (below). A worker runs
 *          the CTAs of one hand-out in ticket order.
 *   leave  add the CTAs this worker finished to done in one operation; the
 *          worker that brings done to the grid size completes the kernel.
 *          Then active--.
 *
 * Shares. Main workers run every kernel, and a kernel that does not fault
 * runs at memory speed: there, where a CTA's data was last written decides
 * its speed. Handed out from one counter, CTA k of the next launch went to
 * whichever core asked first, so a stencil's tile mostly read its previous
 * launch's output from the other core's cache (the stencil of bench-executor
 * ran 1.2-1.5x slower than plain C split in two halves, and used 1.2-1.9x
 * its CPU time). So such a kernel's grid is split into one contiguous share
 * per main worker, the same at every launch; a worker that finishes its
 * share takes hand-outs from the others'. When a hand-out blocks on a far
 * fault the kernel becomes faulting and every worker, spares too, takes from
 * the lowest share with tickets left, so from then on the grid goes out in
 * dispatch order. Until then the other main workers' hand-outs from their
 * own shares run ahead of that order: at a kernel's start one CTA each (a
 * kernel's hand-outs start at one), more where their CTAs found their data
 * resident and ran at memory speed, and the hand-out each is running when the
 * kernel turns faulting.
 *
 * Hand-out size. A GPU hands out one CTA at a time, and so does a worker at
 * the start of each kernel. Every hand-out writes its share's counter, and
 * between cores that cache line costs about 60-100 ns: for CTAs of a few
 * hundred simple threads (a stream triad CTA of 256 floats takes ~150 ns) the
 * counter, and CTAs alternating between cores at 1 KB steps, made the executor
 * three times slower than plain C. So the hand-out doubles, up to --cta-chunk-max
 * CTAs, while a doubled hand-out would still finish within --cta-chunk-target,
 * and falls back to one CTA as soon as one takes more than twice that: a CTA
 * that takes a far fault (tens of microseconds at least) or a long CTA is
 * handed out alone, as a GPU would, and only CTAs that run at memory speed are
 * grouped. A hand-out stays a run of consecutive tickets, so the dispatch
 * order holds.
 *
 * Waking. Workers stand for SM slots, and slots matter only while CTAs stall
 * on far faults: a kernel that never blocks runs fastest on one worker per
 * core, and a hundred runnable threads on two cores only cost time slices,
 * cache refills and stragglers at the kernel's end. So the first nmain
 * workers, one per core (the main workers), join every kernel, and the others
 * (spares) join only a kernel that is `faulting`:
 *
 *   - a kernel starts faulting if the one before it blocked, and becomes
 *     faulting when one of its hand-outs blocks: a hand-out that took longer
 *     than a far fault and during which the worker's thread slept (its
 *     voluntary context switches grew: a thread blocked in a userfaultfd fault
 *     sleeps in the kernel; one merely preempted, or running a long CTA, does
 *     not). Asking costs a system call, made only after a slow hand-out.
 *     The memory system also tells the executor when its driver fetches
 *     GPU faults (eg_workers_stalled), which turns the kernel faulting while
 *     the stalled CTA still waits: a long CTA's hand-out may not end for the
 *     whole kernel.
 *   - in a faulting kernel every worker that joins with CTAs left wakes one
 *     more spare, so there is always one spare runnable: when a worker blocks
 *     on a far fault, the core it frees runs the spare, which takes the next
 *     CTA and wakes the next spare, so up to every slot can end up waiting on
 *     faults at once, and their faults gather into the driver's batches.
 *
 * Main and spare workers sleep on separate futex words, so that a kernel's
 * start wakes exactly the main ones and a faulting kernel one spare at a time.
 */
#include <errno.h>
#include <sched.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "executor.h"

/* Initial-exec: the fault handler reads it, and must not allocate. */
static _Thread_local struct eg_worker *self __attribute__((tls_model("initial-exec")));

struct eg_worker *eg_self(void)
{
	return self;
}

static void futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
	/* EAGAIN (the word moved on) and EINTR both mean: look again. */
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word, unsigned n)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n > INT_MAX ? INT_MAX : (int)n, NULL, NULL, 0);
}

static bool is_main(const struct eg_worker *w)
{
	return w->id < w->dev->nmain;
}

static void wake(_Atomic uint32_t *word, unsigned n)
{
	atomic_fetch_add(word, 1);
	futex_wake(word, n);
}

void eg_workers_run(struct eg_device *d, struct eg_kernel *k)
{
	/* In turns (uvmemu_turns) every worker joins: whichever is at the gate
	 * runs the next CTA while the others wait for their batches. */
	bool faulting = atomic_load(&d->faulting) || (!k->internal && uvmemu_turns());

	/* One share per main worker unless the kernel starts faulting (see the
	 * top); published with the kernel by the store to d->current. */
	eg_tickets_split(&k->tickets, k->ncta, faulting ? 1 : d->nmain);
	atomic_store(&k->faulting, faulting);
	atomic_store(&d->current, k->seq + 1);
	wake(&d->wake_main, d->nmain);
	if (faulting)
		wake(&d->wake_spare, 1);
}

void eg_workers_wake_all(struct eg_device *d)
{
	wake(&d->wake_main, UINT_MAX);
	wake(&d->wake_spare, UINT_MAX);
}

/* Did the calling worker's thread sleep since the last call? */
static bool slept(struct eg_worker *w)
{
	struct rusage ru;
	bool yes;

	if (getrusage(RUSAGE_THREAD, &ru))
		return false;
	yes = ru.ru_nvcsw != w->nvcsw;
	w->nvcsw = ru.ru_nvcsw;
	return yes;
}

/* A hand-out of k blocked: spares join from now on (see the top). The flag
 * is stored before the spares' futex word moves, so a spare that sees the
 * word move sees the flag. */
static void note_blocked(struct eg_device *d, struct eg_kernel *k)
{
	atomic_store_explicit(&k->blocked, true, memory_order_relaxed);
	if (!atomic_load_explicit(&k->faulting, memory_order_relaxed) &&
	    !atomic_exchange(&k->faulting, true))
		wake(&d->wake_spare, 1);
}

/*
 * The memory system fetched far faults of GPU workers: a CTA of the running
 * kernel is blocked in the kernel's userfaultfd wait, where its worker can
 * say nothing. Turn the kernel faulting now, so that a spare takes the core;
 * waiting for the stalled hand-out to end (note_blocked's usual caller) left
 * a kernel of long, fault-heavy CTAs on its main workers alone, one fault per
 * batch. The reference on the slot is join's protocol: the slot cannot be
 * reused for a later launch while it is held and current still names it.
 */
static void stalled(struct eg_device *d)
{
	uint64_t cur = atomic_load(&d->current);
	struct eg_kernel *k;

	if (cur == 0)
		return;
	k = &d->slots[(cur - 1) % EG_QUEUE_DEPTH];
	atomic_fetch_add(&k->active, 1);
	if (atomic_load(&d->current) == cur)
		note_blocked(d, k);
	atomic_fetch_sub(&k->active, 1);
}

/* The hook does not say which GPU's CTAs stalled: every device's running
 * kernel turns faulting (a kernel that did not fault only wakes a spare,
 * which finds nothing to block on and runs CTAs like a main worker). */
void eg_workers_stalled(void)
{
	for (unsigned i = 0; i < eg.cfg.ndev; i++)
		if (atomic_load(&eg.dev[i].ready))
			stalled(&eg.dev[i]);
}

static struct eg_kernel *join(struct eg_worker *w, uint64_t *last)
{
	struct eg_device *d = w->dev;
	uint64_t cur = atomic_load(&d->current);
	struct eg_kernel *k;

	if (cur == 0 || cur == *last)
		return NULL;
	k = &d->slots[(cur - 1) % EG_QUEUE_DEPTH];
	atomic_fetch_add(&k->active, 1);
	/* A spare turned away does not note the kernel as seen: it joins if the
	 * kernel becomes faulting later. */
	if (atomic_load(&d->current) != cur || (!is_main(w) && !atomic_load(&k->faulting))) {
		atomic_fetch_sub(&k->active, 1);
		return NULL;
	}
	*last = cur;
	slept(w); /* the sleeps before this kernel do not count in it */
	/* Keep one spare on its way while CTAs are left (see the top). */
	if (atomic_load(&k->faulting) && eg_tickets_left(&k->tickets))
		wake(&d->wake_spare, 1);
	return k;
}

static void set_block_idx(struct emu_cta *cta, const struct eg_kernel *k, uint64_t c)
{
	cta->block_idx.x = (unsigned)(c % k->grid.x);
	c /= k->grid.x;
	cta->block_idx.y = (unsigned)(c % k->grid.y);
	cta->block_idx.z = (unsigned)(c / k->grid.y);
}

/* The next CTA of a hand-out, without set_block_idx's divisions: one up
 * (ascending) or down (descending), x fastest. */
static void step_block_idx(struct emu_cta *cta, const struct eg_kernel *k)
{
	dim3 *b = &cta->block_idx;

	if (!k->desc) {
		if (++b->x < k->grid.x)
			return;
		b->x = 0;
		if (++b->y < k->grid.y)
			return;
		b->y = 0;
		b->z++;
	} else {
		if (b->x-- > 0)
			return;
		b->x = k->grid.x - 1;
		if (b->y-- > 0)
			return;
		b->y = k->grid.y - 1;
		b->z--;
	}
}

static uint64_t cta_of(const struct eg_kernel *k, uint64_t ticket)
{
	return k->desc ? k->ncta - 1 - ticket : ticket;
}

/*
 * The CTAs of tickets [first, end), in order. The recovery point is set once
 * for the chunk; the position lives in the worker (memory, not a local), so
 * that after a fault's siglongjmp it names the CTA that faulted. The rest of
 * the chunk is then skipped, as the whole kernel is.
 */
static void run_chunk(struct eg_worker *w, struct eg_kernel *k, struct emu_cta *cta, uint64_t first,
		      uint64_t end)
{
	w->ticket = first;
	if (sigsetjmp(w->recover, 0)) {
		uint64_t c = cta_of(k, w->ticket);

		w->in_cta = 0;
		eg_fault_recovered(w, k, c);
		if (!k->internal)
			uvmemu_cta_end(k->index, (unsigned)c, w->sm);
		return;
	}
	set_block_idx(cta, k, cta_of(k, first));
	for (; w->ticket < end; w->ticket++) {
		uint64_t c = cta_of(k, w->ticket);

		if (atomic_load_explicit(&k->abort, memory_order_relaxed))
			return;
		if (w->ticket != first)
			step_block_idx(cta, k);
		if (!k->internal)
			uvmemu_cta_begin(k->index, (unsigned)c, w->sm);
		w->in_cta = 1;
		atomic_signal_fence(memory_order_seq_cst);
		k->kernel->fn(cta, k->args);
		atomic_signal_fence(memory_order_seq_cst);
		w->in_cta = 0;
		if (!k->internal)
			uvmemu_cta_end(k->index, (unsigned)c, w->sm);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The kernel's hand-out size after a hand-out of `ran` CTAs (of `size` asked
 * for) took `ns` (see the top). It is one value per kernel, so that a slow CTA
 * anywhere sends every worker back to single CTAs at once, and a fresh kernel
 * on a hundred workers reaches its full size after a few hand-outs, not a few
 * per worker. Races between workers only cost a doubling or a reset.
 */
static void resize_chunk(struct eg_kernel *k, uint32_t size, uint64_t ran, uint64_t ns)
{
	if (ns > 2 * eg.cfg.chunk_target_ns) {
		if (size != 1)
			atomic_store_explicit(&k->chunk, 1, memory_order_relaxed);
	} else if (ran == size && 2 * ns <= eg.cfg.chunk_target_ns && size < eg.cfg.chunk_max) {
		atomic_compare_exchange_strong_explicit(&k->chunk, &size, 2 * size,
							memory_order_relaxed, memory_order_relaxed);
	}
}

/*
 * Workers are throughput threads: SCHED_BATCH keeps a woken worker from
 * preempting one that is running a CTA (it runs when a core frees: a worker
 * blocks on a far fault or its time slice ends), and the driver thread, a
 * normal thread, still preempts workers at once. Without it, each spare woken
 * during a kernel preempted a running worker in mid hand-out. Unprivileged
 * threads may always choose it; if refused, the default policy is only slower.
 * Only from the default policy: a process started under SCHED_IDLE (`chrt
 * --idle 0`, a background job) must not have its workers raise themselves
 * above its other threads and the rest of the machine, and a real-time one
 * keeps its class.
 */
static void set_batch_policy(struct eg_worker *w)
{
	struct sched_param none = {0};

	if (sched_getscheduler(0) == SCHED_OTHER)
		w->batch_policy = !pthread_setschedparam(pthread_self(), SCHED_BATCH, &none);
}

/*
 * In turns (uvmemu_turns) one worker runs at a time and each hand-over
 * wakes the next: there is no running worker to protect, and SCHED_BATCH,
 * which never lets a woken thread preempt, made each hand-over wait for a
 * time slice of whatever else the machine ran (ra beside two busy loops:
 * 25 s against 4.7 s side by side). So a worker in turns goes back to the
 * default policy it came from.
 */
static void leave_batch_policy(struct eg_worker *w)
{
	struct sched_param none = {0};

	if (w->batch_policy && !pthread_setschedparam(pthread_self(), SCHED_OTHER, &none))
		w->batch_policy = false;
}

/* Runs k's CTAs until none are left. True when k is still running on other
 * workers and does not fault: the caller may linger for the next kernel. */
static bool run_kernel(struct eg_worker *w, struct eg_kernel *k)
{
	struct emu_cta cta = {
	    .block_dim = k->block,
	    .grid_dim = k->grid,
	    .nthreads = k->nthreads,
	    .sm = w->sm,
	    .shared = k->shared_bytes ? w->shared : NULL,
	    .shared_bytes = k->shared_bytes,
	    .launch = k->index,
	    .views = &k->views,
	    .gmmu = eg.gmmu,
	    .slot = k->internal ? NULL : w->model_slot,
	};
	uint64_t mine = 0;
	bool linger = false;
	/* In turns a hand-out is one CTA, taken in dispatch order by the
	 * worker whose turn it is: the model, not the host, decides which
	 * slot runs what (uvmemu.h). */
	bool turns = cta.slot && uvmemu_turns();

	if (turns)
		leave_batch_policy(w);
	w->kernel = k;
	for (;;) {
		uint32_t size = turns ? 1 : atomic_load_explicit(&k->chunk, memory_order_relaxed);
		/* Once the kernel faults, from the lowest share (dispatch order). */
		unsigned own = atomic_load_explicit(&k->faulting, memory_order_relaxed) ? 0 : w->id;
		uint64_t t, end, t0;

		if (turns)
			uvmemu_turn_take();
		if (!eg_tickets_take(&k->tickets, own, size, &t, &end)) {
			if (turns)
				uvmemu_turn_pass();
			break;
		}
		t0 = now_ns();
		if (cta.slot)
			uvmemu_run_begin(end - t);
		run_chunk(w, k, &cta, t, end);
		if (cta.slot)
			uvmemu_run_end(end - t);
		/* Skipped CTAs of an aborted kernel count as done too. */
		mine += end - t;
		t0 = now_ns() - t0;
		resize_chunk(k, size, end - t, t0);
		/* Only a hand-out slow enough to hold a far fault can have slept on
		 * one, and only then is the system call worth it. */
		if (t0 > 2 * eg.cfg.chunk_target_ns && slept(w))
			note_blocked(w->dev, k);
	}
	w->kernel = NULL;
	/* acq_rel: the finisher sees every CTA's stores (the release sequence of
	 * done), and synchronize() sees them through eg.lock. */
	if (atomic_fetch_add_explicit(&k->done, mine, memory_order_acq_rel) + mine == k->ncta) {
		if (mine)
			eg_complete_kernel(w->dev, k);
	} else {
		linger = is_main(w) && !atomic_load_explicit(&k->faulting, memory_order_relaxed);
	}
	atomic_fetch_sub(&k->active, 1);
	return linger;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * A main worker that found no CTA left while others still run k's last
 * hand-outs waits for the next kernel by watching its device's `current`,
 * for at most twice the hand-out target (about the longest a last hand-out of a kernel
 * that does not fault takes) and never more than LINGER_MAX_NS, before it
 * sleeps on the futex. When the program queued several launches, the next
 * one starts as soon as k completes, and this worker joins it at once.
 * Without the wait it slept at such a launch boundary and was woken when the
 * next kernel started: a futex wait, a context switch and the latency of
 * waking a thread (more if its CPU went idle) per launch. A worker alone on
 * its core (one main worker) completes every kernel itself and never waits
 * here, and faulting kernels do not either: their CTAs block for long.
 */
#define LINGER_MAX_NS 100000u

static void linger(const struct eg_device *d, uint64_t seen)
{
	uint64_t wait = 2 * eg.cfg.chunk_target_ns;
	uint64_t deadline = now_ns() + (wait < LINGER_MAX_NS ? wait : LINGER_MAX_NS);

	for (unsigned i = 1;; i++) {
		uint64_t cur = atomic_load_explicit(&d->current, memory_order_relaxed);

		if ((cur != 0 && cur != seen) ||
		    atomic_load_explicit(&eg.shutdown, memory_order_relaxed))
			return;
		cpu_relax();
		if (i % 64 == 0 && now_ns() > deadline)
			return;
	}
}

static void *worker_main(void *arg)
{
	struct eg_worker *w = arg;
	struct eg_device *d = w->dev;
	uint64_t last = 0;
	char name[40];

	self = w;
	/* Named by device, SM and slot, so that top -H, perf and traces tell
	 * them apart (device 0's keep the one-GPU names). */
	if (d->id == 0)
		snprintf(name, sizeof(name), "emu-sm%u.%u", w->sm, w->slot);
	else
		snprintf(name, sizeof(name), "emu%u-sm%u.%u", d->id, w->sm, w->slot);
	name[15] = '\0'; /* a thread's name holds 15 characters */
	pthread_setname_np(pthread_self(), name);
	eg_fault_thread_enter(w);
	set_batch_policy(w);

	/* The worker is on its GPU, as a kernel's threads are: the runtime
	 * files its slot under the thread's current device (uvmemu.h), and
	 * cudaGetDevice in a kernel names it. Device 0 is every thread's start. */
	if (d->id != 0)
		cudaSetDevice((int)d->id);
	w->model_slot = uvmemu_worker_register(w->sm, w->slot);
	eg_lock();
	d->registered++;
	pthread_cond_broadcast(&eg.changed);
	eg_unlock();
	for (;;) {
		_Atomic uint32_t *word = is_main(w) ? &d->wake_main : &d->wake_spare;
		uint32_t gen = atomic_load(word);
		struct eg_kernel *k = join(w, &last);

		if (k) {
			if (run_kernel(w, k))
				linger(d, last);
			continue;
		}
		if (atomic_load(&eg.shutdown))
			break;
		futex_wait(word, gen);
	}
	eg_fault_thread_leave(w);
	free(w->shared);
	w->shared = NULL;
	return NULL;
}

int eg_worker_start(struct eg_worker *w)
{
	pthread_attr_t attr;
	int err;

	w->shared = aligned_alloc(EG_CACHELINE, EG_MAX_SHARED);
	if (!w->shared)
		return -ENOMEM;
	err = eg_fault_thread_init(w);
	if (err)
		goto err_shared;
	err = -pthread_attr_init(&attr);
	if (err)
		goto err_fault;
	err = -pthread_attr_setstacksize(&attr, EG_STACK_SIZE);
	if (!err)
		err = -pthread_create(&w->thread, &attr, worker_main, w);
	pthread_attr_destroy(&attr);
	if (err)
		goto err_fault;
	return 0;

err_fault:
	eg_fault_thread_free(w);
err_shared:
	free(w->shared);
	w->shared = NULL;
	return err;
}
