// SPDX-License-Identifier: MIT
/* clock.c - waiting until a deadline without overshooting it by much. */
#include "clock.h"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include "abandon.h"

/* How much earlier than the deadline a sleep is asked to end; the rest is
 * spun. A thread with the default timer slack (50 us) oversleeps by 50-70 us
 * on the project's VMs; the driver thread, with a slack of 1 ns, by 25-40. */
#define SLEEP_MARGIN_NS 80000u

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/*
 * The last stretch is spun, not yielded: a thread that yields to a runnable
 * emu-gpu worker (SCHED_BATCH) gets its core back only when the worker's
 * slice ends, 1-4 ms later (measured with four busy workers on this 2-core
 * VM: 4.3 ms late on average for a 50 us wait, against 3.5 us spinning).
 * A sleep can still end late, when the timer fires but the scheduler lets a
 * worker finish its slice first (500 us waits beside four busy workers: 0.1 us
 * late at the median, 105-150 us on average, 2-5 ms at the 99th percentile;
 * neither a shorter driver slice nor nicer workers removed that tail; a
 * real-time driver does, uvm_clock_realtime). Those are the latencies being
 * modelled, so the driver reports how late it woke (time_s.late_wake,
 * model.late_wakes) rather than hiding it in the throttle.
 */
void uvm_wait_until(uint64_t deadline)
{
	uint64_t now = uvm_now_ns();

	if (now >= deadline)
		return;
	if (deadline - now > SLEEP_MARGIN_NS)
		uvm_sleep_until(deadline - SLEEP_MARGIN_NS);
	/* A run ended by a signal stops waiting for the model (abandon.h). */
	while (uvm_now_ns() < deadline && !uvm_waits_abandoned())
		cpu_relax();
}

const char *uvm_clock_precise_thread(void)
{
	/* The default slack (50 us) would add its own overshoot to every sleep
	 * the model asks for. */
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) == 0)
		return "timer slack 1 ns, spin through the last 80 us";
	return "default timer slack, spin through the last 80 us";
}

/*
 * Why real time: with the driver a normal thread, a sleep that ended still
 * waited for the running SM worker's slice (EEVDF protects it), 2-8 ms late
 * at the 99th percentile beside four busy workers on this 2-core VM. At
 * SCHED_FIFO 1 the driver preempts them when its timer fires: 500 us waits,
 * same four workers, 1.4 us late on average and 36 us at the 99th
 * percentile, against 120 us and 6.3 ms. The driver sleeps through its waits
 * and blocks on the userfaultfd between batches, so it takes a core only for
 * the work a GPU's faults would stall on anyway; the kernel's real-time
 * throttle bounds it besides.
 */
int uvm_clock_realtime(pthread_t t)
{
	struct sched_param sp = {.sched_priority = 1};

	return -pthread_setschedparam(t, SCHED_FIFO, &sp);
}
