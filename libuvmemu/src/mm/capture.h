/* SPDX-License-Identifier: MIT */
/*
 * capture.h - the mprotect fault capture (--fault-capture mprotect): faults
 * caught without userfaultfd, for kernels, containers and users that lack it.
 *
 * A block not resident on a side is PROT_NONE in that side's view (read-only
 * where the remap backend write-protects it). A touch raises SIGSEGV in the
 * touching thread; the handler recognises an address in an open block of a
 * managed view (uvm_arena_is_open), posts a struct uffd_msg like the kernel's
 * to a pipe whose read end the driver polls in place of the userfaultfd, and
 * sleeps on a futex of its own until the driver wakes the range. The driver
 * resolves with mprotect (read or read-write) once the data is in place, and
 * its host unmap is mprotect(PROT_NONE): the real PTE change and TLB
 * shootdown. Everything else (batching, stages, policies) is unchanged:
 * uffd.c routes its resolving calls here when the descriptor is this one.
 *
 * Any other SIGSEGV (not ours, or in a block that is not open, such as a
 * freed slot the driver retired) goes to the handler installed before ours,
 * which under emu-gpu turns a kernel's own fault into cudaErrorIllegalAddress.
 *
 * Given up against userfaultfd: a kernel-mode access (a system call) to a
 * PROT_NONE block fails with EFAULT instead of faulting (the LD_PRELOAD
 * runtime's wrappers migrate such buffers first, shim/syscalls.c); the fault
 * carries no "missing or minor" distinction; each protection change may split
 * a mapping (vm.max_map_count).
 */
#ifndef UVM_CAPTURE_H
#define UVM_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uvm_arena;
struct uvm_sigcap;

/* Creates the capture: the fault pipe (*fd: its read end, non-blocking) and
 * the SIGSEGV handler. One per process at a time (a signal handler has only
 * a process-wide way in); a second gives -EBUSY with the reason in err. */
int uvm_sigcap_open(struct uvm_sigcap **out, int *fd, char *err, size_t errlen);
void uvm_sigcap_close(struct uvm_sigcap *c);
/* The arena whose open blocks are managed (before the first allocation). */
void uvm_sigcap_attach(struct uvm_sigcap *c, struct uvm_arena *a);
/*
 * Sets the protection of [addr, addr + len) (PROT_NONE: the unmap; PROT_READ:
 * a read-only mapping; PROT_READ | PROT_WRITE) and, with wake, wakes the
 * threads waiting on the range. ENOMEM (vm.max_map_count reached) ends the
 * process with one line naming the limit.
 */
int uvm_sigcap_protect(struct uvm_sigcap *c, uintptr_t addr, size_t len, int prot, bool wake);
/* Wakes the threads whose fault lies in [addr, addr + len). */
int uvm_sigcap_wake(struct uvm_sigcap *c, uintptr_t addr, size_t len);
/*
 * A program's sigaction(SIGSEGV) while the capture is on: its handler
 * becomes the one the capture passes other faults to, and the capture's
 * stays installed (a test framework, a crash reporter or emu-gpu installing
 * theirs after the runtime started would otherwise take the capture's faults).
 * Returns false when the call is not for the capture (the C library's then).
 */
struct sigaction;
bool uvm_sigcap_virtualize(int sig, const struct sigaction *act, struct sigaction *old);

#endif
