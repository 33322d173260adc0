// SPDX-License-Identifier: MIT
/* tidmap.c - thread id to a small number, open addressing with linear probing. */
#include "tidmap.h"

static unsigned home(uint32_t tid)
{
	return (tid * 2654435761u) & (UVM_TIDMAP_SLOTS - 1);
}

static unsigned next(unsigned k)
{
	return (k + 1) & (UVM_TIDMAP_SLOTS - 1);
}

void uvm_tidmap_add(struct uvm_tidmap *m, uint32_t tid, uint32_t value)
{
	uint64_t entry = (uint64_t)tid << 32 | (value + 1u);
	unsigned k = home(tid);

	for (unsigned i = 0; i < UVM_TIDMAP_SLOTS; i++, k = next(k)) {
		uint64_t cur = 0;

		/* A failed exchange leaves the slot's owner in cur. */
		if (atomic_compare_exchange_strong(&m->slot[k], &cur, entry))
			return;
		if (cur >> 32 == tid) {
			atomic_store(&m->slot[k], entry); /* a thread id reused */
			return;
		}
	}
}

int64_t uvm_tidmap_get(const struct uvm_tidmap *m, uint32_t tid)
{
	unsigned k = home(tid);

	for (unsigned i = 0; i < UVM_TIDMAP_SLOTS; i++, k = next(k)) {
		uint64_t cur = atomic_load_explicit(&m->slot[k], memory_order_acquire);

		if (cur == 0)
			return -1;
		if (cur >> 32 == tid)
			return (int64_t)(cur & 0xffffffffu) - 1;
	}
	return -1;
}
