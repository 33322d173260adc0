/* SPDX-License-Identifier: MIT */
/*
 * uvmemu_cuda_real.h - the CUDA-named API of uvmemu_cuda.h on the real CUDA
 * runtime.
 *
 * uvmemu_cuda.h includes this instead of its own declarations when a
 * program is built for a real GPU: kernel files compiled by nvcc, and the
 * host's C files compiled with UVMEMU_REAL_CUDA (CMake's UVMEMU_CUDA twins,
 * build/bin/cuda). The calls are then the CUDA runtime's, linked statically,
 * with two differences a C program sees:
 *
 *   - cudaMemAdvise and cudaMemPrefetchAsync keep the device ordinal of
 *     CUDA 12 and uvmemu (cudaCpuDeviceId for the host): CUDA 13 takes a
 *     struct cudaMemLocation there, which these build from the ordinal;
 *   - cudaMallocManaged never asks for more managed memory than the GPU had
 *     free when the process first asked (less an eighth, for the context
 *     and the driver's own use): a program that oversubscribes a shared
 *     GPU can hang it, so a request beyond that fails at once with
 *     cudaErrorMemoryAllocation and a line on stderr. cudaFree gives the
 *     bytes back.
 *
 * libuvmemu_cudart (libuvmemu/src/cudart) implements these and the
 * uvmemu.h calls a workload makes (region of interest, verdict, report
 * values) over the real runtime, with kernel times from CUDA events and
 * CUPTI's Unified Memory counters.
 */
#ifndef UVMEMU_CUDA_REAL_H
#define UVMEMU_CUDA_REAL_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t uvmemu_cuda_malloc_managed(void **ptr, size_t size, unsigned int flags);
cudaError_t uvmemu_cuda_free(void *ptr);

/* C only: C++ files (nvcc's) keep CUDA's overloads and templates, and the
 * kernels that live in them allocate nothing. */
#ifndef __cplusplus
#define cudaMallocManaged(ptr, size, flags)                                                        \
	uvmemu_cuda_malloc_managed((void **)(ptr), (size), (flags))
#define cudaFree(ptr) uvmemu_cuda_free(ptr)

#if CUDART_VERSION >= 13000
static inline struct cudaMemLocation uvmemu_cuda_location_(int device)
{
	struct cudaMemLocation l;

	l.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
	l.id = device == cudaCpuDeviceId ? 0 : device;
	return l;
}

static inline cudaError_t uvmemu_cuda_mem_advise_(const void *ptr, size_t count,
						  enum cudaMemoryAdvise advice, int device)
{
	return cudaMemAdvise(ptr, count, advice, uvmemu_cuda_location_(device));
}

static inline cudaError_t uvmemu_cuda_prefetch_(const void *ptr, size_t count, int device,
						cudaStream_t stream)
{
	return cudaMemPrefetchAsync(ptr, count, uvmemu_cuda_location_(device), 0, stream);
}

#define cudaMemAdvise(ptr, count, advice, device)                                                  \
	uvmemu_cuda_mem_advise_((ptr), (count), (advice), (device))
#define cudaMemPrefetchAsync(ptr, count, device, stream)                                           \
	uvmemu_cuda_prefetch_((ptr), (count), (device), (stream))
#endif /* CUDART_VERSION >= 13000 */
#endif /* !__cplusplus */

#ifdef __cplusplus
}
#endif

#endif /* UVMEMU_CUDA_REAL_H */
