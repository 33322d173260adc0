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

static inline uint64_t uvm_elapsed_ns(uint64_t since)
{
	return uvm_now_ns() - since;
}

/* Runs `stmt` and adds the real time it took to the nanosecond counter `acc`
 * (a batch stage: UVM_TIMED(st->ns.unmap, madvise(...))). */
#define UVM_TIMED(acc, stmt)                                                                       \
	do {                                                                                       \
		uint64_t uvm_timed_t0_ = uvm_now_ns();                                             \
		stmt;                                                                              \
		(acc) += uvm_elapsed_ns(uvm_timed_t0_);                                            \
	} while (0)

#endif
