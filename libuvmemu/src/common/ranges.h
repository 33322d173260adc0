/* SPDX-License-Identifier: MIT */
/*
 * ranges.h - a table of address ranges with a kind, for classifying pointers
 * (cudaFree, cudaMemcpy direction) and finding the allocation they belong to.
 * Thread-safe; a balanced tree, so every operation is logarithmic in the
 * number of ranges (a program may hold a million allocations).
 */
#ifndef UVM_RANGES_H
#define UVM_RANGES_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "lock_order.h"

struct uvm_range {
	uintptr_t base;
	size_t size;
	int kind;
	size_t mapped; /* bytes mapped for it (size rounded up), for unmapping */
	int device;    /* cudaMalloc: the GPU whose memory it pins */
};

struct uvm_ranges {
	struct uvm_mutex lock;
	void *root; /* tsearch tree of malloc'd struct uvm_range */
	size_t n;
};

void uvm_ranges_init(struct uvm_ranges *t);
void uvm_ranges_destroy(struct uvm_ranges *t);
/* -EEXIST if it overlaps a range already there, -ENOMEM. */
int uvm_ranges_add(struct uvm_ranges *t, const struct uvm_range *r);
/* Finds the range containing p; returns 0 and copies it, or -ENOENT. */
int uvm_ranges_find(struct uvm_ranges *t, uintptr_t p, struct uvm_range *out);
/* The same without the lock, for a forked child's signal handler (the child
 * has one thread; the lock may have been held by another at the fork). */
int uvm_ranges_find_unlocked(const struct uvm_ranges *t, uintptr_t p, struct uvm_range *out);
/*
 * Where the n > 0 bytes at p lie: 0 when one range holds them all, -ENOENT
 * when they overlap no range, -EINVAL when they overlap a range without
 * lying inside it; *out is that range, but for -ENOENT. The caller checked
 * that p + n does not wrap.
 */
int uvm_ranges_find_span(struct uvm_ranges *t, uintptr_t p, size_t n, struct uvm_range *out);
/* Calls fn on a copy of every range of the given kind (-1: all), in address
 * order, without holding the lock during the calls. */
void uvm_ranges_each(struct uvm_ranges *t, int kind,
		     void (*fn)(const struct uvm_range *r, void *arg), void *arg);
/* Removes the range starting exactly at base; -ENOENT if none. */
int uvm_ranges_remove(struct uvm_ranges *t, uintptr_t base, struct uvm_range *out);

#endif
