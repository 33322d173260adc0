// SPDX-License-Identifier: MIT
/* host_pin.c - blocks resident and mapped on the host for a system call. */
#include "host_pin.h"

#include <errno.h>
#include <stdlib.h>

#include "emu_int.h"

int uvm_host_pin(struct uvm_emu *e, const void *p, size_t len, struct uvm_host_pin *pin)
{
	uintptr_t a = (uintptr_t)p, lo = e->arena.host, hi = lo + e->arena.size;
	uint64_t off, end;

	pin->had = NULL;
	if (!len || a >= hi || a + len <= lo)
		return 0;
	off = a < lo ? 0 : a - lo;
	end = a + len > hi ? e->arena.size : a + len - lo;
	pin->first = off >> UVM_BLOCK_SHIFT;
	pin->n = ((end + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT) - pin->first;
	pin->had = malloc(pin->n);
	if (!pin->had)
		return -ENOMEM;
	uvm_driver_pin_host(e->driver, pin->first, pin->n, pin->had);
	return 1;
}

void uvm_host_unpin(struct uvm_emu *e, struct uvm_host_pin *pin)
{
	if (!pin->had)
		return;
	uvm_driver_unpin_host(e->driver, pin->first, pin->n, pin->had);
	free(pin->had);
	pin->had = NULL;
}
