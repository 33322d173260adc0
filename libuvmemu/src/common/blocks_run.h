/* SPDX-License-Identifier: MIT */
/*
 * blocks_run.h - the basic blocks of program code the calling thread has
 * run, counted by the compiler's coverage instrumentation.
 *
 * A build with -DEMUGPU_COUNT_BLOCKS=ON compiles programs (their kernels)
 * with -fsanitize-coverage=trace-pc, which calls __sanitizer_cov_trace_pc()
 * at the head of every basic block (GCC: before it vectorizes, so loops stop
 * vectorizing; Clang: after, on the vectorized code). Both runtime
 * libraries define it (blocks_run.c), so whichever one the program runs on
 * counts. The count is work done, not time taken: it is the same on a quiet
 * machine and a busy one, which a thread's CPU time is not (a VM's neighbours
 * move it by a fifth from run to run). The model clock prices a block at the
 * calibration kernel's CPU time per block (model/gpu.c, --compute).
 *
 * Only threads that run kernels read it; the runtime's own code is not
 * instrumented, so a fault's trap, a batch's wait or the GMMU accessors count
 * nothing.
 */
#ifndef UVM_BLOCKS_RUN_H
#define UVM_BLOCKS_RUN_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * Initial-exec: both libraries are loaded at start (by the program's link,
 * or LD_PRELOAD), and a block's count is then one add to %fs-relative
 * memory, with no call to find the variable. Atomic because the driver
 * reads a worker's count from its own thread (uvm_blocks_run_ptr); only the
 * owner writes it, with a relaxed load and store: a plain add, no lock.
 */
extern __attribute__((tls_model("initial-exec"))) _Thread_local _Atomic uint64_t uvm_blocks_run;

static inline uint64_t uvm_blocks_run_self(void)
{
	return atomic_load_explicit(&uvm_blocks_run, memory_order_relaxed);
}

/* The calling thread's counter, for another thread to read while it lives. */
static inline const _Atomic uint64_t *uvm_blocks_run_ptr(void)
{
	return &uvm_blocks_run;
}

#endif
