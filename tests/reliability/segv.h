/* SPDX-License-Identifier: MIT */
/* segv.h - whether an access faults, for the reliability tests. */
#ifndef REL_SEGV_H
#define REL_SEGV_H

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

static sigjmp_buf rel_segv_jump;

static void rel_on_segv(int sig)
{
	siglongjmp(rel_segv_jump, 1);
}

/* Whether writing one byte at p gets a SIGSEGV (caught: the test goes on). */
static inline bool rel_write_faults(volatile void *p)
{
	struct sigaction sa = {.sa_handler = rel_on_segv}, old;
	bool faulted = false;

	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(rel_segv_jump, 1) == 0)
		*(volatile uint8_t *)p = 1;
	else
		faulted = true;
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

#endif
