// SPDX-License-Identifier: MIT
/*
 * launch.c - emugpu.h's launch API on a real GPU, for the workloads' CUDA
 * builds (build/bin/cuda). A kernel compiled by nvcc (emugpu_cuda.h) is a
 * struct emu_kernel whose function launches its __global__ twin with the
 * shape in the struct emu_cta it is given; this checks what the CPU executor
 * checks before the GPU does (an EMU_KERNEL_BLOCK kernel runs in its one
 * shape only), and brackets each launch with the runtime's kernel hooks,
 * which time it with CUDA events (libuvmemu/src/cudart).
 */
#include <string.h>

#include "emugpu.h"

cudaError_t emu_launch(const struct emu_kernel *kernel, dim3 grid, dim3 block, size_t shared_bytes,
		       const void *args)
{
	struct uvmemu_launch l;
	struct emu_cta cta;
	uint64_t index;
	cudaError_t e;

	if (!kernel || !kernel->fn || (kernel->args_size && !args))
		return cudaErrorInvalidValue;
	if (kernel->block.x && (block.x != kernel->block.x || block.y != kernel->block.y ||
				block.z != kernel->block.z))
		return cudaErrorInvalidConfiguration;
	memset(&cta, 0, sizeof(cta));
	cta.grid_dim = grid;
	cta.block_dim = block;
	cta.nthreads = block.x * block.y * block.z;
	cta.shared_bytes = shared_bytes;
	l = (struct uvmemu_launch){.kernel = kernel->name,
				   .grid = grid,
				   .block = block,
				   .shared_bytes = shared_bytes,
				   .args = args,
				   .args_size = kernel->args_size};
	index = uvmemu_kernel_begin(&l);
	kernel->fn(&cta, args);
	/* A launch's own error (a shape the GPU refuses) is returned at once,
	 * as cudaLaunchKernel returns it. */
	e = cudaGetLastError();
	uvmemu_kernel_end(index);
	return e;
}

cudaError_t emuLaunchKernel(const struct emu_kernel *func, dim3 grid, dim3 block, const void *args,
			    size_t sharedMem, cudaStream_t stream)
{
	if (stream != NULL)
		return cudaErrorInvalidResourceHandle;
	return emu_launch(func, grid, block, sharedMem, args);
}

/* The GPU's own figures where the executor's have one. */
void emu_get_info(struct emu_info *info)
{
	struct cudaDeviceProp p;
	int dev = 0;

	memset(info, 0, sizeof(*info));
	info->dispatch = "hardware";
	if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&p, dev) != cudaSuccess)
		return;
	info->sms = (unsigned)p.multiProcessorCount;
	info->ctas_per_sm = (unsigned)p.maxBlocksPerMultiProcessor;
	info->max_shared_bytes = p.sharedMemPerBlock;
}
