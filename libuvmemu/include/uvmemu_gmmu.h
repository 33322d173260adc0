/* SPDX-License-Identifier: MIT */
/*
 * uvmemu_gmmu.h - what an executor's GMMU accessors need from the memory system.
 *
 * When emu-gpu is built with its GMMU accessors (CMake option EMUGPU_GMMU),
 * global loads and stores made through ld_global/st_global count in the
 * per-block access counter of the block they touch, as the hardware's
 * counters count coalesced transactions: once per warp (32 consecutive
 * threads of a CTA, x fastest) per 64 KB block per access. Loads from a block
 * mapped REMOTE (zero-copy) are charged to the link per distinct 32-byte
 * sector a warp touches; so are stores, where they reach host memory
 * (remote_stores). The load itself reads the device view: under the remap
 * backend that maps the host frames; under the copy backend it is the
 * block's read-only copy, equal to the host data while the block is REMOTE.
 * dma_offset gives the host data's address for tools that need it.
 *
 * The table is filled in by the runtime and never moves; arrays are indexed by
 * (device-view address - dev_lo) >> UVMEMU_BLOCK_SHIFT. Natively dev_lo ==
 * dev_hi, so every address is "not managed" and accessors are plain loads and
 * stores.
 */
#ifndef UVMEMU_GMMU_H
#define UVMEMU_GMMU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uvmemu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Public entry points stay visible when the libraries build with
 * -fvisibility=hidden. */
#pragma GCC visibility push(default)

/* Access counter layout (one 32-bit word per 64 KB block). */
#define UVMEMU_COUNTER_ACCESS_BITS 27
#define UVMEMU_COUNTER_ACCESS_MASK ((1u << UVMEMU_COUNTER_ACCESS_BITS) - 1)
#define UVMEMU_COUNTER_TRIPS_SHIFT UVMEMU_COUNTER_ACCESS_BITS
/*
 * An accessor that sees the access field reach this value asks the runtime to
 * halve every counter; the margin below the field's maximum absorbs the
 * increments other threads make before the halving is done.
 */
#define UVMEMU_COUNTER_HALVE_AT (UVMEMU_COUNTER_ACCESS_MASK - (1u << 20))

/* Bits of the per-block gmmu state byte. */
#define UVMEMU_GMMU_REMOTE  0x01u /* GPU reads go to host data over the link */
#define UVMEMU_GMMU_PINNED  0x02u /* zero-copy host memory: never migrates by itself */
#define UVMEMU_GMMU_WRITTEN 0x04u /* set by st_global: the GPU wrote the block */

struct uvmemu_gmmu {
	uintptr_t dev_lo, dev_hi; /* device-view range the arrays cover */
	intptr_t dma_offset;	  /* device-view address + dma_offset = host data */
	_Atomic uint32_t *counters;
	_Atomic uint8_t *state;
	/* A GPU store to a REMOTE block writes host memory (remap backend: the
	 * device view maps the host frames). Otherwise the device view holds a
	 * read-only copy, and a store faults and migrates the block. */
	bool remote_stores;
	/* Passed to the callbacks. */
	void *ctx;
	/* Charges a remote access of `bytes` (whole 32-byte sectors) read from
	 * or, with `store`, written to host memory; it may stall the calling
	 * thread for the link's time. */
	void (*remote_access)(void *ctx, uintptr_t dev_addr, size_t bytes, bool store);
	/* Asks the runtime to halve every access count (saturation). */
	void (*halve)(void *ctx);
};

/* Never NULL; natively the range is empty. */
const struct uvmemu_gmmu *uvmemu_gmmu_get(void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* UVMEMU_GMMU_H */
