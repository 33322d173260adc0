// SPDX-License-Identifier: MIT
/* interrupt.c - report an interrupted run from a thread, then die of the signal. */
#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "abandon.h"

static const int signals[2] = {SIGINT, SIGTERM};

static _Noreturn void die_of(int sig)
{
	sigset_t one;

	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig); /* not reached: the default action ends the process */
}

void uvm_interrupt_report_once(struct uvm_interrupt *it, int sig)
{
	int caught;

	uvm_mutex_lock(&it->lock);
	if (!it->reported) {
		it->reported = true;
		it->report(it->ctx, sig);
	}
	uvm_mutex_unlock(&it->lock);
	/* A program that reached its end while the signal's report was being
	 * written (its waits for the model were abandoned) ends as the signal
	 * ends it, as the report says. */
	caught = atomic_load(&it->caught);
	if (sig == 0 && caught)
		die_of(caught);
}

static void *watch(void *arg)
{
	struct uvm_interrupt *it = arg;
	int sig;

	pthread_setname_np(pthread_self(), "uvmemu-signal");
	for (;;) {
		ssize_t n = read(it->pipe[0], &sig, sizeof(sig));

		if (n == (ssize_t)sizeof(sig))
			break;
		if (n < 0 && errno == EINTR)
			continue;
		return NULL; /* the pipe broke: nothing more will come */
	}
	uvm_interrupt_report_once(it, sig);
	die_of(sig);
}

void uvm_interrupt_caught(struct uvm_interrupt *it, int sig)
{
	int expected = 0, saved = errno;

	/* The report waits for the driver, which may be in a long wait for
	 * the model: no wait outlasts the signal (abandon.h). */
	uvm_abandon_waits();
	if (!atomic_compare_exchange_strong(&it->caught, &expected, sig)) {
		/* Asked twice: end now, report or not. */
		signal(sig, SIG_DFL);
		raise(sig);
	} else if (write(it->pipe[1], &sig, sizeof(sig)) != (ssize_t)sizeof(sig)) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	errno = saved;
}

int uvm_interrupt_start(struct uvm_interrupt *it, void (*handler)(int),
			void (*report)(void *ctx, int sig), void *ctx)
{
	struct sigaction sa = {.sa_handler = handler, .sa_flags = SA_RESTART};
	int rc;

	it->report = report;
	it->ctx = ctx;
	it->handler = handler;
	uvm_mutex_init(&it->lock, UVM_LOCK_INTERRUPT);
	if (pipe2(it->pipe, O_CLOEXEC))
		return -errno;
	rc = -pthread_create(&it->thread, NULL, watch, it);
	if (rc) {
		close(it->pipe[0]);
		close(it->pipe[1]);
		return rc;
	}
	pthread_detach(it->thread);
	it->started = true;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 2; i++) {
		struct sigaction old;

		/* Only where nobody decided otherwise (nohup ignores SIGINT in
		 * the background; a program may have set a handler already). */
		if (sigaction(signals[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			it->mine[i] = sigaction(signals[i], &sa, NULL) == 0;
	}
	return 0;
}

void uvm_interrupt_child(struct uvm_interrupt *it)
{
	for (int i = 0; i < 2; i++) {
		struct sigaction now;

		if (it->mine[i] && sigaction(signals[i], NULL, &now) == 0 &&
		    !(now.sa_flags & SA_SIGINFO) && now.sa_handler == it->handler)
			signal(signals[i], SIG_DFL);
	}
	it->started = false;
}
