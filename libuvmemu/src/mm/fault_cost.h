/* SPDX-License-Identifier: MIT */
/*
 * fault_cost.h - what a far fault costs the faulting thread in CPU time on
 * this machine: the trap, the kernel's queueing and waking, the retried
 * access. The model clock counts a worker's CPU time as the kernel's
 * compute; this part of it is the emulator's, not the kernel's, so the GPU
 * clock takes it off per fault a worker takes.
 */
#ifndef UVM_FAULT_COST_H
#define UVM_FAULT_COST_H

#include <stddef.h>

struct uvm_fault_cost {
	double us;    /* CPU per fault on the faulting thread (0: not measured) */
	char how[96]; /* what was measured, or why not */
};

/* Times rounds of userfaultfd minor faults resolved by a helper thread, on a
 * userfaultfd of its own: the median round's CPU per fault. */
void uvm_fault_cost_probe(struct uvm_fault_cost *c);

#endif
