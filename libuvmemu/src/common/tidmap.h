/* SPDX-License-Identifier: MIT */
/*
 * tidmap.h - thread id to a small number (an SM, a slot record's index),
 * read without locks: a fault names its thread only by id, and the driver
 * must find the thread's record in the time a fault takes.
 */
#ifndef UVM_TIDMAP_H
#define UVM_TIDMAP_H

#include <stdatomic.h>
#include <stdint.h>

#define UVM_TIDMAP_SLOTS 4096 /* a power of two, well above sms x ctas_per_sm */

struct uvm_tidmap {
	_Atomic uint64_t slot[UVM_TIDMAP_SLOTS]; /* tid << 32 | value + 1; 0 = empty */
};

/* Maps tid to value (a thread id reused takes its new value); a full map
 * drops it. */
void uvm_tidmap_add(struct uvm_tidmap *m, uint32_t tid, uint32_t value);
/* The value of thread tid, or -1 if it has none. */
int64_t uvm_tidmap_get(const struct uvm_tidmap *m, uint32_t tid);

#endif
