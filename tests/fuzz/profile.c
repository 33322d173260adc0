// SPDX-License-Identifier: MIT
/*
 * profile.c - fuzz target for the object profile reader
 * (libuvmemu/src/objects/profile.c, `--objects-profile FILE`): the input is a
 * whole profile. A read profile must be consistent (uses in range, grouped by
 * launch, ascending objects); a rejected one comes with a one-line message
 * naming the file.
 */
#include <errno.h>

#include "fuzz.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path(data, size);
	struct uvm_objprof p;
	char err[512] = "";
	int ret = uvm_objprof_read(&p, path, err, sizeof(err));

	if (ret == 0) {
		FUZZ_ASSERT(p.nlaunch > 0);
		for (size_t l = 0; l < p.nlaunch; l++) {
			const struct uvm_objprof_launch *la = &p.launch[l];

			FUZZ_ASSERT(la->first + la->n <= p.nuse);
			for (size_t u = la->first; u < la->first + la->n; u++) {
				FUZZ_ASSERT(p.use[u].launch == l);
				FUZZ_ASSERT(p.use[u].obj < p.nobj);
				FUZZ_ASSERT(p.use[u].touched <= p.obj[p.use[u].obj].bytes);
				FUZZ_ASSERT(u == la->first || p.use[u - 1].obj < p.use[u].obj);
			}
		}
		for (size_t o = 1; o < p.nobj; o++)
			FUZZ_ASSERT(p.obj[o - 1].id < p.obj[o].id);
	} else {
		fuzz_one_line(err);
		FUZZ_ASSERT(strncmp(err, path, strlen(path)) == 0);
	}
	uvm_objprof_free(&p);
	return 0;
}
