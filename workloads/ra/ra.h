/* SPDX-License-Identifier: MIT */
/*
 * ra.h - HPCC RandomAccess's random stream, for the kernels and the CPU
 * check, and the kernels (kernels.c, compiled both ways).
 *
 * The stream is x^1, x^2, x^3, ... in GF(2)[x] modulo
 * p(x) = x^64 + x^2 + x + 1: one step shifts left and, when the top bit falls
 * off, adds x^2 + x + 1 (the constant 7). Update m (from 0) of the run XORs
 * value x^(m+1) into Table[value mod size]. A stream that starts at update m
 * jumps to x^m by square-and-multiply, as HPCC_starts does.
 */
#ifndef RA_H
#define RA_H

#include <stdint.h>

#include "emugpu.h"

#define RA_POLY 0x7ull

EMU_HOST_DEVICE static inline uint64_t ra_step(uint64_t ran)
{
	return (ran << 1) ^ ((int64_t)ran < 0 ? RA_POLY : 0);
}

/* a * b modulo p(x): b's bits from the top, Horner's rule. */
EMU_HOST_DEVICE static inline uint64_t ra_mulmod(uint64_t a, uint64_t b)
{
	uint64_t r = 0;

	for (int bit = 63; bit >= 0; bit--) {
		r = ra_step(r);
		if ((b >> bit) & 1)
			r ^= a;
	}
	return r;
}

/* x^n modulo p(x): the value before update n. */
EMU_HOST_DEVICE static inline uint64_t ra_start(uint64_t n)
{
	uint64_t r = 1, sq = 2; /* x^0 and x^1 */

	for (; n; n >>= 1) {
		if (n & 1)
			r = ra_mulmod(r, sq);
		sq = ra_mulmod(sq, sq);
	}
	return r;
}

/* Table index of a value: HPCC masks with size - 1 (size a power of two);
 * the remainder is the same there and also serves any other size. */
EMU_HOST_DEVICE static inline uint64_t ra_index(uint64_t ran, uint64_t size, uint64_t mask)
{
	return mask ? ran & mask : ran % size;
}

struct ra_args {
	uint64_t *table;
	uint64_t size, mask; /* mask = size - 1 for a power of two, else 0 */
	uint64_t updates;
	uint64_t streams;
};

/* Thread s of the grid runs stream s of `streams`: its share of the updates,
 * Table[ran mod size] ^= ran with atomicXor. */
EMU_KERNEL_DECLARE(ra_update, struct ra_args);

/* The verification pass: CTA c folds slab c of the table; its threads stride
 * by the CTA size so that a warp's loads are adjacent, as on a GPU. */
#define RA_CHECK_THREADS 256
#define RA_CHECK_SLABS	 64

struct ra_check_args {
	const uint64_t *table;
	uint64_t *sums; /* one per thread */
	uint64_t size;
};

/* Each thread's XOR of its part of the table, into sums[its global index]. */
EMU_KERNEL_DECLARE(ra_checksum, struct ra_check_args);

#endif
