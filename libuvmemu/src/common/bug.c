// SPDX-License-Identifier: MIT
/* bug.c - stopping on an internal bug. */
#include "bug.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void uvm_bug(const char *what, size_t block, int err)
{
	fprintf(stderr, "uvmemu: internal error: %s (block %zu): %s\n", what, block,
		strerror(err < 0 ? -err : err));
	abort();
}
