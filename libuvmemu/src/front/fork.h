/* SPDX-License-Identifier: MIT */
/*
 * fork.h - what a child forked from a process that uses the runtime gets.
 *
 * Memory the runtime hands out is marked MADV_DONTFORK, so a child inherits
 * no mapping of it and nothing the child does can change the parent's data
 * (the emulator's host view maps a memfd MAP_SHARED: an inherited mapping
 * would write straight into the parent's frames, and the device view's
 * private pages would be a stale copy). In the child the session is marked
 * forked, so every call fails as CUDA's do (cuda_api.c), and a touch of the
 * memory it did not inherit gets a one-line explanation before the SIGSEGV
 * it gets anyway. Each runtime keeps one struct uvm_fork_guard in its
 * instance and passes a small handler of its own that calls uvm_fork_fault.
 */
#ifndef UVM_FORK_H
#define UVM_FORK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "session.h"

struct uvm_fork_guard {
	struct sigaction prev_segv, prev_bus; /* what the child had before */
};

/* Keeps [p, p + len) (page aligned) out of forked children. */
int uvm_fork_protect(void *p, size_t len);
/*
 * In the child (a pthread_atfork child handler): marks s forked and installs
 * `handler` for SIGSEGV and SIGBUS; handler calls uvm_fork_fault.
 */
void uvm_fork_child(struct uvm_fork_guard *g, struct uvm_session *s,
		    void (*handler)(int, siginfo_t *, void *));
/*
 * The child's fault handler: `owned` says whether the address is memory the
 * runtime handed out (the caller knows, without taking a lock). Owned: one
 * line on stderr, then the default action (the fault repeats and kills the
 * child with SIGSEGV). Otherwise the fault goes to the handler the child had.
 * Async-signal-safe.
 */
void uvm_fork_fault(struct uvm_fork_guard *g, int sig, siginfo_t *si, void *uc, bool owned);

#endif
