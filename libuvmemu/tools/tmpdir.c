// SPDX-License-Identifier: MIT
/*
 * tmpdir.c - see tmpdir.h. Honouring $TMPDIR matters on machines whose /tmp
 * is small or shared; removing by listing (not by a list of expected names)
 * matters because the library decides which trace files a run writes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tmpdir.h"

int tool_tmpdir_make(char *out, size_t outlen, const char *prefix, char *err, size_t errlen)
{
	const char *base = getenv("TMPDIR");
	int w;

	if (!base || !*base)
		base = "/tmp";
	w = snprintf(out, outlen, "%s/%sXXXXXX", base, prefix);
	if (w < 0 || (size_t)w >= outlen) {
		snprintf(err, errlen, "TMPDIR=%s: path too long for a temporary directory", base);
		out[0] = '\0';
		return -1;
	}
	if (!mkdtemp(out)) {
		snprintf(err, errlen, "%s: cannot make a temporary directory: %s", out,
			 strerror(errno));
		out[0] = '\0';
		return -1;
	}
	return 0;
}

void tool_tmpdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
}
