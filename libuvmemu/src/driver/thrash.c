// SPDX-License-Identifier: MIT
/* thrash.c - thrashing detection, throttling and pinning per block. */
#include "thrash.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

struct uvm_thrash_block {
	uint64_t last_ns;	 /* last migration on a fault */
	uint64_t throttle_until; /* the other side's faults wait until then */
	uint64_t pin_until;
	uint8_t last_to;   /* the processor it went to last (uvm_thrash_proc; 0: none) */
	uint8_t streak;	   /* consecutive migrations between processors within the lapse */
	uint8_t throttles; /* throttle periods so far */
	uint8_t resets;
	uint8_t pinned_on;
	uint8_t spare[3];
};

int uvm_thrash_init(struct uvm_thrash *t, const struct uvm_config *cfg, size_t nblocks)
{
	memset(t, 0, sizeof(*t));
	t->enabled = uvm_cfg_i(cfg, UVM_OPT_thrashing) == UVM_THRASHING_ON;
	if (!t->enabled)
		return 0;
	t->threshold = (unsigned)uvm_cfg_i(cfg, UVM_OPT_thrashing_threshold);
	t->pin_threshold = (unsigned)uvm_cfg_i(cfg, UVM_OPT_thrashing_pin_threshold);
	t->max_resets = (unsigned)uvm_cfg_i(cfg, UVM_OPT_thrashing_max_resets);
	t->lapse_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_thrashing_lapse);
	t->nap = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_thrashing_nap);
	t->pin = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_thrashing_pin);
	t->epoch = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_thrashing_epoch);
	t->nblocks = nblocks;
	t->block = mmap(NULL, nblocks * sizeof(*t->block), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (t->block == MAP_FAILED) {
		t->block = NULL;
		return -ENOMEM;
	}
	return 0;
}

void uvm_thrash_destroy(struct uvm_thrash *t)
{
	if (t->block)
		munmap(t->block, t->nblocks * sizeof(*t->block));
	t->block = NULL;
}

/* n lapses on the clock `now` is read on: the model says how long. */
static uint64_t lapses(const struct uvm_thrash *t, uint64_t n, const struct uvm_model *m)
{
	return uvm_model_scaled(m, n * t->lapse_ns);
}

enum uvm_thrash_verdict uvm_thrash_check(struct uvm_thrash *t, size_t b, uint8_t to, uint64_t now,
					 const struct uvm_model *m, uint64_t *until,
					 uint8_t *pinned_on, bool *newly_pinned)
{
	struct uvm_thrash_block *x;

	*newly_pinned = false;
	if (!t->enabled)
		return UVM_THRASH_NONE;
	x = &t->block[b];
	if (x->pin_until > now) {
		*pinned_on = x->pinned_on;
		return UVM_THRASH_PIN;
	}
	if (x->throttle_until > now && to != x->last_to) {
		*until = x->throttle_until;
		return UVM_THRASH_THROTTLE;
	}
	if (x->streak < t->threshold || to == x->last_to)
		return UVM_THRASH_NONE;
	/* Thrashing: the processor holding the block keeps it for a nap. */
	x->streak = 0;
	if (++x->throttles >= t->pin_threshold) {
		x->throttles = 0;
		x->pin_until = now + lapses(t, t->pin, m);
		x->pinned_on = x->last_to;
		*pinned_on = x->pinned_on;
		*newly_pinned = true;
		return UVM_THRASH_PIN;
	}
	x->throttle_until = now + lapses(t, t->nap, m);
	*until = x->throttle_until;
	return UVM_THRASH_THROTTLE;
}

void uvm_thrash_record(struct uvm_thrash *t, size_t b, uint8_t to, uint64_t now,
		       const struct uvm_model *m)
{
	struct uvm_thrash_block *x;

	if (!t->enabled)
		return;
	x = &t->block[b];
	if (x->last_ns && now - x->last_ns > lapses(t, t->epoch, m) && x->resets < t->max_resets) {
		x->resets++;
		x->streak = x->throttles = 0;
	}
	if (x->last_to && to != x->last_to && now - x->last_ns <= lapses(t, 1, m))
		x->streak = (uint8_t)(x->streak < 255 ? x->streak + 1 : 255);
	else
		x->streak = 1;
	x->last_to = to;
	x->last_ns = now;
}

bool uvm_thrash_busy(const struct uvm_thrash *t, size_t b, uint64_t now)
{
	const struct uvm_thrash_block *x;

	if (!t->enabled)
		return false;
	x = &t->block[b];
	return x->pin_until > now || x->throttle_until > now || x->streak > 1;
}

void uvm_thrash_forget(struct uvm_thrash *t, size_t first, size_t n)
{
	if (t->enabled)
		memset(&t->block[first], 0, n * sizeof(*t->block));
}
