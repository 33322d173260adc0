// SPDX-License-Identifier: MIT
/* clock.c - waiting until a deadline without overshooting it by much. */
#include "clock.h"

#include <sched.h>
#include <time.h>

/* How much earlier than the deadline a sleep is asked to end; the rest is
 * spent yielding. Measured overshoot of clock_nanosleep on the project's VMs
 * is 50-70 us. */
#define SLEEP_MARGIN_NS 80000u

void uvm_wait_until(uint64_t deadline)
{
	uint64_t now = uvm_now_ns();

	if (now >= deadline)
		return;
	if (deadline - now > SLEEP_MARGIN_NS) {
		uint64_t wake = deadline - SLEEP_MARGIN_NS;
		struct timespec ts = {.tv_sec = (time_t)(wake / 1000000000u),
				      .tv_nsec = (long)(wake % 1000000000u)};

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	while (uvm_now_ns() < deadline)
		sched_yield();
}
