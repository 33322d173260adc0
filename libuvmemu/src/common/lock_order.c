// SPDX-License-Identifier: MIT
/* lock_order.c - the per-thread record of held locks and its checks
 * (lock_order.h; the order itself: docs/architecture.md, "Locks"). */
#include "lock_order.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

_Static_assert(UVM_LOCK_ORDER_COUNT <= 32, "the record is a 32-bit mask");

static const char *const names[UVM_LOCK_ORDER_COUNT] = {
#define UVM_LOCK_NAME(id, name) [UVM_LOCK_##id] = name,
    UVM_LOCKS(UVM_LOCK_NAME)
#undef UVM_LOCK_NAME
};

/* Bit n: this thread holds a lock of order n. No two locks of one order are
 * ever held together (the check refuses it), so a bit is enough. */
static _Thread_local uint32_t held;
/* What this thread is (the driver thread says so when it starts). */
static _Thread_local enum uvm_thread_role role;

const char *uvm_lock_name(enum uvm_lock_order order)
{
	return order < UVM_LOCK_ORDER_COUNT ? names[order] : "unknown";
}

/* The innermost lock held, as a mask bit's index (-1: none). */
static int innermost(uint32_t mask)
{
	return mask ? 31 - __builtin_clz(mask) : -1;
}

static _Noreturn void violated(const char *what, enum uvm_lock_order order, int other)
{
	if (other >= 0)
		fprintf(stderr,
			"uvmemu: internal error: lock order: %s the %s lock (order %d) while "
			"holding the %s lock (order %d); docs/architecture.md, \"Locks\"\n",
			what, uvm_lock_name(order), (int)order,
			uvm_lock_name((enum uvm_lock_order)other), other);
	else
		fprintf(stderr, "uvmemu: internal error: lock order: %s the %s lock (order %d)\n",
			what, uvm_lock_name(order), (int)order);
	abort();
}

void uvm_lock_order_acquire(enum uvm_lock_order order)
{
	int in = innermost(held);

	if (in >= (int)order)
		violated("taking", order, in);
	held |= 1u << order;
}

void uvm_lock_order_release(enum uvm_lock_order order)
{
	if (!(held & (1u << order)))
		violated("releasing, without holding it,", order, -1);
	held &= ~(1u << order);
}

void uvm_lock_order_wait(enum uvm_lock_order order)
{
	int in = innermost(held);

	if (!(held & (1u << order)))
		violated("waiting, without holding it, on", order, -1);
	if (in > (int)order)
		violated("waiting on", order, in);
}

void uvm_lock_order_handoff(enum uvm_lock_order outermost, const char *whom)
{
	int in = innermost(held);

	if (in > (int)outermost) {
		fprintf(stderr,
			"uvmemu: internal error: lock order: waiting for %s while holding the %s "
			"lock (order %d); docs/architecture.md, \"Locks\"\n",
			whom, uvm_lock_name((enum uvm_lock_order)in), in);
		abort();
	}
}

void uvm_lock_order_held(enum uvm_lock_order order, const char *who)
{
	if (held & (1u << order))
		return;
	fprintf(stderr,
		"uvmemu: internal error: lock order: %s requires the %s lock (order %d), not "
		"held; docs/architecture.md, \"Locks\"\n",
		who, uvm_lock_name(order), (int)order);
	abort();
}

void uvm_thread_role_set(enum uvm_thread_role r)
{
	role = r;
}

void uvm_thread_role_check(enum uvm_thread_role r, const char *what)
{
	static const char *const roles[] = {[UVM_ROLE_NONE] = "an ordinary thread",
					    [UVM_ROLE_DRIVER] = "the driver thread"};

	if (role == r)
		return;
	fprintf(stderr, "uvmemu: internal error: %s touched by %s; only %s may\n", what,
		roles[role], roles[r]);
	abort();
}
