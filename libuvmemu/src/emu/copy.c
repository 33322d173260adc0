// SPDX-License-Identifier: MIT
/* copy.c - explicit copies and fills (cudaMemcpy, cudaMemset), device
 * memory info. */
#include "emu_int.h"

#include <string.h>
#include <unistd.h>

/* Which side an explicit copy reaches p from: cudaMemcpy's kind says, and
 * cudaMemcpyDefault infers it from the allocation (device memory is on the
 * device; everything else, managed memory included, is read where it is
 * requested from: the host). */
static bool device_side(struct uvm_emu *e, const void *p, enum cudaMemcpyKind kind, bool is_dst)
{
	switch (kind) {
	case cudaMemcpyHostToDevice:
		return is_dst;
	case cudaMemcpyDeviceToHost:
		return !is_dst;
	case cudaMemcpyDeviceToDevice:
		return true;
	case cudaMemcpyHostToHost:
		return false;
	default:
		return uvm_emu_classify(e, p) == UVM_PTR_DEVICE;
	}
}

/* A managed pointer reached from the device side goes through the device
 * view, so the copy takes far faults like a copy engine on the GPU would. */
static void *side_addr(struct uvm_emu *e, const void *p, bool device)
{
	struct uvmemu_view_map m;

	if (!device)
		return (void *)p;
	uvm_emu_view_map(e, &m);
	return uvmemu_view_to_device(&m, p);
}

int uvm_emu_memcpy(struct uvm_emu *e, void *dst, const void *src, size_t n,
		   enum cudaMemcpyKind kind)
{
	bool ddev = device_side(e, dst, kind, true), sdev = device_side(e, src, kind, false);
	struct uvm_stats delta = {0};
	/* The model clock: the copy's real time is not the host's, its
	 * transfer on the link is. */
	uint64_t host = e->gpu ? uvm_gpu_host_pause(e->gpu) : 0;

	memmove(side_addr(e, dst, ddev), side_addr(e, src, sdev), n);
	if (e->gpu)
		uvm_gpu_host_resume(
		    e->gpu, ddev != sdev
				? uvm_model_transfer(&e->model, ddev ? UVM_H2D : UVM_D2H, n, host)
				: host);
	if (ddev != sdev) {
		enum uvm_dir dir = ddev ? UVM_H2D : UVM_D2H;

		/* The real clock: the caller returns when the modelled transfer
		 * would have. */
		if (!e->gpu)
			uvm_model_wait_until(uvm_model_transfer(&e->model, dir, n, uvm_now_ns()));
		if (ddev)
			delta.memcpy_bytes_h2d = n;
		else
			delta.memcpy_bytes_d2h = n;
		uvm_driver_account(e->driver, &delta);
	}
	return 0;
}

int uvm_emu_memset(struct uvm_emu *e, void *p, int value, size_t n)
{
	/* cudaMemset runs on the device: managed memory fills through the
	 * device view (first touches zero-fill there, no transfer). Under the
	 * model clock its real time is not the host's. */
	uint64_t host = e->gpu ? uvm_gpu_host_pause(e->gpu) : 0;

	memset(side_addr(e, p, true), value, n);
	if (e->gpu)
		uvm_gpu_host_resume(e->gpu, host);
	return 0;
}

void uvm_emu_mem_info(struct uvm_emu *e, size_t *free_bytes, size_t *total_bytes)
{
	struct uvm_pool p;

	/* The calling thread's current device's memory, as CUDA reports it. */
	uvm_pool_snapshot(&e->pool[uvm_emu_current_gpu(e)], &p);
	if (!p.resolved || p.capacity == 0) {
		long page = sysconf(_SC_PAGESIZE);

		*total_bytes = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)page;
		*free_bytes = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)page;
		return;
	}
	*total_bytes = (size_t)(p.capacity << UVM_BLOCK_SHIFT);
	*free_bytes = p.used + p.pinned >= p.capacity
			  ? 0
			  : (size_t)((p.capacity - p.used - p.pinned) << UVM_BLOCK_SHIFT);
}
