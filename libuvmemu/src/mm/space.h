/* SPDX-License-Identifier: MIT */
/*
 * space.h - per-block residency (the block state machine) and per-vablock
 * bookkeeping for the whole arena.
 *
 * Arrays are indexed by arena offset >> UVM_BLOCK_SHIFT (blocks), >> 16 (the
 * access counters, one per 64 KB basic block) and >> 21 (vablocks) and are
 * reserved for the whole arena up front; the kernel backs only the parts that
 * allocations use. The driver thread owns every field except the access
 * counters and the gmmu state byte, which executor workers read and count
 * into with atomics.
 */
#ifndef UVM_SPACE_H
#define UVM_SPACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uvmemu.h"

/* The migration unit: 64 KB, or 4 KB in the libraries built for
 * --page-size 4k (uvmemu.h). Everything below follows from it. */
#define UVM_BLOCK_SHIFT	       UVMEMU_BLOCK_SHIFT
#define UVM_BLOCK_SIZE	       (1ull << UVM_BLOCK_SHIFT)
#define UVM_VABLOCK_SHIFT      21
#define UVM_VABLOCK_SIZE       (1ull << UVM_VABLOCK_SHIFT)
#define UVM_BLOCKS_PER_VABLOCK (UVM_VABLOCK_SIZE / UVM_BLOCK_SIZE)
#define UVM_PAGE_SIZE	       4096ull
/* The 64 KB basic block, whatever the unit: the tree prefetcher's leaf, the
 * sequential-local policies' unit and the access counters' (uvmemu.h). At
 * 64 KB a basic block is one block; at 4 KB, sixteen. */
#define UVM_BASIC_SHIFT	     UVMEMU_BASIC_SHIFT
#define UVM_BASIC_SIZE	     (1ull << UVM_BASIC_SHIFT)
#define UVM_BLOCKS_PER_BASIC (1u << (UVM_BASIC_SHIFT - UVM_BLOCK_SHIFT))

/* A mask over a vablock's blocks (struct uvm_vbmask) has this many bits. */
#define UVM_VBMASK_BITS ((unsigned)UVM_BLOCKS_PER_VABLOCK)
#include "vbmask.h"

/*
 * Residency of a 64 KB block (docs/architecture.md, "The block state machine"). One valid copy at a
 * time except DUPLICATED. UNALLOCATED blocks belong to no allocation.
 */
enum uvm_block_state {
	UVM_UNALLOCATED = 0,
	UVM_EMPTY,	/* hole on both sides: first touch zero-fills */
	UVM_HOST,	/* data in the memfd, nothing on the device */
	UVM_DEVICE,	/* data on the device, host hole punched */
	UVM_REMOTE,	/* data on the host; GPU reads reach it over the link */
	UVM_DUPLICATED, /* read-only copies on both sides */
	UVM_NSTATES
};

#define UVM_STATE_BIT(s) (1u << (s))

/* A processor that holds or asks for a block. */
enum uvm_side { UVM_SIDE_NONE = 0, UVM_SIDE_DEVICE, UVM_SIDE_HOST };

/* Block flags. */
#define UVM_BF_EVICTED	  0x01 /* evicted at least once: a return is a thrash */
#define UVM_BF_PREFETCHED 0x02 /* brought in by the prefetcher, not yet faulted */
#define UVM_BF_WRITTEN                                                                             \
	0x04 /* written by the GPU since it became resident (write                                 \
	      * faults; with GMMU accessors, counted stores too) */
#define UVM_BF_DEV_MAPPED                                                                          \
	0x08 /* REMOTE: the device view maps it (remap: the host frames; copy: a                   \
	      * copy that takes stores); sampling unmaps it so the next access counts */
#define UVM_BF_PROBED                                                                              \
	0x10 /* DEVICE: unmapped from the device view (still resident) so that                     \
	      * the launch's first touch faults: the data reuse probes (reuse.h) */

/* Advice (cudaMemAdvise, zero-copy memory), per block. */
#define UVM_ADV_PREFER_HOST   0x01
#define UVM_ADV_PREFER_DEVICE 0x02
#define UVM_ADV_ACCESSED_BY   0x04 /* some GPU maps it where it is rather than move it */
#define UVM_ADV_READ_MOSTLY   0x08 /* reads duplicate, a write collapses */
#define UVM_ADV_PIN_HOST      0x10 /* zero-copy host memory: never migrates */

