// SPDX-License-Identifier: MIT
/* placement.c - NUMA nodes for device and host memory (hwloc + libnuma). */
#include "placement.h"

#include <errno.h>
#include <hwloc.h>
#include <numa.h>
#include <numaif.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool has_node(const struct uvm_placement *p, hwloc_topology_t topo, int node)
{
	int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);

	for (int i = 0; i < n; i++)
		if ((int)hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i)->os_index ==
		    node)
			return true;
	return false;
}

int uvm_placement_init(struct uvm_placement *p, const struct uvm_config *cfg, char *err,
		       size_t errlen)
{
	hwloc_topology_t topo;
	int rc = 0;
	size_t len = 0;

	memset(p, 0, sizeof(*p));
	p->device_node = (int)uvm_cfg_i(cfg, UVM_OPT_device_node);
	p->host_node = (int)uvm_cfg_i(cfg, UVM_OPT_host_node);
	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo)) {
		snprintf(err, errlen, "hwloc could not read the machine's topology");
		return -EIO;
	}
	p->nnodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	for (int i = 0; i < p->nnodes && len < sizeof(p->nodes); i++)
		len += (size_t)snprintf(
		    p->nodes + len, sizeof(p->nodes) - len, "%s%u", i ? "," : "",
		    hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i)->os_index);
	for (int k = 0; k < 2 && !rc; k++) {
		int node = k ? p->host_node : p->device_node;

		if (node >= 0 && !has_node(p, topo, node)) {
			snprintf(err, errlen,
				 "--%s %d: no such NUMA node; this machine has node%s %s",
				 k ? "host-node" : "device-node", node, p->nnodes > 1 ? "s" : "",
				 p->nodes);
			rc = -EINVAL;
		}
	}
	if (!rc && (p->device_node >= 0 || p->host_node >= 0) && numa_available() < 0) {
		snprintf(err, errlen, "NUMA binding asked for, but the kernel has no NUMA support");
		rc = -ENOTSUP;
	}
	hwloc_topology_destroy(topo);
	return rc;
}

int uvm_placement_bind(const struct uvm_placement *p, uintptr_t addr, size_t len, int node)
{
	unsigned long mask[16] = {0};

	if (node < 0)
		return 0;
	if ((size_t)node >= sizeof(mask) * 8)
		return -EINVAL;
	mask[node / (8 * sizeof(mask[0]))] |= 1ul << (node % (8 * sizeof(mask[0])));
	if (mbind((void *)addr, len, MPOL_BIND, mask, sizeof(mask) * 8, 0))
		return -errno;
	return 0;
}

int uvm_placement_pin_driver(void)
{
	hwloc_topology_t topo;
	hwloc_obj_t core;
	int rc = 0;

	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo))
		return -EIO;
	/* Two cores are shared by everyone: nothing to reserve. */
	if (hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 2) {
		core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, 0);
		rc = hwloc_set_cpubind(topo, core->cpuset, HWLOC_CPUBIND_THREAD) ? -errno : 1;
	}
	hwloc_topology_destroy(topo);
	return rc;
}

void uvm_placement_describe(const struct uvm_placement *p, char *buf, size_t len)
{
	char dev[24], host[24];

	snprintf(dev, sizeof(dev), p->device_node < 0 ? "unbound" : "node %d", p->device_node);
	snprintf(host, sizeof(host), p->host_node < 0 ? "unbound" : "node %d", p->host_node);
	snprintf(buf, len, "device memory %s, host memory %s; machine nodes: %s%s", dev, host,
		 p->nodes,
		 p->nnodes == 1 ? " (single-node machine: both sides share one memory)" : "");
}
