// SPDX-License-Identifier: MIT
/* views.c - the translation between an instance's host and device views. */
#include "emu_int.h"

void uvm_emu_view_map(struct uvm_emu *e, struct uvmemu_view_map *map)
{
	map->host_lo = e->arena.host;
	map->host_hi = e->arena.host + e->arena.size;
	map->device_offset = (intptr_t)(e->arena.dev - e->arena.host);
	map->reached = e->reached;
}

void *uvm_emu_host_ptr(struct uvm_emu *e, const void *device_ptr)
{
	uintptr_t a = (uintptr_t)device_ptr;

	if (a >= e->arena.dev && a < e->arena.dev + e->arena.size)
		a = a - e->arena.dev + e->arena.host;
	return (void *)a;
}
