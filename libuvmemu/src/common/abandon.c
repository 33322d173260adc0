// SPDX-License-Identifier: MIT
/* abandon.c - waits for the model that a signal can end (abandon.h). */
#include "abandon.h"

#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "timing.h" /* uvm_now_ns() */

/* A futex word, so that abandoning wakes the sleepers at once: a timed
 * futex wait ends at its deadline as precisely as clock_nanosleep (the
 * same high-resolution timer, the same timer slack). */
static _Atomic uint32_t abandoned;

void uvm_abandon_waits(void)
{
	atomic_store(&abandoned, 1);
	syscall(SYS_futex, &abandoned, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

bool uvm_waits_abandoned(void)
{
	return atomic_load_explicit(&abandoned, memory_order_relaxed) != 0;
}

void uvm_sleep_until(uint64_t deadline)
{
	struct timespec ts = {.tv_sec = (time_t)(deadline / 1000000000u),
			      .tv_nsec = (long)(deadline % 1000000000u)};

	/* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline; it
	 * returns early on a signal, hence the loop. */
	while (!uvm_waits_abandoned() && uvm_now_ns() < deadline)
		syscall(SYS_futex, &abandoned, FUTEX_WAIT_BITSET_PRIVATE, 0, &ts, NULL,
			FUTEX_BITSET_MATCH_ANY);
}