struct uvm_block {
	uint8_t state; /* enum uvm_block_state */
	uint8_t flags;
	uint8_t pending; /* asynchronous operations in flight on this block */
	uint8_t trips;	 /* times evicted and brought back (saturates) */
	uint8_t advice;	 /* UVM_ADV_* */
	/* Several GPUs (--gpus): DEVICE, the GPU holding it; REMOTE with
	 * UVM_BF_DEV_MAPPED, the GPU whose device view maps it. Kept after a
	 * block leaves, so that an observer told of the release reads where it
	 * was. */
	uint8_t gpu;
	uint8_t dups; /* DUPLICATED: a bit per GPU holding a read-only copy; else 0 */
	/* DEVICE: a bit per other GPU whose device view maps the block over
	 * the peer link (a peer mapping: remap only, the same frames); else 0.
	 * Every peer mapping goes before the block moves. */
	uint8_t peers;
	/* DEVICE: the GPUs whose peer mapping sampling unmapped, so that their
	 * next fault counts an access rather than a far fault; else 0. */
	uint8_t peers_sampled;
	/* Advice that names a device: the GPU of UVM_ADV_PREFER_DEVICE, and a
	 * bit per GPU given accessed-by (UVM_ADV_ACCESSED_BY: any bit). */
	uint8_t prefer_gpu;
	uint8_t accessed_by;
	uint8_t spare;
};

/* The GPUs a run models at most (--gpus): a block's dups is a byte. */
#define UVM_MAX_GPUS UVMEMU_MAX_DEVICES

/* Whether blocks a and b are in the same state with their copies on the
 * same GPUs: a run one operation can move. */
static inline bool uvm_block_same_copies(const struct uvm_block *a, const struct uvm_block *b)
{
	return a->state == b->state && a->gpu == b->gpu && a->dups == b->dups;
}

/* Whether block blk has a copy on GPU g. */
static inline bool uvm_block_on_gpu(const struct uvm_block *blk, unsigned g)
{
	return (blk->state == UVM_DEVICE && blk->gpu == g) ||
	       (blk->state == UVM_DUPLICATED && (blk->dups >> g & 1));
}

/* Whether GPU g's view maps blk, which another GPU holds (a peer mapping). */
static inline bool uvm_block_peer_mapped(const struct uvm_block *blk, unsigned g)
{
	return blk->peers >> g & 1;
}

/* Whether blk's advice names GPU g accessed-by. */
static inline bool uvm_block_accessed_by(const struct uvm_block *blk, unsigned g)
{
	return blk->accessed_by >> g & 1;
}

struct uvm_vablock {
	uint16_t nvalid;   /* blocks of this vablock inside its allocation */
	uint16_t resident; /* blocks with a device copy */
	uint32_t alloc;	   /* allocation id (for per-allocation statistics) */
	uint64_t in_batch; /* sequence of the last batch that serviced it */
};

struct uvm_space {
	size_t nblocks, nvablocks;
	size_t ncounters; /* 64 KB basic blocks: one access counter each */
	/* One past the highest vablock an allocation ever took: loops over the
	 * space stop there, not at the end of a reservation sized for millions
	 * of allocations (allocations go first fit, low). Set under the arena
	 * lock before the allocation's range is registered. */
	size_t used_vablocks;
	struct uvm_block *block;
	struct uvm_vablock *vablock;
	_Atomic uint32_t *counters;  /* per basic block (uvm_counter_of), uvmemu_gmmu.h layout */
	uint64_t halvings; /* times the access fields were halved (they only grow between) */
	/* The access count at which a REMOTE block's counter notifies the
	 * driver (0: never): the lowest the migration policy would migrate at
	 * now, set by the driver (uvmemu_gmmu.h). */
	_Atomic uint32_t notify_at;
	_Atomic uint8_t *gmmu_state; /* UVMEMU_GMMU_* bits */
	/* Per vablock and GPU ([v * UVM_MAX_GPUS + g]), the blocks with a copy
	 * on that GPU, kept by the residency module as copies come and go
	 * (uvm_res_gpu_mask): the fault path reads a vablock's resident set
	 * in a few words instead of scanning its blocks, 512 at 4 KB. */
	struct uvm_vbmask *on_gpu;
};

