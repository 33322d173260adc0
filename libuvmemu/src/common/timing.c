// SPDX-License-Identifier: MIT
/* timing.c - the host's clocks in nanoseconds. */
#include "timing.h"

uint64_t uvm_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t uvm_now_ns(void)
{
	return uvm_clock_ns(CLOCK_MONOTONIC);
}
