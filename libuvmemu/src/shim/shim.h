/* SPDX-License-Identifier: MIT */
/* shim.h - what the preloaded runtime's files share (preload.c owns it). */
#ifndef UVM_SHIM_H
#define UVM_SHIM_H

struct uvm_emu;

/* The process's emulator instance, or NULL before it has started (never
 * starts it). */
struct uvm_emu *uvm_rt_emu_started(void);

#endif