int uvm_space_init(struct uvm_space *s, uint64_t arena_size);
void uvm_space_destroy(struct uvm_space *s);
/* Marks [off, off+len) as one allocation's (EMPTY blocks); len may end mid-vablock. */
void uvm_space_add(struct uvm_space *s, uint64_t off, uint64_t len, uint32_t alloc);
/* Returns the range to UNALLOCATED and gives back the frames' memory of the
 * metadata pages. */
void uvm_space_remove(struct uvm_space *s, uint64_t off, uint64_t len);

/*
 * Moves block b to state `to`, which must be legal from its current state
 * (the transition table in space.c); an illegal transition is a bug in the
 * driver and stops the process with a message rather than corrupt data.
 */
void uvm_block_move(struct uvm_space *s, size_t b, enum uvm_block_state to);
const char *uvm_state_name(enum uvm_block_state st);

/*
 * Access counters (uvmemu_gmmu.h layout: low 27 bits count accesses, high 5
 * bits round trips), one per 64 KB basic block at either migration unit, as
 * UVMSmart keeps them beside 4 KB pages: a block's counter is its basic
 * block's. Adding returns true when a field reached the point where every
 * counter's field must be halved, which uvm_counters_halve does for the
 * blocks of live allocations.
 */
static inline size_t uvm_counter_of(size_t b)
{
	return b >> (UVM_BASIC_SHIFT - UVM_BLOCK_SHIFT);
}
bool uvm_counter_add(struct uvm_space *s, size_t b, uint32_t accesses);
bool uvm_counter_trip(struct uvm_space *s, size_t b);
void uvm_counters_halve(struct uvm_space *s, bool accesses, bool trips);
static inline uint32_t uvm_counter_accesses(const struct uvm_space *s, size_t b)
{
	return atomic_load_explicit(&s->counters[uvm_counter_of(b)], memory_order_relaxed) &
	       ((1u << 27) - 1);
}
static inline uint32_t uvm_counter_trips(const struct uvm_space *s, size_t b)
{
	return atomic_load_explicit(&s->counters[uvm_counter_of(b)], memory_order_relaxed) >> 27;
}

/* The blocks `bytes` occupy, the last one partly. */
static inline uint64_t uvm_blocks_of(uint64_t bytes)
{
	return (bytes + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;
}

static inline size_t uvm_vablock_of(size_t block)
{
	return block / UVM_BLOCKS_PER_VABLOCK;
}

static inline size_t uvm_vablock_first(size_t vablock)
{
	return vablock * UVM_BLOCKS_PER_VABLOCK;
}

/* Blocks of vablock v in state `state`. */
static inline struct uvm_vbmask uvm_vablock_state_mask(const struct uvm_space *s, size_t v,
						       uint8_t state)
{
	size_t first = uvm_vablock_first(v);
	struct uvm_vbmask m = uvm_vbmask_zero();

	for (unsigned i = 0; i < s->vablock[v].nvalid; i++)
		if (s->block[first + i].state == state)
			uvm_vbmask_set(&m, i);
	return m;
}

/* Blocks of vablock v with a copy on GPU g (DEVICE there, or DUPLICATED
 * with a copy there). */
static inline struct uvm_vbmask uvm_vablock_gpu_mask(const struct uvm_space *s, size_t v,
						     unsigned g)
{
	size_t first = uvm_vablock_first(v);
	struct uvm_vbmask m = uvm_vbmask_zero();

	for (unsigned i = 0; i < s->vablock[v].nvalid; i++)
		if (uvm_block_on_gpu(&s->block[first + i], g))
			uvm_vbmask_set(&m, i);
	return m;
}

/* Blocks of vablock v with a device copy on any GPU (DEVICE or DUPLICATED). */
static inline struct uvm_vbmask uvm_vablock_device_mask(const struct uvm_space *s, size_t v)
{
	size_t first = uvm_vablock_first(v);
	struct uvm_vbmask m = uvm_vbmask_zero();

	for (unsigned i = 0; i < s->vablock[v].nvalid; i++) {
		uint8_t st = s->block[first + i].state;

		if (st == UVM_DEVICE || st == UVM_DUPLICATED)
			uvm_vbmask_set(&m, i);
	}
	return m;
}

#endif
