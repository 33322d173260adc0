/* SPDX-License-Identifier: MIT */
/* peek.h - a one-thread kernel that reads one byte anywhere, for tests of
 * what a kernel's out-of-bounds or unmapped read becomes. */
#ifndef TESTS_PEEK_H
#define TESTS_PEEK_H

#include <stdint.h>

#include "emugpu.h"

struct peek_args {
	const uint8_t *p;
	uint64_t at;
	uint8_t *out; /* plain host memory */
};

EMU_KERNEL(peek, struct peek_args)
{
	EMU_FOR_THREADS {
		if (threadIdx.x == 0)
			*args->out = args->p[args->at];
	}
}

#endif
