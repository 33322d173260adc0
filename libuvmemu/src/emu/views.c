// SPDX-License-Identifier: MIT
/* views.c - the translation between an instance's host and device views. */
#include "device.h"
#include "emu_int.h"

/* The calling thread's current device's view (cudaSetDevice): a kernel it
 * launches reaches managed data through that GPU's device view. */
unsigned uvm_emu_current_gpu(const struct uvm_emu *e)
{
	int g = uvm_front_device();

	return g < 0 || (unsigned)g >= e->arena.ngpus ? 0 : (unsigned)g;
}

void uvm_emu_view_map(struct uvm_emu *e, struct uvmemu_view_map *map)
{
	unsigned g = uvm_emu_current_gpu(e);

	map->host_lo = e->arena.host;
	map->host_hi = e->arena.host + e->arena.size;
	map->device_offset = (intptr_t)(e->arena.devs[g] - e->arena.host);
	map->reached = e->reached;
}

void *uvm_emu_host_ptr(struct uvm_emu *e, const void *device_ptr)
{
	uintptr_t a = (uintptr_t)device_ptr;
	uint64_t off;

	if (uvm_arena_gpu_of(&e->arena, a, &off) >= 0)
		a = e->arena.host + off;
	return (void *)a;
}
