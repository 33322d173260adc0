/* SPDX-License-Identifier: MIT */
/*
 * placement.h - which NUMA nodes hold "device" and "host" memory.
 *
 * On a multi-socket machine --device-node and --host-node make the two kinds
 * of frames physically different memories: the device view (and cudaMalloc
 * memory) is bound to one node, the memfd that holds host frames to another
 * (a shared policy on the file, so every mapping of it allocates there).
 * hwloc discovers the nodes; libnuma's mbind binds.
 */
#ifndef UVM_PLACEMENT_H
#define UVM_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

struct uvm_placement {
	int device_node, host_node; /* -1: not bound */
	int nnodes;
	char nodes[128]; /* "0" or "0,1" as the OS numbers them */
};

/* Checks the requested nodes exist; a one-line error names the node and the
 * ones the machine has. */
int uvm_placement_init(struct uvm_placement *p, const struct uvm_config *cfg, char *err,
		       size_t errlen);
/* Binds [addr, addr + len) to a node (no-op for -1). */
int uvm_placement_bind(const struct uvm_placement *p, uintptr_t addr, size_t len, int node);
/*
 * With --pin on, emu-gpu's workers leave the first core free where the
 * machine has more than two; the calling thread (the driver) takes it.
 * Returns 1 when pinned, 0 when there is no core to spare, or -errno.
 */
int uvm_placement_pin_driver(void);
/* "device node 0, host node 0 (single-node machine)" for reports. */
void uvm_placement_describe(const struct uvm_placement *p, char *buf, size_t len);

#endif
