/* SPDX-License-Identifier: MIT */
/*
 * uffd.h - the userfaultfd: creation with every fallback a machine may need,
 * feature detection, registration and the resolving ioctls.
 *
 * Every ioctl wrapper returns 0 or -errno and never leaves a range half done
 * silently: a partial copy is continued, EAGAIN (the address space changing
 * under a concurrent madvise) is retried, EEXIST is reported to the caller,
 * which knows whether "already there" means resolved.
 */
#ifndef UVM_UFFD_H
#define UVM_UFFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/userfaultfd.h>

#include "config.h"

/* Debian 12's uapi headers (6.1) predate these; values from the kernel ABI. */
#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED (1 << 13)
#endif
#ifndef UFFD_FEATURE_POISON
#define UFFD_FEATURE_POISON (1 << 14)
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif
#ifndef UFFD_FEATURE_MOVE
#define UFFD_FEATURE_MOVE (1 << 16)
#endif
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFDIO_CONTINUE_MODE_WP
#define UFFDIO_CONTINUE_MODE_WP ((__u64)1 << 1)
#endif
#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00)
#endif

struct uvm_sigcap;

/*
 * The fault source. With the mprotect capture (sig set), fd is its fault
 * pipe, which carries struct uffd_msg as a userfaultfd does, and every call
 * below does its work with mprotect (capture.h): the driver is the same.
 */
struct uvm_uffd {
	int fd;
	uint64_t features;	/* what the kernel supports */
	bool user_mode_only;	/* kernel-mode accesses to managed memory get EFAULT */
	bool shmem_wp;		/* write-protect on the (shmem) host view works */
	const char *how;	/* "userfaultfd(2)", "/dev/userfaultfd", ... */
	struct uvm_sigcap *sig; /* --fault-capture mprotect; NULL: a userfaultfd */
	char why[320];		/* why this capture (`uvmemu info`, the report) */
	bool zapv_batched;	/* uvm_uffd_zapv is one process_madvise call */
	char zap_why[160];	/* how zaps are made and why (`uvmemu info`, the report) */
};

/*
 * --fault-capture is enum uvm_fault_capture_choice (uvmemu_options.def): AUTO (the
 * first of the three below that works), UFFD (full userfaultfd, else stop
 * with the reason), USER_MODE_ONLY (accepted: system calls need the
 * wrappers), MPROTECT (mprotect and SIGSEGV, capture.h).
 */

/* The capture's name as --fault-capture spells it. */
const char *uvm_uffd_capture_name(const struct uvm_uffd *u);

/*
 * Opens a userfaultfd with the features the emulator needs (MISSING and
 * MINOR faults on shmem, write-protect on anonymous memory) and whatever
 * optional ones the kernel has (THREAD_ID). Full userfaultfd (kernel-mode
 * faults too) unless `how` asks for user-mode-only; where only user-mode-
 * only is allowed, that is an error naming the three ways to enable full
 * userfaultfd. On failure writes a one-line explanation (permissions,
 * vm.unprivileged_userfaultfd, kernel version) to err and returns -errno.
 */
int uvm_uffd_open_as(struct uvm_uffd *u, enum uvm_fault_capture_choice how, char *err,
		     size_t errlen);
/* uvm_uffd_open_as(u, how, ...), and for auto, the next that works: full
 * userfaultfd, else user-mode-only, else mprotect; u->why says why. */
int uvm_uffd_open_capture(struct uvm_uffd *u, enum uvm_fault_capture_choice how, char *err,
			  size_t errlen);
/* uvm_uffd_open_as(u, UVM_CAPTURE_AUTO, ...). */
int uvm_uffd_open(struct uvm_uffd *u, char *err, size_t errlen);
void uvm_uffd_close(struct uvm_uffd *u);
/* "MISSING_SHMEM MINOR_SHMEM WP THREAD_ID MOVE ..." for reports. */
void uvm_uffd_features_str(const struct uvm_uffd *u, char *buf, size_t len);

int uvm_uffd_register(struct uvm_uffd *u, uintptr_t start, size_t len, uint64_t mode);

/* How a resolving ioctl maps what it resolves. */
#define UVM_MAP_WAKE 0x1 /* wake the threads waiting on the range now */
#define UVM_MAP_WP   0x2 /* map write-protected (a read-only copy) */

/* Copies len bytes from src into the missing range dst (maps it); flags
 * UVM_MAP_*. */
int uvm_uffd_copy(struct uvm_uffd *u, uintptr_t dst, uintptr_t src, size_t len, unsigned flags);
/* Populates a missing range with zeroes; flags UVM_MAP_WAKE or 0. */
int uvm_uffd_zeropage(struct uvm_uffd *u, uintptr_t dst, size_t len, unsigned flags);
/* Maps page-cache pages already present (resolves MINOR faults); flags
 * UVM_MAP_*. */
int uvm_uffd_continue(struct uvm_uffd *u, uintptr_t dst, size_t len, unsigned flags);
int uvm_uffd_wake(struct uvm_uffd *u, uintptr_t start, size_t len);
/* The host unmap of a view's range: MADV_DONTNEED, or mprotect(PROT_NONE)
 * with the mprotect capture (its pages stay, out of reach). */
int uvm_uffd_zap(struct uvm_uffd *u, uintptr_t start, size_t len);
/*
 * The host unmap of several runs at once. Where the kernel lets a process
 * advise itself through process_madvise(2) (MADV_DONTNEED since Linux 6.13,
 * PIDFD_SELF since 6.14), one call zaps every run, and since 6.16 the TLB
 * flush of clean PTEs is batched: one shootdown instead of one per run.
 * Otherwise one madvise per run. Every run is unmapped when it returns 0.
 */
struct iovec;
int uvm_uffd_zapv(struct uvm_uffd *u, const struct iovec *iov, size_t n);
/* Write-protects a range (protecting wakes no one). */
int uvm_uffd_protect(struct uvm_uffd *u, uintptr_t start, size_t len);
/* Lifts the write protection of a range; flags UVM_MAP_WAKE wakes its writers. */
int uvm_uffd_unprotect(struct uvm_uffd *u, uintptr_t start, size_t len, unsigned flags);

#endif
