/* SPDX-License-Identifier: MIT */
/*
 * uvmemu_gmmu.h - what an executor's GMMU accessors need from the memory system.
 *
 * When emu-gpu is built with its GMMU accessors (CMake option EMUGPU_GMMU),
 * global loads and stores made through ld_global/st_global count in the
 * access counter of the 64 KB basic block they touch, as the hardware's
 * counters count coalesced transactions: once per warp (32 consecutive
 * threads of a CTA, x fastest) per 64 KB basic block per access. Loads from a block
 * mapped REMOTE (zero-copy) are charged to the link per distinct 32-byte
 * sector a warp touches, in one transaction per 128-byte line; so are
 * stores, and atomics both ways. The access itself goes through the device
 * view: under the remap backend that maps the host frames; under the copy
 * backend it is the block's copy, equal to the host data but for the GPU's
 * stores, which reach the host frames when the copy is dropped.
 * dma_offset gives the host data's address for tools that need it.
 *
 * The table is filled in by the runtime and never moves. The counters are
 * indexed by (device-view address - dev_lo) >> UVMEMU_BASIC_SHIFT (64 KB at
 * either migration unit), the state bytes by the same difference >>
 * block_shift, the running library's unit (16, or 12 under --page-size 4k:
 * the executor is built once for both libraries). Natively dev_lo == dev_hi,
 * so every address is "not managed" and accessors are plain loads and stores.
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

/* Access counter layout (one 32-bit word per 64 KB basic block). */
#define UVMEMU_COUNTER_ACCESS_BITS 27
#define UVMEMU_COUNTER_ACCESS_MASK ((1u << UVMEMU_COUNTER_ACCESS_BITS) - 1)
#define UVMEMU_COUNTER_TRIPS_SHIFT UVMEMU_COUNTER_ACCESS_BITS
/*
 * An accessor that sees the access field reach this value asks the runtime to
 * halve every counter; the margin below the field's maximum absorbs the
 * increments other threads make before the halving is done.
 */
#define UVMEMU_COUNTER_HALVE_AT (UVMEMU_COUNTER_ACCESS_MASK - (1u << 20))

/* Bits of the per-block (migration unit) gmmu state byte. */
#define UVMEMU_GMMU_REMOTE  0x01u /* GPU reads go to host data over the link */
#define UVMEMU_GMMU_PINNED  0x02u /* zero-copy host memory: never migrates by itself */
#define UVMEMU_GMMU_WRITTEN 0x04u /* set by st_global: the GPU wrote the block */
#define UVMEMU_GMMU_DEVICE  0x08u /* resident on the device (DEVICE or DUPLICATED) */

struct uvmemu_gmmu {
	uintptr_t dev_lo, dev_hi; /* device-view range the arrays cover */
	unsigned block_shift;	  /* log2 of the migration unit: state[] is per block */
	intptr_t dma_offset;	  /* device-view address + dma_offset = host data */
	_Atomic uint32_t *counters;
	_Atomic uint8_t *state;
	/* The accessors only measure remote traffic (remote_access hears of
	 * it): counters and the written bit are left to far faults and
	 * sampling, as in a build without accessors (--gmmu measure). */
	bool measure_only;
	/* Passed to the callbacks. */
	void *ctx;
	/* Charges a remote access of `bytes` (whole 32-byte sectors) in
	 * `xacts` link transactions (the 128-byte lines they fall in), read
	 * from or, with `store`, written to host memory; it may stall the
	 * calling thread for the link's time. */
	void (*remote_access)(void *ctx, uintptr_t dev_addr, size_t bytes, unsigned xacts,
			      bool store);
	/* Asks the runtime to halve every access count (saturation). */
	void (*halve)(void *ctx);
	/* Access counter notifications: a REMOTE block's count that reaches
	 * *notify_at (0: none) is told to the runtime at once, as a GPU's
	 * access counters notify the driver when one crosses the threshold,
	 * rather than left to the driver's next scan. */
	const _Atomic uint32_t *notify_at;
	void (*notify)(void *ctx);
	/* --fault-path uvmmu (NULL otherwise): an access to a block neither
	 * on the device nor REMOTE is resolved by this call in the accessing
	 * thread, as UVMMU's hardware resolves it in the GMMU, without a
	 * userfaultfd round trip; it returns when the access's page is
	 * modelled as arrived. An access that still faults (the block left
	 * again) takes the userfaultfd path. */
	void (*resolve)(void *ctx, uintptr_t dev_addr, bool write);
	/* --clock model (NULL otherwise): per block, when its data is on the
	 * device in modelled time (0: long since; values above any clock:
	 * on its way). The real driver maps a block at once, before slots
	 * whose modelled time is earlier reach its arrival; an access of such
	 * a slot to a block mapped on the device whose arrival is later than
	 * the slot's clock_lb (uvmemu.h) calls `late`, which makes it the
	 * fault it would be on a GPU when the slot's time now is earlier
	 * too. Called once per warp access and 64 KB block. */
	const _Atomic uint64_t *arrival;
	void (*late)(void *ctx, uintptr_t dev_addr);
};

/* Never NULL; natively the range is empty. */
const struct uvmemu_gmmu *uvmemu_gmmu_get(void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* UVMEMU_GMMU_H */
