/* SPDX-License-Identifier: MIT */
/*
 * trace_files.h - what the trace tests read back from a trace directory
 * (cmocka asserts on failure).
 */
#ifndef TEST_TRACE_FILES_H
#define TEST_TRACE_FILES_H

/* DIR/NAME's whole text (the caller frees it). */
char *tf_slurp(const char *dir, const char *name);
/* How many times `what` starts in s. */
int tf_occurrences(const char *s, const char *what);
/* Removes the files a trace writes, then the directory. */
void tf_remove(const char *dir);

#endif
