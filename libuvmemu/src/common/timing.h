/* SPDX-License-Identifier: MIT */
/*
 * timing.h - reading the host's clocks, for what the emulator really spends.
 *
 * Every module measures its real costs (a batch's stages, a probe, the region
 * of interest) with these; none of them is a modelled time, which only the
 * model module (model/model.h) computes.
 */
#ifndef UVM_TIMING_H
#define UVM_TIMING_H

#include <stdint.h>
#include <time.h>

/* A clock's time in ns; uvm_now_ns is CLOCK_MONOTONIC's. */
uint64_t uvm_clock_ns(clockid_t id);
uint64_t uvm_now_ns(void);

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
