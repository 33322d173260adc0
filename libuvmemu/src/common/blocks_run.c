// SPDX-License-Identifier: MIT
/* blocks_run.c - the instrumentation's callback (blocks_run.h). */
#include "blocks_run.h"

#include "uvmemu.h"

__attribute__((tls_model("initial-exec"))) _Thread_local _Atomic uint64_t uvm_blocks_run;

/* GCC's and Clang's name for the call they place in every basic block;
 * exported by both runtimes (exports.map). No declaration exists in a
 * header. */
__attribute__((visibility("default"))) void __sanitizer_cov_trace_pc(void);

void __sanitizer_cov_trace_pc(void)
{
	atomic_store_explicit(&uvm_blocks_run, uvm_blocks_run_self() + 1, memory_order_relaxed);
}

uint64_t uvmemu_blocks_run(void)
{
	return uvm_blocks_run_self();
}
