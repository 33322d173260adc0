// SPDX-License-Identifier: MIT
/*
 * pin.c - blocks made resident and mapped on the host, and kept there, for
 * a system call on a managed buffer (emu/host_pin.c asks; mm's mprotect and
 * user-mode-only captures need it).
 */
#include "driver_int.h"

struct pin_call {
	struct uvm_driver *d;
	size_t first, n;
	uint8_t *had;
};

static void pin_blocks(void *arg)
{
	struct pin_call *c = arg;
	struct uvm_driver *d = c->d;
	struct uvm_space *s = d->dep.space;
	size_t first = c->first, end = first + c->n;

	uvm_assert_driver_thread(d);
	d->seq++;
	for (size_t b = first; b < end; b++) {
		c->had[b - first] = s->block[b].advice & UVM_ADV_PIN_HOST;
		if (s->block[b].state != UVM_UNALLOCATED)
			s->block[b].advice |= UVM_ADV_PIN_HOST;
	}
	uvm_service_prefetch(d, first, c->n, false);
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

	uvm_assert_driver_thread(c->d);
	for (size_t i = 0; i < c->n; i++)
		if (!c->had[i] && s->block[c->first + i].state != UVM_UNALLOCATED)
			s->block[c->first + i].advice &= (uint8_t)~UVM_ADV_PIN_HOST;
}

void uvm_driver_pin_host(struct uvm_driver *d, size_t first, size_t n, uint8_t *had)
{
	uvm_driver_call(d, pin_blocks, &(struct pin_call){d, first, n, had});
}

void uvm_driver_unpin_host(struct uvm_driver *d, size_t first, size_t n, uint8_t *had)
{
	uvm_driver_call(d, unpin_blocks, &(struct pin_call){d, first, n, had});
}
