// SPDX-License-Identifier: MIT
/*
 * advice.c - cudaMemAdvise, cudaMemPrefetchAsync and the wait for them.
 *
 * Advice is per 64 KB block (the unit of residency), over every block the
 * byte range touches, and acts at the next fault of a block (setting a
 * preferred location migrates nothing by itself, as in the real driver;
 * accessed-by with several GPUs maps the data where it is at once:
 * driver/ops_peer.c). Accessed-by for the CPU changes nothing here: the CPU
 * can always reach managed memory. A preferred GPU and accessed-by GPUs are
 * kept per block (space.h): each names its own device. Prefetches are
 * queued to the driver and run between batches; cudaDeviceSynchronize waits
 * for them and for their modelled transfer time.
 */
#include <errno.h>

#include "emu_int.h"

/* The arena offset of [p, p + n) if it lies in one managed allocation. */
static int managed_range(struct uvm_emu *e, const void *p, size_t n, uint64_t *off)
{
	uintptr_t a = (uintptr_t)uvm_emu_host_ptr(e, p);
	struct uvm_range r;

	if (uvm_ranges_find(&e->ranges, a, &r) || n > r.base + r.size - a)
		return -EINVAL;
	*off = a - e->arena.host;
	return 0;
}

int uvm_emu_advise(struct uvm_emu *e, const void *p, size_t n, enum cudaMemoryAdvise advice,
		   int device)
{
	bool gpu = device != cudaCpuDeviceId;
	uint8_t set = 0, clear = 0;
	int names = -1; /* the GPU the advice names (read-mostly names none) */
	uint64_t off;

	if (managed_range(e, p, n, &off))
		return -EINVAL;
	switch (advice) {
	case cudaMemAdviseSetReadMostly:
		set = UVM_ADV_READ_MOSTLY;
		break;
	case cudaMemAdviseUnsetReadMostly:
		clear = UVM_ADV_READ_MOSTLY;
		break;
	case cudaMemAdviseSetPreferredLocation:
		names = gpu ? device : -1;
		set = gpu ? UVM_ADV_PREFER_DEVICE : UVM_ADV_PREFER_HOST;
		clear = gpu ? UVM_ADV_PREFER_HOST : UVM_ADV_PREFER_DEVICE;
		break;
	case cudaMemAdviseUnsetPreferredLocation:
		clear = UVM_ADV_PREFER_HOST | UVM_ADV_PREFER_DEVICE;
		break;
	case cudaMemAdviseSetAccessedBy:
		names = gpu ? device : -1;
		set = gpu ? UVM_ADV_ACCESSED_BY : 0;
		break;
	case cudaMemAdviseUnsetAccessedBy:
		names = gpu ? device : -1;
		clear = gpu ? UVM_ADV_ACCESSED_BY : 0;
		break;
	default:
		return -EINVAL;
	}
	return uvm_driver_advise(e->driver, off, n, set, clear, names);
}

int uvm_emu_prefetch(struct uvm_emu *e, const void *p, size_t n, int device)
{
	uint64_t off;

	if (managed_range(e, p, n, &off))
		return -EINVAL;
	return uvm_driver_prefetch(e->driver, off, n, device == cudaCpuDeviceId ? -1 : device,
				   uvm_emu_current_gpu(e));
}

int uvm_emu_synchronize(struct uvm_emu *e)
{
	uvm_driver_sync(e->driver);
	return 0;
}
