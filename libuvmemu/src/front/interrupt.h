/* SPDX-License-Identifier: MIT */
/*
 * interrupt.h - an interrupted run (SIGINT, SIGTERM) still writes its report.
 *
 * Writing a report takes locks, allocates and waits for the driver, none of
 * which a signal handler may do. So the handler only writes the signal's
 * number to a pipe; a thread of ours (uvmemu-signal) reads it, runs the
 * report function (at most once per process, whether the run ends by exit or
 * by signal), restores the signal's default action and raises the signal
 * again, so that the process ends with the status the signal gives (a shell
 * sees 130 for SIGINT). A second signal while the report is written ends the
 * process at once. Signals the program ignores or handles itself stay its own.
 */
#ifndef UVM_INTERRUPT_H
#define UVM_INTERRUPT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "lock_order.h"

struct uvm_interrupt {
	int pipe[2];
	pthread_t thread;
	bool started;
	void (*handler)(int);
	bool mine[2];			    /* SIGINT, SIGTERM handled by us */
	_Atomic int caught;		    /* the first signal, 0 until one came */
	void (*report)(void *ctx, int sig); /* sig 0: the run ended normally */
	void *ctx;
	struct uvm_mutex lock; /* guards reported */
	bool reported;
};

/*
 * Installs `handler` (the runtime's own, calling uvm_interrupt_caught) for
 * SIGINT and SIGTERM where their action is the default one, and starts the
 * thread. Returns 0 or -errno (the run then goes on without it).
 */
int uvm_interrupt_start(struct uvm_interrupt *it, void (*handler)(int),
			void (*report)(void *ctx, int sig), void *ctx);
/* The signal handler's work (async-signal-safe). */
void uvm_interrupt_caught(struct uvm_interrupt *it, int sig);
/* Runs the report function unless it already ran (sig 0: at exit). */
void uvm_interrupt_report_once(struct uvm_interrupt *it, int sig);
/* In a forked child, where the thread does not exist: default actions back. */
void uvm_interrupt_child(struct uvm_interrupt *it);

#endif
