/* SPDX-License-Identifier: MIT */
/*
 * opt_trace.h - reading the access trace --evict opt takes (--opt-trace FILE)
 * into a per-block index of the launches that use each 64 KB block. Apart
 * from evict_opt.c so that a fuzz target can drive the parser on a buffer.
 */
#ifndef UVM_OPT_TRACE_H
#define UVM_OPT_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define UVM_OPT_TRACE_HEADER "launch,kernel,alloc,block,accesses,source"

/* The launches that use block b, ascending and distinct:
 * use[start[b] .. start[b + 1]) for b < nblk. */
struct uvm_opt_trace {
	size_t nblk; /* blocks the trace covers: its largest block + 1 */
	uint32_t *start;
	uint32_t *use;
};

/*
 * Reads a trace from f, `name` naming it in messages; blocks must be below
 * nblocks. Returns 0, or -EINVAL / -EIO / -ENOMEM with a one-line message
 * "--opt-trace NAME[:LINE]: ..." in err; *t then holds nothing.
 */
int uvm_opt_trace_read(FILE *f, const char *name, size_t nblocks, struct uvm_opt_trace *t,
		       char *err, size_t errlen);
void uvm_opt_trace_fini(struct uvm_opt_trace *t);

#endif
