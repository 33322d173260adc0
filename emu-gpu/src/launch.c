// SPDX-License-Identifier: MIT
/*
 * launch.c - the public entry points of emugpu.h: launch validation and
 * queueing, the CUDA-style launch, and the executor's description.
 */
#include "executor.h"

/* CUDA's limits (compute capability 3.0 and later). */
#define GRID_X_MAX   2147483647u
#define GRID_YZ_MAX  65535u
#define BLOCK_XY_MAX 1024u
#define BLOCK_Z_MAX  64u

/* Launch errors are returned and also recorded for cudaGetLastError(). */
static cudaError_t fail(cudaError_t e)
{
	uvmemu_set_kernel_error(e);
	return e;
}

static cudaError_t check_shape(dim3 grid, dim3 block)
{
	uint64_t threads = (uint64_t)block.x * block.y * block.z;
	uint64_t ctas = (uint64_t)grid.x * grid.y * grid.z;

	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
		return cudaErrorInvalidConfiguration;
	if (grid.x > GRID_X_MAX || grid.y > GRID_YZ_MAX || grid.z > GRID_YZ_MAX)
		return cudaErrorInvalidConfiguration;
	if (block.x > BLOCK_XY_MAX || block.y > BLOCK_XY_MAX || block.z > BLOCK_Z_MAX ||
	    threads > EG_MAX_THREADS)
		return cudaErrorInvalidConfiguration;
	/* The memory system's CTA hooks number CTAs with an unsigned int. */
	if (ctas > UINT32_MAX)
		return cudaErrorInvalidConfiguration;
	return cudaSuccess;
}

cudaError_t emu_launch(const struct emu_kernel *kernel, dim3 grid, dim3 block, size_t shared_bytes,
		       const void *args)
{
	unsigned dev;
	cudaError_t e;

	if (!kernel || !kernel->fn || kernel->args_size > EG_MAX_ARGS ||
	    (kernel->args_size && !args))
		return fail(cudaErrorInvalidValue);
	e = check_shape(grid, block);
	if (e == cudaSuccess && kernel->block.x &&
	    (block.x != kernel->block.x || block.y != kernel->block.y ||
	     block.z != kernel->block.z))
		e = cudaErrorInvalidConfiguration; /* EMU_KERNEL_BLOCK's shape only */
	if (e != cudaSuccess)
		return fail(e);
	if (shared_bytes > EG_MAX_SHARED)
		return fail(cudaErrorInvalidValue);
	/* Dynamic parallelism is not modelled; waiting on our own stream from a
	 * worker would deadlock. */
	if (eg_self())
		return fail(cudaErrorNotSupported);
	/* A forked child has no workers to run it, and no context (as CUDA). */
	if (atomic_load(&eg.forked))
		return fail(cudaErrorInitializationError);
	/* On the launching thread's current device (the runtime checked it
	 * at cudaSetDevice). */
	dev = eg_current_device();
	e = eg_pool_start(dev);
	if (e != cudaSuccess)
		return fail(e);
	if (eg_fault_install())
		return fail(cudaErrorInitializationError);
	return eg_submit(dev, kernel, grid, block, shared_bytes, args, false);
}

cudaError_t emuLaunchKernel(const struct emu_kernel *func, dim3 grid, dim3 block, const void *args,
			    size_t sharedMem, cudaStream_t stream)
{
	/* Only the default stream exists. */
	if (stream != NULL)
		return fail(cudaErrorInvalidResourceHandle);
	return emu_launch(func, grid, block, sharedMem, args);
}

/* The calling thread's current device's executor. */
void emu_get_info(struct emu_info *info)
{
	const struct eg_config *cfg = eg_config();
	const struct eg_device *d = &eg.dev[eg_current_device()];
	bool ready = atomic_load(&d->ready);

	info->sms = d->cfg->sms;
	info->ctas_per_sm = cfg->ctas_per_sm;
	info->workers = d->cfg->workers;
	info->main_workers = ready ? d->nmain : eg_main_workers(cfg, d->cfg->workers);
	info->dispatch = cfg->order_name;
	/* Before its first launch the pool does not exist yet: report the request. */
	info->pinned = ready ? d->pinned : cfg->pin;
#ifdef EMUGPU_GMMU
	info->gmmu = true;
#else
	info->gmmu = false;
#endif
	info->max_shared_bytes = EG_MAX_SHARED;
}
