/* SPDX-License-Identifier: MIT */
/* bug.h - stopping on an internal bug rather than running on with corrupt data. */
#ifndef UVM_BUG_H
#define UVM_BUG_H

#include <stddef.h>

/*
 * An operation the emulator's correctness depends on failed (an ioctl the
 * state says must succeed, an illegal transition): prints what, the block and
 * the error (errno, either sign) on one line and aborts. A half-done
 * migration cannot be rolled back, and running on would lose data silently.
 */
__attribute__((noreturn)) void uvm_bug(const char *what, size_t block, int err);

#endif
