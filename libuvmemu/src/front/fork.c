// SPDX-License-Identifier: MIT
/* fork.c - forked children inherit no runtime memory, and are told so. */
#include "fork.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int uvm_fork_protect(void *p, size_t len)
{
	return madvise(p, len, MADV_DONTFORK) ? -errno : 0;
}

void uvm_fork_child(struct uvm_fork_guard *g, struct uvm_session *s,
		    void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction sa = {.sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_NODEFER};

	atomic_store(&s->forked, true);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &g->prev_segv);
	sigaction(SIGBUS, &sa, &g->prev_bus);
}

/* Appends text to buf (async-signal-safe: no stdio). */
static size_t put(char *buf, size_t n, size_t cap, const char *text)
{
	while (*text && n + 1 < cap)
		buf[n++] = *text++;
	return n;
}

static size_t put_num(char *buf, size_t n, size_t cap, unsigned long v, unsigned base)
{
	char digits[24];
	int i = 0;

	do {
		digits[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v && i < (int)sizeof(digits));
	while (i > 0 && n + 1 < cap)
		buf[n++] = digits[--i];
	return n;
}

void uvm_fork_fault(struct uvm_fork_guard *g, int sig, siginfo_t *si, void *uc, bool owned)
{
	const struct sigaction *prev = sig == SIGSEGV ? &g->prev_segv : &g->prev_bus;
	int saved = errno;
	char line[256];
	size_t n = 0;

	if (owned) {
		n = put(line, n, sizeof(line), "uvmemu: process ");
		n = put_num(line, n, sizeof(line), (unsigned long)getpid(), 10);
		n = put(line, n, sizeof(line), " touched managed memory at 0x");
		n = put_num(line, n, sizeof(line), (unsigned long)si->si_addr, 16);
		n = put(line, n, sizeof(line),
			" in a child forked after the CUDA runtime started: it is not inherited "
			"across fork (use it in the parent, or exec)\n");
		if (write(STDERR_FILENO, line, n) < 0) {
			/* Nothing more to say where stderr is gone. */
		}
	}
	if (owned || (!(prev->sa_flags & SA_SIGINFO) &&
		      (prev->sa_handler == SIG_DFL || prev->sa_handler == SIG_IGN))) {
		/* The faulting access repeats on return and takes the default
		 * action (a synchronous fault cannot be ignored). */
		signal(sig, SIG_DFL);
	} else if (prev->sa_flags & SA_SIGINFO) {
		prev->sa_sigaction(sig, si, uc);
	} else {
		prev->sa_handler(sig);
	}
	errno = saved;
}
