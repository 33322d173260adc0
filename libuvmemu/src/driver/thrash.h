/* SPDX-License-Identifier: MIT */
/*
 * thrash.h - thrashing detection and mitigation, after the NVIDIA driver's
 * (uvm_perf_thrashing.c), per 64 KB block.
 *
 * A block migrating between processors (the CPU and a GPU, or two GPUs
 * under --gpus) `threshold` times in a row, each migration within `lapse`
 * of the previous one, is thrashing. It is then throttled: for nap x lapse
 * only the processor holding it keeps it and the others' faults wait.
 * After `pin_threshold` throttle periods it is pinned for pin x lapse: it
 * stays where it is and a GPU reads it remotely when it is on the host (the
 * CPU cannot map device memory remotely here, nor a GPU a peer's, so their
 * faults still migrate it).
 * After epoch x lapse without migrations a block's history resets, at most
 * max_resets times. How long a lapse is on the clock in use, the model says.
 */
#ifndef UVM_THRASH_H
#define UVM_THRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "model.h"
#include "space.h" /* enum uvm_side */

enum uvm_thrash_verdict {
	UVM_THRASH_NONE,     /* migrate as usual */
	UVM_THRASH_THROTTLE, /* hold the fault back until *until */
	UVM_THRASH_PIN,	     /* leave the block where it is (*pinned_on) */
};

struct uvm_thrash_block;

/* A processor as detection tells them apart: the host, or GPU g. */
#define UVM_THRASH_HOST 1
static inline uint8_t uvm_thrash_proc(enum uvm_side side, unsigned gpu)
{
	return side == UVM_SIDE_HOST ? UVM_THRASH_HOST : (uint8_t)(UVM_THRASH_HOST + 1 + gpu);
}

struct uvm_thrash {
	bool enabled;
	unsigned threshold, pin_threshold, max_resets;
	uint64_t lapse_ns, nap, pin, epoch; /* nap, pin, epoch in lapses */
	struct uvm_thrash_block *block;	    /* per block, reserved for the arena */
	size_t nblocks;
};

int uvm_thrash_init(struct uvm_thrash *t, const struct uvm_config *cfg, size_t nblocks);
void uvm_thrash_destroy(struct uvm_thrash *t);

/* Before migrating block b towards processor `to` (uvm_thrash_proc): may
 * it go? */
enum uvm_thrash_verdict uvm_thrash_check(struct uvm_thrash *t, size_t b, uint8_t to, uint64_t now,
					 const struct uvm_model *m, uint64_t *until,
					 uint8_t *pinned_on, bool *newly_pinned);
/* Block b migrated to processor `to` on a fault at `now`. */
void uvm_thrash_record(struct uvm_thrash *t, size_t b, uint8_t to, uint64_t now,
		       const struct uvm_model *m);
/* Whether block b is thrashing now (throttled, pinned, or migrating back and
 * forth within the lapse): a prefetch leaves it out, as the driver's does. */
bool uvm_thrash_busy(const struct uvm_thrash *t, size_t b, uint64_t now);
/* The allocation holding these blocks went away. */
void uvm_thrash_forget(struct uvm_thrash *t, size_t first, size_t n);

#endif
