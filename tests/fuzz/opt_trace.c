// SPDX-License-Identifier: MIT
/*
 * opt_trace.c - fuzz target for the --opt-trace reader
 * (libuvmemu/src/policy/evict/opt_trace.c): the input is a whole access trace. A
 * read trace must be a consistent per-block index (launches ascending and
 * distinct per block); a rejected one comes with a one-line message.
 */
#include <errno.h>

#include "fuzz.h"
#include "opt_trace.h"

#define BLOCKS (1u << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fuzz_stream(data, size);
	struct uvm_opt_trace t;
	char err[512];
	int ret = uvm_opt_trace_read(f, "in", BLOCKS, &t, err, sizeof(err));

	if (ret == 0) {
		FUZZ_ASSERT(t.nblk <= BLOCKS);
		FUZZ_ASSERT(t.start[0] == 0);
		for (size_t b = 0; b < t.nblk; b++) {
			FUZZ_ASSERT(t.start[b] <= t.start[b + 1]);
			for (uint32_t i = t.start[b] + 1; i < t.start[b + 1]; i++)
				FUZZ_ASSERT(t.use[i - 1] < t.use[i]);
		}
		/* The last block listed is used at least once. */
		FUZZ_ASSERT(t.nblk == 0 || t.start[t.nblk - 1] < t.start[t.nblk]);
	} else {
		FUZZ_ASSERT(ret == -EINVAL || ret == -EIO || ret == -ENOMEM);
		fuzz_one_line(err);
		FUZZ_ASSERT(strncmp(err, "--opt-trace in", 14) == 0);
	}
	uvm_opt_trace_fini(&t);
	fclose(f);
	return 0;
}
