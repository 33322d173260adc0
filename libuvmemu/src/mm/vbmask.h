/* SPDX-License-Identifier: MIT */
/*
 * vbmask.h - a set of a vablock's blocks: the mask the driver and the
 * policies pass around (faulted, resident, valid, to prefetch, to evict).
 *
 * Its size is UVM_VBMASK_BITS, the blocks of a vablock, which space.h sets
 * before including this header (2 MB / 64 KB = 32 today). The bits are kept
 * in 64-bit words, so a finer migration unit (4 KB, the real driver's: 512
 * blocks) changes that constant and nothing that uses a mask. A unit test
 * may set another size before including this header alone, to exercise the
 * logic across words.
 *
 * Masks are small values: combinations and queries take them by value and
 * return a value; set, clear and set_run change one in place. Bits at or
 * past UVM_VBMASK_BITS are never set (no operation sets them), so queries
 * need not look at them.
 */
#ifndef UVM_VBMASK_H
#define UVM_VBMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef UVM_VBMASK_BITS
#error "include space.h, which sizes a vablock mask, rather than vbmask.h"
#endif

#define UVM_VBMASK_WORDS ((UVM_VBMASK_BITS + 63) / 64)

struct uvm_vbmask {
	uint64_t w[UVM_VBMASK_WORDS];
};

static inline struct uvm_vbmask uvm_vbmask_zero(void)
{
	return (struct uvm_vbmask){{0}};
}

static inline void uvm_vbmask_set(struct uvm_vbmask *m, unsigned i)
{
	m->w[i / 64] |= 1ull << (i % 64);
}

static inline void uvm_vbmask_clear(struct uvm_vbmask *m, unsigned i)
{
	m->w[i / 64] &= ~(1ull << (i % 64));
}

static inline bool uvm_vbmask_test(struct uvm_vbmask m, unsigned i)
{
	return m.w[i / 64] >> (i % 64) & 1;
}

/* Bits [lo, hi) of one word, 0 <= lo <= hi <= 64, lo < 64. */
static inline uint64_t uvm_vbmask_word_run(unsigned lo, unsigned hi)
{
	return (hi == 64 ? ~0ull : (1ull << hi) - 1) & ~((1ull << lo) - 1);
}

/* Sets blocks [lo, hi), lo <= hi <= UVM_VBMASK_BITS. */
static inline void uvm_vbmask_set_run(struct uvm_vbmask *m, unsigned lo, unsigned hi)
{
	for (unsigned k = lo / 64; k * 64 < hi; k++)
		m->w[k] |= uvm_vbmask_word_run(k * 64 < lo ? lo % 64 : 0,
					       (k + 1) * 64 <= hi ? 64 : hi % 64);
}

/* Blocks [lo, hi) alone. */
static inline struct uvm_vbmask uvm_vbmask_run(unsigned lo, unsigned hi)
{
	struct uvm_vbmask m = uvm_vbmask_zero();

	uvm_vbmask_set_run(&m, lo, hi);
	return m;
}

static inline struct uvm_vbmask uvm_vbmask_and(struct uvm_vbmask a, struct uvm_vbmask b)
{
	for (unsigned k = 0; k < UVM_VBMASK_WORDS; k++)
		a.w[k] &= b.w[k];
	return a;
}

static inline struct uvm_vbmask uvm_vbmask_or(struct uvm_vbmask a, struct uvm_vbmask b)
{
	for (unsigned k = 0; k < UVM_VBMASK_WORDS; k++)
		a.w[k] |= b.w[k];
	return a;
}

/* The blocks of a that are not in b. */
static inline struct uvm_vbmask uvm_vbmask_andnot(struct uvm_vbmask a, struct uvm_vbmask b)
{
	for (unsigned k = 0; k < UVM_VBMASK_WORDS; k++)
		a.w[k] &= ~b.w[k];
	return a;
}

static inline bool uvm_vbmask_empty(struct uvm_vbmask m)
{
	for (unsigned k = 0; k < UVM_VBMASK_WORDS; k++)
		if (m.w[k])
			return false;
	return true;
}

static inline bool uvm_vbmask_equal(struct uvm_vbmask a, struct uvm_vbmask b)
{
	for (unsigned k = 0; k < UVM_VBMASK_WORDS; k++)
		if (a.w[k] != b.w[k])
			return false;
	return true;
}

static inline unsigned uvm_vbmask_count(struct uvm_vbmask m)
{
	unsigned n = 0;

	for (unsigned k = 0; k < UVM_VBMASK_WORDS; k++)
		n += (unsigned)__builtin_popcountll(m.w[k]);
	return n;
}

/*
 * The first block at or after i whose bit is set in m ^ flip (flip 0: a set
 * block; ~0: a clear one), or UVM_VBMASK_BITS if none. The bits past the last
 * block are clear, so a search for a clear block stops at UVM_VBMASK_BITS.
 */
static inline unsigned uvm_vbmask_find(struct uvm_vbmask m, unsigned i, uint64_t flip)
{
	for (unsigned k = i / 64; k < UVM_VBMASK_WORDS; k++) {
		uint64_t w = (m.w[k] ^ flip) & (k == i / 64 ? ~0ull << (i % 64) : ~0ull);

		if (w)
			return k * 64 + (unsigned)__builtin_ctzll(w);
	}
	return UVM_VBMASK_BITS;
}

/* The first set block at or after i, or UVM_VBMASK_BITS if none. */
static inline unsigned uvm_vbmask_next(struct uvm_vbmask m, unsigned i)
{
	return uvm_vbmask_find(m, i, 0);
}

/* The first clear block at or after i, or UVM_VBMASK_BITS if none. */
static inline unsigned uvm_vbmask_next_clear(struct uvm_vbmask m, unsigned i)
{
	return uvm_vbmask_find(m, i, ~0ull);
}

/* The first set block, or UVM_VBMASK_BITS if the mask is empty. */
static inline unsigned uvm_vbmask_first(struct uvm_vbmask m)
{
	return uvm_vbmask_next(m, 0);
}

/*
 * For each set block i of `mask`, in increasing order. The mask is read once,
 * before the first iteration, so the body may change whatever it was made
 * from. `break` and `continue` work as in any loop.
 */
#define uvm_vbmask_for_each(i, mask)                                                               \
	for (struct uvm_vbmask i##_todo_ = (mask), *i##_once_ = &i##_todo_; i##_once_;             \
	     i##_once_ = NULL)                                                                     \
		for (unsigned i = uvm_vbmask_first(i##_todo_); i < UVM_VBMASK_BITS;                \
		     i = uvm_vbmask_next(i##_todo_, i + 1))

/*
 * For each run [lo, hi) of consecutive set blocks of `mask`, in increasing
 * order (the longest runs: block hi is clear). Read once, as above.
 */
#define uvm_vbmask_for_each_run(lo, hi, mask)                                                      \
	for (struct uvm_vbmask lo##_todo_ = (mask), *lo##_once_ = &lo##_todo_; lo##_once_;         \
	     lo##_once_ = NULL)                                                                    \
		for (unsigned lo = uvm_vbmask_first(lo##_todo_),                                   \
			      hi = uvm_vbmask_next_clear(lo##_todo_, lo);                          \
		     lo < UVM_VBMASK_BITS; lo = uvm_vbmask_next(lo##_todo_, hi),                   \
			      hi = uvm_vbmask_next_clear(lo##_todo_, lo))

#endif
