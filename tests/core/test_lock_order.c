// SPDX-License-Identifier: MIT
/*
 * Description: the lock order check (lock_order.h). Locks taken in the
 * documented order, released in any order, and condition-variable waits on
 * the innermost lock pass; taking a lock not later than one held, two locks
 * of one order, releasing a lock not held, and waiting on an outer lock while
 * an inner one is held each abort (SIGABRT, in a forked child) with a message
 * naming the locks; so does waiting for the driver thread while holding a
 * lock it might need. This file turns the check on for itself, so it runs in
 * every build; Debug and sanitizer builds also check the library's own locks
 * in every test (CMake option UVMEMU_LOCK_CHECK).
 */
#undef UVMEMU_LOCK_CHECK
#define UVMEMU_LOCK_CHECK 1

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "lock_order.h"

static struct uvm_mutex interrupt_lock, emu_lock, link_lock, link2_lock, trace_lock;

static int setup(void **state)
{
	uvm_mutex_init(&interrupt_lock, UVM_LOCK_INTERRUPT);
	uvm_mutex_init(&emu_lock, UVM_LOCK_EMU);
	uvm_mutex_init(&link_lock, UVM_LOCK_LINK);
	uvm_mutex_init(&link2_lock, UVM_LOCK_LINK);
	uvm_mutex_init(&trace_lock, UVM_LOCK_TRACE);
	return 0;
}

/* Runs fn in a child with stderr on a pipe; expects it to die of SIGABRT
 * having printed every one of `words`. */
static void expect_abort(void (*fn)(void), const char *const *words)
{
	char out[1024] = "";
	size_t got = 0;
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], STDERR_FILENO);
		signal(SIGABRT, SIG_DFL);
		fn();
		_exit(0); /* not reached when the check works */
	}
	close(fd[1]);
	while (got < sizeof(out) - 1 && (n = read(fd[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += (size_t)n;
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	printf("child said: %s", out);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	for (; *words; words++)
		assert_non_null(strstr(out, *words));
}

static void test_documented_order_passes(void **state)
{
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec past = {0, 0};

	uvm_mutex_lock(&interrupt_lock);
	uvm_mutex_lock(&emu_lock);
	uvm_mutex_lock(&link_lock);
	/* A wait on the innermost lock keeps the record: it returns held. */
	assert_int_not_equal(uvm_cond_timedwait(&c, &link_lock, &past), 0);
	uvm_mutex_lock(&trace_lock);
	/* Releases may come in any order. */
	uvm_mutex_unlock(&emu_lock);
	uvm_mutex_unlock(&trace_lock);
	uvm_mutex_unlock(&link_lock);
	uvm_mutex_unlock(&interrupt_lock);
	/* Nothing held: any lock may be taken again, in turn. */
	uvm_mutex_lock(&trace_lock);
	uvm_mutex_unlock(&trace_lock);
	uvm_mutex_lock(&link2_lock);
	uvm_mutex_unlock(&link2_lock);
}

static void inner_then_outer(void)
{
	uvm_mutex_lock(&trace_lock);
	uvm_mutex_lock(&link_lock);
}

static void test_inner_then_outer_aborts(void **state)
{
	static const char *const words[] = {"taking the link lock", "holding the trace queue lock",
					    NULL};

	expect_abort(inner_then_outer, words);
}

static void same_order_twice(void)
{
	uvm_mutex_lock(&link_lock);
	uvm_mutex_lock(&link2_lock);
}

static void test_same_order_twice_aborts(void **state)
{
	static const char *const words[] = {"taking the link lock", "holding the link lock", NULL};

	expect_abort(same_order_twice, words);
}

static void release_unheld(void)
{
	uvm_mutex_unlock(&emu_lock);
}

static void test_release_unheld_aborts(void **state)
{
	static const char *const words[] = {"releasing", "emulator", NULL};

	expect_abort(release_unheld, words);
}

static void wait_on_outer(void)
{
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec past = {0, 0};

	uvm_mutex_lock(&emu_lock);
	uvm_mutex_lock(&trace_lock);
	uvm_cond_timedwait(&c, &emu_lock, &past);
}

static void test_wait_on_outer_aborts(void **state)
{
	static const char *const words[] = {"waiting on the emulator lock",
					    "holding the trace queue lock", NULL};

	expect_abort(wait_on_outer, words);
}

static void handoff_holding_emu(void)
{
	uvm_mutex_lock(&interrupt_lock);
	uvm_lock_assert_handoff(UVM_LOCK_INTERRUPT, "the driver thread"); /* allowed */
	uvm_mutex_lock(&emu_lock);
	uvm_lock_assert_handoff(UVM_LOCK_INTERRUPT, "the driver thread");
}

static void test_handoff_holding_emu_aborts(void **state)
{
	static const char *const words[] = {"waiting for the driver thread",
					    "holding the emulator lock", NULL};

	expect_abort(handoff_holding_emu, words);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_documented_order_passes),
	    cmocka_unit_test(test_inner_then_outer_aborts),
	    cmocka_unit_test(test_same_order_twice_aborts),
	    cmocka_unit_test(test_release_unheld_aborts),
	    cmocka_unit_test(test_wait_on_outer_aborts),
	    cmocka_unit_test(test_handoff_holding_emu_aborts),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
