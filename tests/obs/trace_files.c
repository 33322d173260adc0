// SPDX-License-Identifier: MIT
/* trace_files.c - reading a trace directory back in the trace tests. */
#include "trace_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

char *tf_slurp(const char *dir, const char *name)
{
	char path[96], *s = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(getdelim(&s, &len, '\0', f) > 0);
	fclose(f);
	return s;
}

int tf_occurrences(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

void tf_remove(const char *dir)
{
	char path[96];

	for (const char *n = "batches.csv\0kernels.csv\0accesses.csv\0allocations.csv\0"
			     "gpu_batches.csv\0gpu_transfers.csv\0gpu_stalls.csv\0timeline.json\0";
	     *n; n += strlen(n) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		unlink(path);
	}
	rmdir(dir);
}
