// SPDX-License-Identifier: MIT
/*
 * Description: fork is safe and clear. A child forked after the runtime
 * started inherits no managed memory: its CUDA calls return
 * cudaErrorInitializationError, uvmemu_malloc_managed -ENODEV, a kernel
 * launch fails the same way instead of hanging, and it can exit normally; a
 * child that writes host-resident managed data, or reads device-resident
 * data, dies of SIGSEGV after exactly one line saying why. The parent's data
 * never changes and the parent goes on working. Run natively and emulated
 * (issue 11, defect 2: the child wrote into the parent's memfd, read stale
 * device copies without error, and hung in a launch).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "emugpu.h"

#define N (2u << 20) /* words: 8 MB per buffer */

struct fill_args {
	uint32_t *b;
	uint64_t n;
};

EMU_KERNEL(fill, struct fill_args)
{
	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->n)
			args->b[i] = (uint32_t)i * 7u;
	}
}

static uint32_t *host_data, *dev_data;

enum child_kind { CALLS, WRITE_HOST, READ_DEVICE };

/* Runs `kind` in a forked child; returns its wait status and, in err, what
 * it wrote on stderr. */
static int in_child(enum child_kind kind, char *err, size_t errlen)
{
	int pipefd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(pipefd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		void *p = NULL;
		int bad = 0;

		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		switch (kind) {
		case CALLS:
			bad |= cudaMallocManaged(&p, 4096, cudaMemAttachGlobal) !=
			       cudaErrorInitializationError;
			bad |= (cudaDeviceSynchronize() != cudaErrorInitializationError) << 1;
			bad |= (cudaFree(dev_data) != cudaErrorInitializationError) << 2;
			bad |= (uvmemu_malloc_managed(&p, 4096) != -ENODEV) << 3;
			bad |= (EMU_LAUNCH(fill, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0, dev_data,
					   32) != cudaErrorInitializationError)
			       << 4;
			bad |= (cudaGetLastError() != cudaErrorInitializationError) << 5;
			exit(bad); /* a normal exit: destructors run and must not hang */
		case WRITE_HOST:
			((volatile uint32_t *)host_data)[12345] = 99;
			_exit(100); /* not reached */
		case READ_DEVICE:
			_exit(((volatile uint32_t *)dev_data)[4321] == 4321u * 7u ? 101 : 102);
		}
		_exit(103);
	}
	close(pipefd[1]);
	while (got + 1 < errlen && (n = read(pipefd[0], err + got, errlen - 1 - got)) > 0)
		got += (size_t)n;
	err[got] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void check_parent_data(void)
{
	for (size_t i = 0; i < N; i++) {
		if (host_data[i] != 0x11111111u)
			fail_msg("host_data[%zu] = %#x: the child changed the parent's data", i,
				 host_data[i]);
		if (dev_data[i] != (uint32_t)i * 7u)
			fail_msg("dev_data[%zu] = %#x, not %#x", i, dev_data[i], (uint32_t)i * 7u);
	}
}

static int setup(void **state)
{
	if (cudaMallocManaged((void **)&host_data, N * 4, cudaMemAttachGlobal) ||
	    cudaMallocManaged((void **)&dev_data, N * 4, cudaMemAttachGlobal))
		return -1;
	memset(host_data, 0x11, N * 4); /* host-resident */
	/* Device-resident under the emulator: written by a kernel, not read back. */
	if (EMU_LAUNCH(fill, emu_dim3(N / 256, 1, 1), emu_dim3(256, 1, 1), 0, dev_data, N) ||
	    cudaDeviceSynchronize())
		return -1;
	return 0;
}

static void test_child_calls_fail(void **state)
{
	char err[1024];
	int status = in_child(CALLS, err, sizeof(err));

	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status))
		fail_msg("child calls that did not fail as they should: bit mask %#x",
			 WEXITSTATUS(status));
}

static void expect_segv(enum child_kind kind)
{
	char err[1024];
	int status = in_child(kind, err, sizeof(err));

	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGSEGV)
		fail_msg("child status %#x, not killed by SIGSEGV; stderr: %s", status, err);
	if (lines(err) != 1 || !strstr(err, "not inherited across fork"))
		fail_msg("child's stderr is not one line saying why: '%s'", err);
}

static void test_child_writes_host_data(void **state)
{
	expect_segv(WRITE_HOST);
}

static void test_child_reads_device_data(void **state)
{
	expect_segv(READ_DEVICE);
}

/* Runs last: after every child, the parent's data and runtime are intact. */
static void test_parent_unchanged(void **state)
{
	check_parent_data();
	assert_int_equal(
	    EMU_LAUNCH(fill, emu_dim3(N / 256, 1, 1), emu_dim3(256, 1, 1), 0, host_data, N),
	    cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(host_data[N - 1], (uint32_t)(N - 1) * 7u);
	assert_int_equal(cudaFree(host_data), cudaSuccess);
	assert_int_equal(cudaFree(dev_data), cudaSuccess);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_child_calls_fail),
	    cmocka_unit_test(test_child_writes_host_data),
	    cmocka_unit_test(test_child_reads_device_data),
	    cmocka_unit_test(test_parent_unchanged),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
