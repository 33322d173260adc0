/* SPDX-License-Identifier: MIT */
/* clock.h - monotonic time in nanoseconds and waiting until a deadline. */
#ifndef UVM_CLOCK_H
#define UVM_CLOCK_H

#include <pthread.h>
#include <stdint.h>

#include "timing.h"

/*
 * Returns at or just after `deadline` (uvm_now_ns() time), or at once when a
 * signal is ending the run (abandon.h). Sleeps through most of a long wait
 * and spins through the last stretch (at most 80 us): a plain sleep
 * overshoots by tens of microseconds on a VM, the size of the latencies
 * being modelled, and a yield can lose the core for a whole time slice.
 */
void uvm_wait_until(uint64_t deadline);

/*
 * Makes the calling thread's sleeps end on time (a timer slack of 1 ns, not
 * the default 50 us). For the driver thread. Returns what took, for the
 * report (system.driver_wait).
 */
const char *uvm_clock_precise_thread(void);

/*
 * Makes thread `t` real time (SCHED_FIFO 1), so that it runs as soon as its
 * sleeps end. Returns 0, or -errno when refused.
 */
int uvm_clock_realtime(pthread_t t);
/* Who may have real time, for the messages that say how to get it. */
#define UVM_REALTIME_WHO "root, CAP_SYS_NICE or ulimit -r 1"

#endif
