// SPDX-License-Identifier: MIT
/*
 * fault.c - a kernel that faults fails its launch, not the process.
 *
 * A CTA that dereferences an invalid pointer raises SIGSEGV (or SIGBUS, or
 * SIGFPE for an integer division by zero) on its worker. The handler runs on
 * the worker's own signal stack (a stack overflow leaves no room on the
 * thread's stack) and siglongjmps back to the worker, which records
 * cudaErrorIllegalAddress (cudaErrorLaunchFailure for SIGFPE) for the kernel,
 * skips its remaining CTAs and goes on with the next launch.
 *
 * Anything else keeps its usual meaning: a fault on a thread that is not
 * running a CTA goes to the handler that was installed before ours (a
 * sanitizer's, say), or, with none, crashes the process as if we had never
 * been installed. A fault inside the managed ranges is the memory system's
 * business whenever a handler was installed before ours (a fault-capture
 * mode that catches faults with signals) and goes to that handler.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "executor.h"

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE};
#define NFAULT_SIGNALS (sizeof(fault_signals) / sizeof(fault_signals[0]))

/* The actions we replaced: signal dispositions are process-wide, and so is
 * this table, written by the launching thread (eg_fault_install). */
static struct sigaction previous[NFAULT_SIGNALS];

static const struct sigaction *previous_action(int sig)
{
	for (size_t i = 0; i < NFAULT_SIGNALS; i++)
		if (fault_signals[i] == sig)
			return &previous[i];
	return NULL;
}

static bool is_handler(const struct sigaction *a)
{
	if (a->sa_flags & SA_SIGINFO)
		return a->sa_sigaction != NULL;
	return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

static bool in_managed_range(const struct uvmemu_view_map *v, uintptr_t a)
{
	uintptr_t dev_lo = v->host_lo + (uintptr_t)v->device_offset;
	uintptr_t dev_hi = v->host_hi + (uintptr_t)v->device_offset;

	return (a >= v->host_lo && a < v->host_hi) || (a >= dev_lo && a < dev_hi);
}

/* Async-signal-safe: sigaction, raise and the previous handler only. */
static void pass_on(int sig, siginfo_t *si, void *uc, const struct sigaction *p)
{
	if (is_handler(p)) {
		if (p->sa_flags & SA_SIGINFO)
			p->sa_sigaction(sig, si, uc);
		else
			p->sa_handler(sig);
		return;
	}
	/* A signal someone sent, which the process ignored before we came. */
	if (p->sa_handler == SIG_IGN && si->si_code <= 0)
		return;
	/*
	 * Put the old action back. A fault caused by an instruction recurs when
	 * the handler returns and now takes the default action (a core dump with
	 * the right address); a sent signal is raised again, and delivered with
	 * the old action once the handler returns.
	 */
	sigaction(sig, p, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	struct eg_worker *w = eg_self();
	const struct sigaction *p = previous_action(sig);
	const struct eg_kernel *k;

	if (w && w->in_cta) {
		k = w->kernel;
		if (sig == SIGFPE || !is_handler(p) || !k ||
		    !in_managed_range(&k->views, (uintptr_t)si->si_addr)) {
			w->fault_sig = sig;
			w->fault_addr = si->si_addr;
			siglongjmp(w->recover, 1);
		}
	}
	pass_on(sig, si, uc, p);
}

/*
 * Called at every launch: a program (or a test framework) may have put its own
 * handler in place since the last one. Ours goes back on top and passes on to
 * that one whatever is not a kernel's fault.
 */
int eg_fault_install(void)
{
	struct sigaction sa, cur;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFAULT_SIGNALS; i++) {
		if (sigaction(fault_signals[i], NULL, &cur))
			return -errno;
		if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_fault)
			continue;
		/* A worker faulting outside a CTA right now may read a stale entry;
		 * it only decides where that fault goes, and such a fault is fatal. */
		previous[i] = cur;
		if (sigaction(fault_signals[i], &sa, NULL))
			return -errno;
	}
	return 0;
}

int eg_fault_thread_init(struct eg_worker *w)
{
	long min = sysconf(_SC_SIGSTKSZ);
	size_t size = 64u << 10;
	void *p;

	if (min > 0 && (size_t)min > size)
		size = ((size_t)min + 4095) & ~(size_t)4095;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1,
		 0);
	if (p == MAP_FAILED)
		return -errno;
	w->altstack = p;
	w->altstack_size = size;
	return 0;
}

void eg_fault_thread_enter(struct eg_worker *w)
{
	stack_t ss = {.ss_sp = w->altstack, .ss_size = w->altstack_size};

	/* Cannot fail: the stack is ours, large enough, and not in use. */
	sigaltstack(&ss, NULL);
}

void eg_fault_thread_leave(struct eg_worker *w)
{
	stack_t ss = {.ss_flags = SS_DISABLE};

	sigaltstack(&ss, NULL);
	eg_fault_thread_free(w);
}

void eg_fault_thread_free(struct eg_worker *w)
{
	if (w->altstack)
		munmap(w->altstack, w->altstack_size);
	w->altstack = NULL;
}

void eg_fault_recovered(struct eg_worker *w, struct eg_kernel *k, uint64_t cta)
{
	cudaError_t e = w->fault_sig == SIGFPE ? cudaErrorLaunchFailure : cudaErrorIllegalAddress;
	int first = cudaSuccess;
	sigset_t set;

	/* The jump left the handler with its signal still blocked. */
	sigemptyset(&set);
	sigaddset(&set, w->fault_sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	atomic_store(&k->abort, true);
	uvmemu_set_kernel_error(e);
	if (!atomic_compare_exchange_strong(&k->error, &first, (int)e))
		return;
	/* CUDA says nothing here; a line naming the CTA saves a debugging session. */
	fprintf(stderr,
		"emu-gpu: kernel %s, CTA (%u,%u,%u) on SM %u: %s at address %p; "
		"kernel aborted with %s\n",
		k->kernel->name, (unsigned)(cta % k->grid.x),
		(unsigned)(cta / k->grid.x % k->grid.y), (unsigned)(cta / k->grid.x / k->grid.y),
		w->sm, strsignal(w->fault_sig), w->fault_addr, cudaGetErrorName(e));
}
