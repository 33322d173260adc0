// SPDX-License-Identifier: MIT
/* workers.c - thread id to SM, open addressing with linear probing. */
#include "workers.h"

static unsigned home(uint32_t tid)
{
	return (tid * 2654435761u) & (UVM_WORKERS_SLOTS - 1);
}

static unsigned next(unsigned k)
{
	return (k + 1) & (UVM_WORKERS_SLOTS - 1);
}

void uvm_workers_add(struct uvm_workers *w, uint32_t tid, unsigned sm)
{
	uint64_t entry = (uint64_t)tid << 32 | (sm + 1);
	unsigned k = home(tid);

	for (unsigned i = 0; i < UVM_WORKERS_SLOTS; i++, k = next(k)) {
		uint64_t cur = 0;

		/* A failed exchange leaves the slot's owner in cur. */
		if (atomic_compare_exchange_strong(&w->slot[k], &cur, entry))
			return;
		if (cur >> 32 == tid) {
			atomic_store(&w->slot[k], entry); /* a thread id reused */
			return;
		}
	}
	/* Full: the worker goes unnamed in traces (sm -1). */
}

int uvm_workers_sm(const struct uvm_workers *w, uint32_t tid)
{
	unsigned k = home(tid);

	for (unsigned i = 0; i < UVM_WORKERS_SLOTS; i++, k = next(k)) {
		uint64_t cur = atomic_load_explicit(&w->slot[k], memory_order_acquire);

		if (cur == 0)
			return -1;
		if (cur >> 32 == tid)
			return (int)(cur & 0xffffffffu) - 1;
	}
	return -1;
}
