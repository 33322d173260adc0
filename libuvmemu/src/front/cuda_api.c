// SPDX-License-Identifier: MIT
/*
 * cuda_api.c - the CUDA-named entry points, shared by both runtimes.
 *
 * Each call checks its arguments the way the CUDA runtime does, calls the
 * runtime (rt.h) and turns a negative errno into CUDA's error code, which it
 * also records as the last error. In a child forked from a process that
 * uses the runtime every call but the error queries fails with
 * cudaErrorInitializationError, as CUDA's do once the parent has a context:
 * the child inherited neither the views of managed memory nor the threads
 * (driver, executor workers) that serve them.
 */
#include <errno.h>

#include "device.h"
#include "rt.h"
#include "uvmemu_cuda.h"

static cudaError_t record(cudaError_t e)
{
	uvm_session_set_error(uvm_rt_session(), e);
	return e;
}

static bool no_context(void)
{
	return atomic_load_explicit(&uvm_rt_session()->forked, memory_order_relaxed);
}

static cudaError_t from_errno(int rc)
{
	switch (rc) {
	case 0:
		return cudaSuccess;
	case -ENOMEM:
		return record(cudaErrorMemoryAllocation);
	case -EINVAL:
		return record(cudaErrorInvalidValue);
	case -EFAULT:
		return record(cudaErrorInvalidDevicePointer);
	case -EEXIST:
		return record(cudaErrorHostMemoryAlreadyRegistered);
	case -ENOENT:
		return record(cudaErrorHostMemoryNotRegistered);
	case -ENOTSUP:
		return record(cudaErrorNotSupported);
	case -ENODEV:
		return record(cudaErrorInitializationError);
	default:
		return record(cudaErrorUnknown);
	}
}

cudaError_t cudaGetLastError(void)
{
	return (cudaError_t)atomic_exchange(&uvm_rt_session()->last_error, (int)cudaSuccess);
}

cudaError_t cudaPeekAtLastError(void)
{
	return (cudaError_t)atomic_load(&uvm_rt_session()->last_error);
}

/*
 * A (pointer, size) argument, n > 0: -EINVAL when the range wraps past the
 * end of the address space or leaves the allocation it starts in (or starts
 * before an allocation and runs into it), as CUDA refuses a range outside
 * its allocation; else uvm_rt_span's answer (-ENOENT: plain host memory).
 */
static int span(const void *p, size_t n, struct uvm_range *r)
{
	if (n > UINTPTR_MAX - (uintptr_t)p)
		return -EINVAL;
	return uvm_rt_span(p, n, r);
}

/* Advice and prefetches take managed memory only, all of it in one allocation. */
static bool managed_span(const void *p, size_t n)
{
	struct uvm_range r;

	return span(p, n, &r) == 0 && r.kind == UVM_PTR_MANAGED;
}

