/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what the fuzz targets share: the libFuzzer entry point each
 * defines, a FILE over the input bytes, and the check that stops the run on a
 * broken invariant (a crash libFuzzer records, with the input that caused it).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A read-only stream over the input (an empty one for no bytes). */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
	static char none;
	FILE *f = fmemopen(size ? (void *)(uintptr_t)data : &none, size, "r");

	if (!f)
		abort();
	return f;
}

/* The input as a NUL-terminated string (stopping at an embedded NUL). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * A path naming a file that holds the input, for readers that open a path
 * themselves: one memfd per process, rewritten for each input. Its name is
 * /proc/self/fd/N.
 */
static inline const char *fuzz_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("fuzz-input", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

#define FUZZ_ASSERT(cond)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__,       \
				#cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* An error message must be one non-empty line. */
static inline void fuzz_one_line(const char *err)
{
	FUZZ_ASSERT(err[0] != '\0');
	FUZZ_ASSERT(strchr(err, '\n') == NULL);
}

#endif
