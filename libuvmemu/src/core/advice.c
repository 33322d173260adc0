// SPDX-License-Identifier: MIT
/*
 * advice.c - memory advice and explicit prefetches on an emulator instance.
 */
#include <errno.h>

#include "emu.h"

int uvm_emu_advise(struct uvm_emu *e, const void *p, size_t n, enum cudaMemoryAdvise advice,
		   int device)
{
	return -ENOTSUP;
}

int uvm_emu_prefetch(struct uvm_emu *e, const void *p, size_t n, int device)
{
	return -ENOTSUP;
}

int uvm_emu_synchronize(struct uvm_emu *e)
{
	return 0;
}
