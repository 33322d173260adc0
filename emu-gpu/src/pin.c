// SPDX-License-Identifier: MIT
/*
 * pin.c - --pin on: bind SM workers to cores with hwloc.
 *
 * Worker w runs on core first + w % usable, so the workers of one SM spread
 * over the cores in turn. With more than two cores, core 0 (hwloc's logical
 * index 0) is left to the driver thread and the rest of the process; with one
 * or two cores reserving one would halve the executor, so the workers use all
 * of them and share with the driver.
 */
#include <errno.h>
#include <hwloc.h>

#include "executor.h"

/* Loads the topology and finds the first usable core and their count. */
static int usable_cores(hwloc_topology_t *topo, unsigned *first)
{
	int cores;

	if (hwloc_topology_init(topo))
		return -ENOMEM;
	if (hwloc_topology_load(*topo)) {
		hwloc_topology_destroy(*topo);
		return -EINVAL;
	}
	cores = hwloc_get_nbobjs_by_type(*topo, HWLOC_OBJ_CORE);
	if (cores <= 0) {
		hwloc_topology_destroy(*topo);
		return -EINVAL;
	}
	*first = cores > 2 ? 1 : 0;
	return cores - (int)*first;
}

int eg_pin_cores(void)
{
	hwloc_topology_t topo;
	unsigned first;
	int usable = usable_cores(&topo, &first);

	if (usable > 0)
		hwloc_topology_destroy(topo);
	return usable;
}

int eg_pin_workers(struct eg_worker *workers, unsigned n)
{
	hwloc_topology_t topo;
	unsigned first;
	int usable = usable_cores(&topo, &first), err = 0;

	if (usable < 0)
		return usable;
	for (unsigned i = 0; i < n && !err; i++) {
		hwloc_obj_t core =
		    hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, first + i % (unsigned)usable);

		if (!core || hwloc_set_thread_cpubind(topo, workers[i].thread, core->cpuset,
						      HWLOC_CPUBIND_THREAD))
			err = -EINVAL;
	}
	hwloc_topology_destroy(topo);
	return err ? err : usable;
}
