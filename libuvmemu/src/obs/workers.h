/* SPDX-License-Identifier: MIT */
/*
 * workers.h - which SM an executor worker thread stands for, by thread id,
 * so that fault traces can name the SM that faulted. Lock-free: workers
 * register once, the driver looks up.
 */
#ifndef UVM_WORKERS_H
#define UVM_WORKERS_H

#include <stdatomic.h>
#include <stdint.h>

#define UVM_WORKERS_SLOTS 4096 /* a power of two, well above sms x ctas_per_sm */

struct uvm_workers {
	_Atomic uint64_t slot[UVM_WORKERS_SLOTS]; /* tid << 32 | sm + 1; 0 = empty */
};

void uvm_workers_add(struct uvm_workers *w, uint32_t tid, unsigned sm);
/* The SM of thread tid, or -1 if it is not a registered worker. */
int uvm_workers_sm(const struct uvm_workers *w, uint32_t tid);

#endif
