// SPDX-License-Identifier: MIT
/*
 * signals.c - the program's SIGSEGV handler chained behind the mprotect
 * capture's (core/capture.h), as libjsig chains a JVM's: a program, a test
 * framework or the executor installing a SIGSEGV handler after the runtime
 * started gets every fault that is not the capture's, and sees its own
 * handler as the installed one. Other signals, and every signal under the
 * userfaultfd captures, go to the C library untouched.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "capture.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*_Atomic real)(int, const struct sigaction *, struct sigaction *);

	if (uvm_sigcap_virtualize(sig, act, old))
		return 0;
	if (!real)
		real = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(
		    RTLD_NEXT, "sigaction");
	return real(sig, act, old);
}

EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	static sighandler_t (*_Atomic real)(int, sighandler_t);
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART; /* signal(2)'s BSD semantics, as glibc gives */
	if (uvm_sigcap_virtualize(sig, &sa, &old))
		return old.sa_flags & SA_SIGINFO ? (sighandler_t)(uintptr_t)old.sa_sigaction
						 : old.sa_handler;
	if (!real)
		real = (sighandler_t(*)(int, sighandler_t))dlsym(RTLD_NEXT, "signal");
	return real(sig, handler);
}
