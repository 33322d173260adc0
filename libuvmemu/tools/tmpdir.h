// SPDX-License-Identifier: MIT
/*
 * tmpdir.h - a command's own scratch directory: made under $TMPDIR (else
 * /tmp), and removed with everything written into it, so that no command
 * leaves files behind in a shared temporary directory.
 */
#ifndef UVMEMU_TOOLS_TMPDIR_H
#define UVMEMU_TOOLS_TMPDIR_H

#include <stddef.h>

/*
 * Makes $TMPDIR/<prefix>XXXXXX into out; 0, or -1 with a line naming the path
 * and the reason in err (out is then empty).
 */
int tool_tmpdir_make(char *out, size_t outlen, const char *prefix, char *err, size_t errlen);
/*
 * Removes the files in dir, then dir. Only flat directories: the commands
 * write no subdirectories there, and a leftover one keeps dir (rmdir fails)
 * rather than following anything recursively.
 */
void tool_tmpdir_remove(const char *dir);

#endif
