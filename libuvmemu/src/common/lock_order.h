/* SPDX-License-Identifier: MIT */
/*
 * lock_order.h - libuvmemu's mutexes, each with its place in the lock order,
 * and the check of that order.
 *
 * The order, and why each lock sits where it does, is written once: in
 * docs/architecture.md, section "Locks". In short, a thread may take a lock
 * only while every lock it already holds comes earlier in enum
 * uvm_lock_order (outermost first).
 *
 * With UVMEMU_LOCK_CHECK (CMake option of the same name: on in Debug and
 * sanitizer builds) each thread keeps a record of the orders it holds;
 * taking a lock that is not later than one already held, releasing one not
 * held, waiting on a condition variable while holding a later lock, or
 * waiting for the driver thread while holding a lock it may need prints the
 * locks' names and aborts, as nvidia-uvm's uvm_lock.h does; so does a
 * function that requires a lock called without it, and driver state touched
 * from a thread other than the driver's. Without it the helpers are the
 * plain pthread calls.
 */
#ifndef UVM_LOCK_ORDER_H
#define UVM_LOCK_ORDER_H

#include <pthread.h>
#include <time.h>

/*
 * The locks, outermost first: UVM_LOCK_<ID> in enum uvm_lock_order, and the
 * name the check prints. docs/architecture.md, "Locks", says what each
 * guards and which nestings exist.
 */
#define UVM_LOCKS(X)                                                                               \
	X(INTERRUPT, "interrupt")	      /* interrupt.h: the report is written once */        \
	X(EMU, "emulator")		      /* emu.h: allocation info, launch record */          \
	X(SESSION, "session")		      /* session.h: calibration, ROI, reported values */   \
	X(DRIVER_CMD, "driver command queue") /* driver_int.h: the command queue */                \
	X(RANGES, "ranges")		      /* ranges.h: the table of address ranges */          \
	X(ARENA, "arena")		      /* arena.h: slot bitmap, publishing new metadata */  \
	X(DRIVER_STATS, "driver statistics")  /* driver_int.h: totals, thrashing statistics */     \
	X(POOL, "pool")			      /* pool.h: device memory accounting */               \
	X(GPU_CLOCK, "GPU clock")	      /* model/gpu.c: slot clocks, the modelled buffer */  \
	X(LINK, "link")			      /* link.h: the token buckets, the observer */        \
	X(TRACE, "trace queue")		      /* trace.c: the record queue */                      \
	X(TRACE_CTA, "trace CTA queue")	      /* trace.c: the workers' CTA records */              \
	X(PROGRESS, "progress line")	      /* progress.h: its thread's stop flag */             \
	X(EXECUTOR, "executor")		      /* emu-gpu's eg.lock: nests with nothing */

/* clang-format off */
enum uvm_lock_order {
#define UVM_LOCK_ENUM(id, name) UVM_LOCK_##id,
	UVM_LOCKS(UVM_LOCK_ENUM)
#undef UVM_LOCK_ENUM
	UVM_LOCK_ORDER_COUNT
};
/* clang-format on */

struct uvm_mutex {
	pthread_mutex_t m;
	enum uvm_lock_order order;
};

const char *uvm_lock_name(enum uvm_lock_order order);

/* The check (lock_order.c); the helpers below call them only when
 * UVMEMU_LOCK_CHECK is set, but they are always built, so a test can check
 * them in any build. */
void uvm_lock_order_acquire(enum uvm_lock_order order);
void uvm_lock_order_release(enum uvm_lock_order order);
/* Before waiting on a condition variable with `order` held: it must be the
 * innermost lock held, since the wait takes it again. */
void uvm_lock_order_wait(enum uvm_lock_order order);
/* Before waiting for another thread (named by `whom`) that takes locks of its
 * own: no lock later than `outermost` may be held. */
void uvm_lock_order_handoff(enum uvm_lock_order outermost, const char *whom);
/* A function that requires `order` held (named by `who`) checks it. */
void uvm_lock_order_held(enum uvm_lock_order order, const char *who);

/*
 * Threads with a role (the driver thread) say so once; what only such a
 * thread may touch checks it where it is touched, with the same switch as
 * the lock check. A thread has one role at most.
 */
enum uvm_thread_role { UVM_ROLE_NONE = 0, UVM_ROLE_DRIVER };
void uvm_thread_role_set(enum uvm_thread_role role);
void uvm_thread_role_check(enum uvm_thread_role role, const char *what);

#ifndef UVMEMU_LOCK_CHECK
#define UVMEMU_LOCK_CHECK 0
#endif

static inline void uvm_mutex_init(struct uvm_mutex *mu, enum uvm_lock_order order)
{
	pthread_mutex_init(&mu->m, NULL);
	mu->order = order;
}

/*
 * A lock the real-time driver thread shares with a thread of normal
 * priority that holds it for longer than a moment (the trace writer): with
 * priority inheritance the holder runs at the driver's priority while the
 * driver waits, instead of waiting itself behind the program's busy workers
 * for a core, with the driver blocked behind it.
 */
static inline void uvm_mutex_init_pi(struct uvm_mutex *mu, enum uvm_lock_order order)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	/* Without it (no PI futexes), a plain mutex: only slower. */
	if (pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT) ||
	    pthread_mutex_init(&mu->m, &a))
		pthread_mutex_init(&mu->m, NULL);
	pthread_mutexattr_destroy(&a);
	mu->order = order;
}

static inline void uvm_mutex_destroy(struct uvm_mutex *mu)
{
	pthread_mutex_destroy(&mu->m);
}

/* Checked before the lock is taken, so that a wrong order aborts at once
 * instead of deadlocking first. */
static inline void uvm_mutex_lock(struct uvm_mutex *mu)
{
	if (UVMEMU_LOCK_CHECK)
		uvm_lock_order_acquire(mu->order);
	pthread_mutex_lock(&mu->m);
}

static inline void uvm_mutex_unlock(struct uvm_mutex *mu)
{
	if (UVMEMU_LOCK_CHECK)
		uvm_lock_order_release(mu->order);
	pthread_mutex_unlock(&mu->m);
}

/* The mutex is released and taken again inside the wait; the record keeps it
 * held throughout, which is right once the wait returns. */
static inline void uvm_cond_wait(pthread_cond_t *c, struct uvm_mutex *mu)
{
	if (UVMEMU_LOCK_CHECK)
		uvm_lock_order_wait(mu->order);
	pthread_cond_wait(c, &mu->m);
}

static inline int uvm_cond_timedwait(pthread_cond_t *c, struct uvm_mutex *mu,
				     const struct timespec *until)
{
	if (UVMEMU_LOCK_CHECK)
		uvm_lock_order_wait(mu->order);
	return pthread_cond_timedwait(c, &mu->m, until);
}

static inline void uvm_lock_assert_handoff(enum uvm_lock_order outermost, const char *whom)
{
	if (UVMEMU_LOCK_CHECK)
		uvm_lock_order_handoff(outermost, whom);
}

static inline void uvm_lock_assert_held(const struct uvm_mutex *mu, const char *who)
{
	if (UVMEMU_LOCK_CHECK)
		uvm_lock_order_held(mu->order, who);
}

static inline void uvm_assert_role(enum uvm_thread_role role, const char *what)
{
	if (UVMEMU_LOCK_CHECK)
		uvm_thread_role_check(role, what);
}

#endif
