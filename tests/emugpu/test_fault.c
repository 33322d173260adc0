// SPDX-License-Identifier: MIT
/*
 * Description: a kernel that faults (invalid pointer, stack overflow, integer
 * division by zero) is reported by cudaDeviceSynchronize() and
 * cudaGetLastError(), its remaining CTAs are skipped, and the process goes on:
 * the next launch works. A fault outside a kernel still kills the process
 * with SIGSEGV, whether the CPU raised it or someone sent it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "emugpu.h"

#define NCTA 2000

/*
 * Sanitizer builds: their own fault handler, which ours passes faults outside
 * kernels on to, reports the fault and ends the process its own way; and
 * UBSan (part of the address build) stops a division by zero before the CPU
 * traps, while TSan does not survive a jump out of its SIGFPE handling.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

struct poke_args {
	unsigned *ran; /* CTAs that ran to the end */
	int *bad;      /* written by CTA `victim` */
	unsigned victim;
	int divisor;
};

EMU_KERNEL(poke, struct poke_args)
{
	EMU_FOR_THREADS {
		if (blockIdx.x == args->victim && threadIdx.x == 0)
			*(volatile int *)args->bad = 42 / args->divisor;
	}
	atomicAdd(args->ran, 1u);
}

/*
 * Recurses until the stack runs out. Each call reads its caller's frame, so
 * no frame can be reused (no tail call); the depth limit, far beyond any
 * stack, only keeps the compiler from calling the recursion infinite.
 */
static unsigned deep(volatile unsigned *sink, unsigned depth, volatile char *up)
{
	volatile char frame[512];

	if (depth > (1u << 30))
		return 0;
	frame[depth % sizeof(frame)] = (char)depth;
	if (up)
		*sink += (unsigned)up[depth % sizeof(frame)];
	return deep(sink, depth + 1, frame) + (unsigned)frame[1];
}

struct overflow_args {
	unsigned *sink;
};

EMU_KERNEL(overflow, struct overflow_args)
{
	EMU_FOR_THREADS {
		if (blockIdx.x == 1)
			*args->sink += deep(args->sink, 0, NULL);
	}
}

static void launch_ok(void)
{
	unsigned ran = 0;
	int target = 0;

	assert_int_equal(
	    EMU_LAUNCH(poke, emu_dim3(NCTA, 1, 1), emu_dim3(32, 1, 1), 0, &ran, &target, 7, 6),
	    cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(cudaGetLastError(), cudaSuccess);
	assert_int_equal(ran, NCTA);
	assert_int_equal(target, 7);
}

/* `ran` as it stands once the kernel is over; CTA `victim` faulted. */
static void expect_fault(cudaError_t want, const unsigned *ran, unsigned victim)
{
	struct emu_info info;

	assert_int_equal(cudaDeviceSynchronize(), want);
	assert_int_equal(cudaGetLastError(), want);
	assert_int_equal(cudaGetLastError(), cudaSuccess);
	/* The faulting CTA did not go on. With a single worker, CTAs run one at
	 * a time in order, and the abort skips exactly the ones after the victim. */
	emu_get_info(&info);
	if (info.workers == 1)
		assert_int_equal(*ran, victim);
	else
		assert_true(*ran < NCTA);
	launch_ok();
}

static void test_invalid_pointer(void **state)
{
	unsigned ran = 0;

	assert_int_equal(
	    EMU_LAUNCH(poke, emu_dim3(NCTA, 1, 1), emu_dim3(32, 1, 1), 0, &ran, (int *)16, 3, 1),
	    cudaSuccess);
	expect_fault(cudaErrorIllegalAddress, &ran, 3);
}

static void test_unmapped_memory(void **state)
{
	unsigned ran = 0;
	int *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(hole != MAP_FAILED);
	assert_int_equal(
	    EMU_LAUNCH(poke, emu_dim3(NCTA, 1, 1), emu_dim3(32, 1, 1), 0, &ran, hole, 0, 1),
	    cudaSuccess);
	expect_fault(cudaErrorIllegalAddress, &ran, 0);
	munmap(hole, 4096);
}

static void test_divide_by_zero(void **state)
{
	unsigned ran = 0;
	int target = 0;

	if (SANITIZED)
		skip();

	assert_int_equal(
	    EMU_LAUNCH(poke, emu_dim3(NCTA, 1, 1), emu_dim3(32, 1, 1), 0, &ran, &target, 5, 0),
	    cudaSuccess);
	expect_fault(cudaErrorLaunchFailure, &ran, 5);
}

static void test_stack_overflow(void **state)
{
	unsigned sink = 0;

	assert_int_equal(EMU_LAUNCH(overflow, emu_dim3(4, 1, 1), emu_dim3(2, 1, 1), 0, &sink),
			 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
	assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
	launch_ok();
}

static void test_many_faults(void **state)
{
	unsigned ran[3] = {0};

	/* Three faulting kernels in a row, without a synchronize between. */
	for (int i = 0; i < 3; i++)
		assert_int_equal(EMU_LAUNCH(poke, emu_dim3(NCTA, 1, 1), emu_dim3(1, 1, 1), 0,
					    &ran[i], (int *)8, 0, 1),
				 cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
	assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
	for (int i = 0; i < 3; i++)
		assert_true(ran[i] < NCTA);
	launch_ok();
}

/* Runs this program as `self crash MODE` and returns how it ended. */
static int run_child(const char *mode)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit no_core = {0, 0};

		setrlimit(RLIMIT_CORE, &no_core);
		execl("/proc/self/exe", "emugpu_fault", "crash", mode, (char *)NULL);
		_exit(99);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* In a fresh process: start the executor, then fault outside any kernel. */
static int crash(const char *mode)
{
	unsigned ran = 0;
	int target = 0;

	if (EMU_LAUNCH(poke, emu_dim3(4, 1, 1), emu_dim3(1, 1, 1), 0, &ran, &target, 9, 1) ||
	    cudaDeviceSynchronize() || ran != 4)
		return 3;
	if (strcmp(mode, "fault") == 0) {
		volatile int *volatile bad = (volatile int *)(uintptr_t)8;

		*bad = 1;
	} else
		raise(SIGSEGV);
	return 0; /* not reached if the signal kills us, as it must */
}

static void expect_crash(int status)
{
	if (SANITIZED) {
		assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 3);
		return;
	}
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
}

static void test_fault_outside_kernel_crashes(void **state)
{
	expect_crash(run_child("fault"));
	expect_crash(run_child("raise"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_invalid_pointer),
	    cmocka_unit_test(test_unmapped_memory),
	    cmocka_unit_test(test_divide_by_zero),
	    cmocka_unit_test(test_stack_overflow),
	    cmocka_unit_test(test_many_faults),
	    cmocka_unit_test(test_fault_outside_kernel_crashes),
	};

	if (argc == 3 && strcmp(argv[1], "crash") == 0)
		return crash(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
