/* SPDX-License-Identifier: MIT */
/*
 * use.h - which allocations a kernel launch uses: those whose pointers it
 * receives in its argument struct (known when it starts), and those its
 * kernel reaches through pointers read from memory (EMU_DEV marks one byte
 * per 2 MB of the arena, uvmemu.h's uvmemu_kernel_ptr; read and cleared when
 * it ends). The lists go to kernels.csv and, through the profile, to the
 * object managers.
 */
#ifndef UVM_OBJ_USE_H
#define UVM_OBJ_USE_H

#include "trace.h"
#include "uvmemu.h"

struct uvm_emu;

/* Reserves the marks (one byte per vablock of the arena). */
int uvm_objuse_init(struct uvm_emu *e);
void uvm_objuse_destroy(struct uvm_emu *e);
/* Clears the marks of a range being freed (arena offset, length). */
void uvm_objuse_forget(struct uvm_emu *e, uint64_t off, uint64_t len);
/* Starts o's lists over with the allocations the launch's arguments point into. */
void uvm_objuse_args(struct uvm_emu *e, const struct uvmemu_launch *l, struct uvm_trace_objs *o);
/* Adds the allocations the launch reached through EMU_DEV and not as
 * arguments, and clears the marks for the next launch. */
void uvm_objuse_reached(struct uvm_emu *e, struct uvm_trace_objs *o);

#endif
