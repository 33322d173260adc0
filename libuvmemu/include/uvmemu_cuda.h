/* SPDX-License-Identifier: MIT */
/*
 * uvmemu_cuda.h - CUDA-named runtime entry points.
 *
 * The subset of the CUDA runtime API that unified-memory programs use, with
 * CUDA's signatures, enum values and error codes, so that a ported program
 * reads like the original. Two libraries implement it:
 *   libuvmemu_native.so  plain memory, everything "resident" (link to this);
 *   libuvmemu.so         the emulator (LD_PRELOAD it, or use `uvmemu run`).
 */
#ifndef UVMEMU_CUDA_H
#define UVMEMU_CUDA_H

/* Built for a real GPU (nvcc, or C compiled with UVMEMU_REAL_CUDA), a program
 * gets the CUDA runtime itself, with the same calls (uvmemu_cuda_real.h). */
#if defined(UVMEMU_REAL_CUDA) || defined(__CUDACC__)
#include "uvmemu_cuda_real.h"
#endif
#if !defined(UVMEMU_REAL_CUDA) && !defined(__CUDACC__)

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Public entry points stay visible when the libraries build with
 * -fvisibility=hidden. */
#pragma GCC visibility push(default)

/* ---------------------------------------------------------------- errors */

/* Values are CUDA's own, so that logs and checks compare across the two. */
typedef enum cudaError {
	cudaSuccess = 0,
	cudaErrorInvalidValue = 1,
	cudaErrorMemoryAllocation = 2,
	cudaErrorInitializationError = 3,
	cudaErrorInvalidConfiguration = 9,
	cudaErrorInvalidHostPointer = 16,
	cudaErrorInvalidDevicePointer = 17,
	cudaErrorInvalidMemcpyDirection = 21,
	cudaErrorNoDevice = 100,
	cudaErrorInvalidDevice = 101,
	cudaErrorInvalidResourceHandle = 400,
	cudaErrorIllegalAddress = 700,
	cudaErrorLaunchOutOfResources = 701,
	cudaErrorPeerAccessAlreadyEnabled = 704,
	cudaErrorPeerAccessNotEnabled = 705,
	cudaErrorHostMemoryAlreadyRegistered = 712,
	cudaErrorHostMemoryNotRegistered = 713,
	cudaErrorLaunchFailure = 719,
	cudaErrorNotSupported = 801,
	cudaErrorUnknown = 999,
} cudaError_t;

const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
/* Returns the last error of this thread (or a kernel fault) and clears it. */
cudaError_t cudaGetLastError(void);
/* Returns the last error without clearing it. */
cudaError_t cudaPeekAtLastError(void);

/* ----------------------------------------------------------------- types */

typedef struct dim3 {
	unsigned int x, y, z;
} dim3;

/* Only the default stream exists; a stream argument must be 0. */
typedef struct uvmemu_stream *cudaStream_t;

enum cudaMemcpyKind {
	cudaMemcpyHostToHost = 0,
	cudaMemcpyHostToDevice = 1,
	cudaMemcpyDeviceToHost = 2,
	cudaMemcpyDeviceToDevice = 3,
	cudaMemcpyDefault = 4,
};

enum cudaMemoryAdvise {
	cudaMemAdviseSetReadMostly = 1,
	cudaMemAdviseUnsetReadMostly = 2,
	cudaMemAdviseSetPreferredLocation = 3,
	cudaMemAdviseUnsetPreferredLocation = 4,
	cudaMemAdviseSetAccessedBy = 5,
	cudaMemAdviseUnsetAccessedBy = 6,
};

/* cudaMallocManaged flags */
#define cudaMemAttachGlobal 0x01u
#define cudaMemAttachHost   0x02u

/* cudaHostAlloc / cudaHostRegister flags */
#define cudaHostAllocDefault	   0x00u
#define cudaHostAllocPortable	   0x01u
#define cudaHostAllocMapped	   0x02u
#define cudaHostAllocWriteCombined 0x04u
#define cudaHostRegisterDefault	   0x00u
#define cudaHostRegisterPortable   0x01u
#define cudaHostRegisterMapped	   0x02u

/* Device ordinal meaning "the CPU" in advice and prefetch calls. */
#define cudaCpuDeviceId ((int)-1)

/* ---------------------------------------------------------------- memory */

/*
 * As in CUDA: cudaFree and cudaFreeHost wait for the device to be idle
 * before they free (and may return an earlier kernel's error);
 * cudaMallocManaged fails with cudaErrorMemoryAllocation when the live
 * managed bytes would exceed what the host can back (RAM + swap, or
 * --host-mem), emulated and native alike; in a child forked from a process
 * using the runtime every call fails with cudaErrorInitializationError.
 */
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
			  int device);
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
				 cudaStream_t stream);

/* ---------------------------------------------------------------- device */

/*
 * The run models --gpus N GPUs (UVMEMU_GPUS, default 1), devices 0..N-1,
 * natively as under emulation. As in CUDA the current device is the calling
 * host thread's: a thread starts at device 0 and cudaSetDevice changes its
 * own. Advice and prefetches name a device 0..N-1 or cudaCpuDeviceId.
 */
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
/* *canAccessPeer = 1 when device may access peerDevice's memory once peer
 * access is enabled: any two different devices of the run; 0 for a device
 * and itself. */
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
/* Lets the current device access peerDevice's memory (flags must be 0);
 * process-wide, until disabled. Enabling it twice returns
 * cudaErrorPeerAccessAlreadyEnabled, disabling it when it is not enabled
 * cudaErrorPeerAccessNotEnabled. */
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* !UVMEMU_REAL_CUDA */

#endif /* UVMEMU_CUDA_H */
