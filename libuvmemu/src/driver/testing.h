/* SPDX-License-Identifier: MIT */
/*
 * testing.h - what tests of the driver ask that the emulator itself never
 * does: a sampling pass on demand, the counts behind it, and the candidate
 * queue's tables. Only tests include it.
 */
#ifndef UVM_DRIVER_TESTING_H
#define UVM_DRIVER_TESTING_H

#include <stddef.h>
#include <stdint.h>

#include "candidates.h"
#include "driver.h"

/* REMOTE blocks the device view maps now (sampling has not unmapped them). */
uint64_t uvm_driver_remote_mapped(struct uvm_driver *d);
/* Runs a sampling pass now, whatever the period (waits). */
void uvm_driver_sample(struct uvm_driver *d);

/* Block b's frame, or UVM_CQ_NONE. */
uint32_t uvm_cq_frame_of(const struct uvm_cq *q, size_t b);
/* The block frame f holds, or UVM_CQ_NONE (free or queued). */
uint32_t uvm_cq_block_of(const struct uvm_cq *q, uint32_t f);

#endif
