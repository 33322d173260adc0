/* SPDX-License-Identifier: MIT */
/*
 * abandon.h - the run is ending: the model's waits stop waiting.
 *
 * A modelled wait may be long (a slow link at a high dilation: minutes per
 * transfer), and a SIGINT or SIGTERM must end the run in a second or two
 * with its report, which waits for the driver thread. So the first such
 * signal abandons every wait for the model, those under way and those to
 * come: the driver finishes the batch at hand at once and answers the
 * report. Process-wide, as the signal is: one flag, not one per emulator.
 */
#ifndef UVM_ABANDON_H
#define UVM_ABANDON_H

#include <stdbool.h>
#include <stdint.h>

/* Ends every wait in uvm_sleep_until now and later (async-signal-safe). */
void uvm_abandon_waits(void);
bool uvm_waits_abandoned(void);
/* Sleeps until `deadline` (CLOCK_MONOTONIC ns), or until the waits are
 * abandoned, with the precision of clock_nanosleep. */
void uvm_sleep_until(uint64_t deadline);

#endif