/* A child forked from a process using the runtime gets this from every call. */
#define REFUSE_IN_CHILD()                                                                          \
	do {                                                                                       \
		if (no_context())                                                                  \
			return record(cudaErrorInitializationError);                               \
	} while (0)

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	REFUSE_IN_CHILD();
	if (!devPtr || size == 0 || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
		return record(cudaErrorInvalidValue);
	return from_errno(uvm_rt_alloc(UVM_PTR_MANAGED, size, devPtr));
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	REFUSE_IN_CHILD();
	if (!devPtr)
		return record(cudaErrorInvalidValue);
	if (size == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	return from_errno(uvm_rt_alloc(UVM_PTR_DEVICE, size, devPtr));
}

/*
 * CUDA frees memory only once the device is idle, so a kernel still running
 * on it finishes first. Every device's: a managed allocation may be in use
 * by a kernel of any GPU, and its frames go with it. The memory goes even
 * when such a kernel failed; the call then returns the kernel's error, as
 * CUDA's frees may return errors of earlier asynchronous launches. From
 * inside a kernel the wait would wait for itself: that is refused and
 * nothing is freed.
 */
static cudaError_t free_when_idle(enum uvm_ptr_kind kind, void *p)
{
	cudaError_t e = uvm_session_device_idle(uvm_rt_session(), -1);
	cudaError_t f;

	if (e == cudaErrorNotSupported)
		return record(e);
	f = from_errno(uvm_rt_free(kind, p));
	return e != cudaSuccess ? record(e) : f;
}

cudaError_t cudaFree(void *devPtr)
{
	enum uvm_ptr_kind kind;

	REFUSE_IN_CHILD();
	if (!devPtr)
		return cudaSuccess;
	kind = uvm_rt_classify(devPtr);
	if (kind != UVM_PTR_MANAGED && kind != UVM_PTR_DEVICE)
		return record(cudaErrorInvalidValue);
	return free_when_idle(kind, devPtr);
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	REFUSE_IN_CHILD();
	if (!pHost || size == 0 ||
	    (flags & ~(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)))
		return record(cudaErrorInvalidValue);
	return from_errno(uvm_rt_alloc(UVM_PTR_HOST_PINNED, size, pHost));
}

cudaError_t cudaFreeHost(void *ptr)
{
	REFUSE_IN_CHILD();
	if (!ptr)
		return cudaSuccess;
	if (uvm_rt_classify(ptr) != UVM_PTR_HOST_PINNED)
		return record(cudaErrorInvalidValue);
	return free_when_idle(UVM_PTR_HOST_PINNED, ptr);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	struct uvm_range r = {.kind = UVM_PTR_OTHER};
	int rc;

	REFUSE_IN_CHILD();
	if (!ptr || size == 0 || (flags & ~(cudaHostRegisterPortable | cudaHostRegisterMapped)))
		return record(cudaErrorInvalidValue);
	/* Plain host memory only: page-locked memory is registered already,
	 * in part or whole, and managed or device memory is not the host's. */
	rc = span(ptr, size, &r);
	if (r.kind == UVM_PTR_HOST_REGISTERED || r.kind == UVM_PTR_HOST_PINNED)
		return record(cudaErrorHostMemoryAlreadyRegistered);
	if (rc != -ENOENT)
		return record(cudaErrorInvalidValue);
	return from_errno(uvm_rt_host_register(ptr, size));
}

cudaError_t cudaHostUnregister(void *ptr)
{
	REFUSE_IN_CHILD();
	if (!ptr)
		return record(cudaErrorInvalidValue);
	return from_errno(uvm_rt_host_unregister(ptr));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
	enum uvm_ptr_kind kind;

	REFUSE_IN_CHILD();
	if (!pDevice || !pHost || flags != 0)
		return record(cudaErrorInvalidValue);
	kind = uvm_rt_classify(pHost);
	if (kind != UVM_PTR_HOST_PINNED && kind != UVM_PTR_HOST_REGISTERED)
		return record(cudaErrorInvalidValue);
	/* Zero-copy host memory has one address on both sides. */
	*pDevice = pHost;
	return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	struct uvm_range r;

	REFUSE_IN_CHILD();
	if ((unsigned)kind > cudaMemcpyDefault)
		return record(cudaErrorInvalidMemcpyDirection);
	if (count == 0)
		return cudaSuccess;
	if (!dst || !src)
		return record(cudaErrorInvalidValue);
	if (span(dst, count, &r) == -EINVAL || span(src, count, &r) == -EINVAL)
		return record(cudaErrorInvalidValue);
	/* On the current device's default stream: after the kernels launched
	 * on it before. */
	uvm_session_set_error(uvm_rt_session(),
			      uvm_session_device_idle(uvm_rt_session(), uvm_front_device()));
	return from_errno(uvm_rt_memcpy(dst, src, count, kind));
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	struct uvm_range r;

	REFUSE_IN_CHILD();
	if (count == 0)
		return cudaSuccess;
	if (!devPtr || span(devPtr, count, &r) == -EINVAL)
		return record(cudaErrorInvalidValue);
	return from_errno(uvm_rt_memset(devPtr, value, count));
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
	REFUSE_IN_CHILD();
	if (!free || !total)
		return record(cudaErrorInvalidValue);
	uvm_rt_mem_info(free, total);
	return cudaSuccess;
}

int uvm_front_device_count(void)
{
	return (int)uvm_cfg_i(&uvm_rt_session()->cfg, UVM_OPT_gpus);
}

static bool valid_device(int device)
{
	return device >= 0 && device < uvm_front_device_count();
}

/* A destination of advice or a prefetch: a device of the run, or the CPU. */
static bool valid_location(int device)
{
	return device == cudaCpuDeviceId || valid_device(device);
}

static uint64_t peer_bit(int device, int peer)
{
	return 1ull << (device * UVM_GPUS_MAX + peer);
}

bool uvm_front_peer_enabled(int device, int peer)
{
	if (!valid_device(device) || !valid_device(peer) || device == peer)
		return false;
	return atomic_load(&uvm_rt_session()->peer_access) & peer_bit(device, peer);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
			  int device)
{
	REFUSE_IN_CHILD();
	if (!devPtr || count == 0 || advice < cudaMemAdviseSetReadMostly ||
	    advice > cudaMemAdviseUnsetAccessedBy)
		return record(cudaErrorInvalidValue);
	/* Read-mostly ignores its device, as CUDA's does; the others name one. */
	if (advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly &&
	    !valid_location(device))
		return record(cudaErrorInvalidDevice);
	if (!managed_span(devPtr, count))
		return record(cudaErrorInvalidValue);
	return from_errno(uvm_rt_advise(devPtr, count, advice, device));
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
				 cudaStream_t stream)
{
	REFUSE_IN_CHILD();
	if (!devPtr || count == 0 || stream != NULL)
		return record(cudaErrorInvalidValue);
	if (!valid_location(dstDevice))
		return record(cudaErrorInvalidDevice);
	if (!managed_span(devPtr, count))
		return record(cudaErrorInvalidValue);
	return from_errno(uvm_rt_prefetch(devPtr, count, dstDevice));
}

cudaError_t cudaDeviceSynchronize(void)
{
	cudaError_t e;
	int rc;

	REFUSE_IN_CHILD();
	/* The current device's stream only, as CUDA's does. */
	e = uvm_session_device_idle(uvm_rt_session(), uvm_front_device());
	rc = uvm_rt_synchronize();
	if (e != cudaSuccess)
		return record(e);
	return from_errno(rc);
}

cudaError_t cudaGetDeviceCount(int *count)
{
	REFUSE_IN_CHILD();
	if (!count)
		return record(cudaErrorInvalidValue);
	*count = uvm_front_device_count();
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
	REFUSE_IN_CHILD();
	if (!valid_device(device))
		return record(cudaErrorInvalidDevice);
	uvm_front_set_device(device);
	return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
	REFUSE_IN_CHILD();
	if (!device)
		return record(cudaErrorInvalidValue);
	*device = uvm_front_device();
	return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
	REFUSE_IN_CHILD();
	if (!canAccessPeer)
		return record(cudaErrorInvalidValue);
	if (!valid_device(device) || !valid_device(peerDevice))
		return record(cudaErrorInvalidDevice);
	/* Every pair of the run's GPUs is linked (--peer-link). */
	*canAccessPeer = device != peerDevice;
	return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
	uint64_t bit;

	REFUSE_IN_CHILD();
	if (flags != 0)
		return record(cudaErrorInvalidValue);
	if (!valid_device(peerDevice) || peerDevice == uvm_front_device())
		return record(cudaErrorInvalidDevice);
	bit = peer_bit(uvm_front_device(), peerDevice);
	if (atomic_fetch_or(&uvm_rt_session()->peer_access, bit) & bit)
		return record(cudaErrorPeerAccessAlreadyEnabled);
	return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
	uint64_t bit;

	REFUSE_IN_CHILD();
	if (!valid_device(peerDevice) || peerDevice == uvm_front_device())
		return record(cudaErrorInvalidDevice);
	bit = peer_bit(uvm_front_device(), peerDevice);
	if (!(atomic_fetch_and(&uvm_rt_session()->peer_access, ~bit) & bit))
		return record(cudaErrorPeerAccessNotEnabled);
	return cudaSuccess;
}
