/* SPDX-License-Identifier: MIT */
/* grow.h - room for one more element in a growing array. */
#ifndef UVM_GROW_H
#define UVM_GROW_H

#include <stdlib.h>

/*
 * Makes room for element n of arr (capacity *cap elements of elem bytes),
 * doubling from `first`. Returns the array, moved or not; NULL when memory
 * runs out (arr still valid, *cap unchanged).
 */
static inline void *uvm_grow(void *arr, size_t *cap, size_t n, size_t elem, size_t first)
{
	size_t want;
	void *grown;

	if (n < *cap)
		return arr;
	want = *cap ? 2 * *cap : first;
	grown = realloc(arr, want * elem);
	if (grown)
		*cap = want;
	return grown;
}

#endif
