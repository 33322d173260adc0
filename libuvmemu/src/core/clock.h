/* SPDX-License-Identifier: MIT */
/* clock.h - monotonic time in nanoseconds and waiting until a deadline. */
#ifndef UVM_CLOCK_H
#define UVM_CLOCK_H

#include <stdint.h>

#include "session.h" /* uvm_now_ns() */

/*
 * Returns at or just after `deadline` (uvm_now_ns() time). Sleeps through most
 * of a long wait and yields the core through the last stretch: a plain sleep
 * overshoots by tens of microseconds on a VM, which is the size of the
 * latencies being modelled, and spinning would steal a core from the workers.
 */
void uvm_wait_until(uint64_t deadline);

#endif
