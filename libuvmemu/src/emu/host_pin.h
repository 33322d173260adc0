/* SPDX-License-Identifier: MIT */
/*
 * host_pin.h - managed memory made resident on the host, and kept there, for
 * the length of a system call (shim/syscalls.c).
 *
 * Under the mprotect and user-mode-only captures a kernel-mode access to a
 * page not mapped in the host view fails with EFAULT instead of faulting.
 * A pin migrates the blocks a call's buffer touches to the host, maps them
 * in the host view, and sets their host-pinned advice, so that a GPU touch
 * meanwhile maps them remotely instead of taking them away; the unpin
 * restores the advice the blocks had. Both run on the driver thread.
 */
#ifndef UVM_HOST_PIN_H
#define UVM_HOST_PIN_H

#include <stddef.h>
#include <stdint.h>

struct uvm_emu;

struct uvm_host_pin {
	size_t first, n; /* blocks */
	uint8_t *had;	 /* per block: host-pinned before (restored at unpin) */
};

/* Pins the managed blocks of [p, p + len); 1 if pinned, 0 if none are
 * managed, -errno. */
int uvm_host_pin(struct uvm_emu *e, const void *p, size_t len, struct uvm_host_pin *pin);
void uvm_host_unpin(struct uvm_emu *e, struct uvm_host_pin *pin);

#endif
