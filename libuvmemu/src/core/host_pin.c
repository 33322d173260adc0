// SPDX-License-Identifier: MIT
/* host_pin.c - blocks resident and mapped on the host for a system call. */
#include "host_pin.h"

#include <errno.h>
#include <stdlib.h>

#include "driver_int.h"
#include "emu.h"

struct pin_call {
	struct uvm_driver *d;
	struct uvm_host_pin *pin;
};

static void pin_blocks(void *arg)
{
	struct pin_call *c = arg;
	struct uvm_driver *d = c->d;
	struct uvm_space *s = d->dep.space;
	size_t first = c->pin->first, end = first + c->pin->n;

	d->seq++;
	for (size_t b = first; b < end; b++) {
		c->pin->had[b - first] = s->block[b].advice & UVM_ADV_PIN_HOST;
		if (s->block[b].state != UVM_UNALLOCATED)
			s->block[b].advice |= UVM_ADV_PIN_HOST;
	}
	uvm_service_prefetch(d, first, c->pin->n, false);
	/* Resident on the host is not enough: the kernel needs the host view
	 * mapped (an eviction leaves it to the CPU's next touch). */
	for (size_t b = first; b < end;) {
		size_t run = 0;

		while (b + run < end && s->block[b + run].state == UVM_HOST &&
		       uvm_vablock_of(b + run) == uvm_vablock_of(b))
			run++;
		if (run)
			uvm_be_host_map(&d->backend, b, run, 0);
		b += run ? run : 1;
	}
	d->st.wrapped_syscalls++;
}

static void unpin_blocks(void *arg)
{
	struct pin_call *c = arg;
	struct uvm_space *s = c->d->dep.space;

	for (size_t i = 0; i < c->pin->n; i++)
		if (!c->pin->had[i] && s->block[c->pin->first + i].state != UVM_UNALLOCATED)
			s->block[c->pin->first + i].advice &= (uint8_t)~UVM_ADV_PIN_HOST;
}

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
	uvm_driver_call(e->driver, pin_blocks, &(struct pin_call){e->driver, pin});
	return 1;
}

void uvm_host_unpin(struct uvm_emu *e, struct uvm_host_pin *pin)
{
	if (!pin->had)
		return;
	uvm_driver_call(e->driver, unpin_blocks, &(struct pin_call){e->driver, pin});
	free(pin->had);
	pin->had = NULL;
}
