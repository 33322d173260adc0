// SPDX-License-Identifier: MIT
/* kernel.c - us-ra's kernel: threads whose global index is not a multiple of
 * `every` return at once; each of the others reads its input, reads the
 * table at the index the input's fraction selects and writes the output
 * there. Reads of input are strided (every 100th float), the table and
 * output accesses random. */
#include "ra.h"

EMU_KERNEL(us_ra_kernel, struct us_ra_args)
{
	EMU_FOR_THREADS_BELOW(args->n) {
		const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		float in;
		int64_t idx;

		if (i % args->every != 0)
			EMU_RETURN;
		in = ld_global(&args->input[i]);
		idx = us_ra_index(in, args->n);
		st_global(&args->output[idx], us_ra_value(ld_global(&args->table[idx]), in));
	}
}
