// SPDX-License-Identifier: MIT
/* backend.c - choosing a backend, and the host-view operations both share. */
#include "backend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "bug.h"
#include "timing.h"
#include "space.h"

const struct uvm_backend_ops *uvm_backend_choose(const char *name, const struct uvm_uffd *u,
						 int device_node, char *why, size_t whylen)
{
	bool want_remap = strcmp(name, "remap") == 0, want_copy = strcmp(name, "copy") == 0;

	/* The mprotect capture's device view maps the memfd: remap only. */
	if (u->sig) {
		if (want_copy || device_node >= 0) {
			snprintf(why, whylen,
				 "--fault-capture mprotect needs the remap backend (one set of "
				 "frames), so %s cannot be used with it",
				 want_copy ? "--backend copy" : "--device-node");
			return NULL;
		}
		snprintf(why, whylen, "the mprotect capture maps one set of frames");
		return &uvm_backend_remap;
	}
	if (want_copy) {
		snprintf(why, whylen, "--backend copy");
		return &uvm_backend_copy;
	}
	/* Shared frames cannot live on a node of the device's own: the copy
	 * backend's private device frames can. */
	if (device_node >= 0) {
		if (want_remap) {
			snprintf(why, whylen,
				 "--backend remap keeps one set of frames, so --device-node %d "
				 "cannot place device frames apart; use --backend copy or auto",
				 device_node);
			return NULL;
		}
		snprintf(why, whylen, "--device-node %d puts device frames on a node of their own",
			 device_node);
		return &uvm_backend_copy;
	}
	/* Read-mostly duplication write-protects both views of shared memory. */
	if (!u->shmem_wp) {
		if (want_remap) {
			snprintf(why, whylen,
				 "--backend remap needs userfaultfd write-protect on shared memory "
				 "(Linux 5.19); use --backend copy or auto");
			return NULL;
		}
		snprintf(why, whylen,
			 "no userfaultfd write-protect on shared memory (Linux 5.19) for remap");
		return &uvm_backend_copy;
	}
	snprintf(why, whylen, "%s", want_remap ? "--backend remap" : "the kernel allows it");
	return &uvm_backend_remap;
}

/* Block b's address in the host view. */
static uintptr_t host(const struct uvm_backend *be, size_t b)
{
	return uvm_host_addr(be->arena, uvm_be_off(b));
}

void uvm_be_host_fill(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	UVM_TIMED(be->st->ns.map,
		  rc = uvm_uffd_zeropage(be->uffd, host(be, first), uvm_be_off(n), be->wake));
	if (rc)
		uvm_bug("populating fresh host memory", first, rc);
}

void uvm_be_host_map(struct uvm_backend *be, size_t first, size_t n, unsigned flags)
{
	uintptr_t addr = host(be, first);
	uint64_t t = uvm_now_ns(), len = uvm_be_off(n);
	int rc;

	/* An eviction's device unmap may still be in flight: the host pages
	 * map once the device copy is gone. */
	uvm_tracker_settle(be->tracker, first, n);
	rc = uvm_uffd_continue(be->uffd, addr, len, flags);
	/* Some pages are mapped already (a HOST block the CPU touched in part):
	 * map the rest one by one. */
	if (rc == -EEXIST) {
		rc = 0;
		for (uint64_t p = 0; p < len && !rc; p += UVM_PAGE_SIZE) {
			rc = uvm_uffd_continue(be->uffd, addr + p, UVM_PAGE_SIZE, flags);
			if (rc == -EEXIST)
				rc = 0;
		}
	}
	if (rc)
		uvm_bug("mapping host pages", first, rc);
	be->st->ns.map += uvm_elapsed_ns(t);
}

void uvm_be_zap_host(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	if (be->zapped & UVM_VIEW_HOST)
		return;
	UVM_TIMED(be->st->ns.unmap, rc = uvm_uffd_zap(be->uffd, host(be, first), uvm_be_off(n)));
	if (rc)
		uvm_bug("unmapping blocks from the host view", first, rc);
}

void uvm_be_zap_runs(struct uvm_backend *be, unsigned view, const size_t *first, const size_t *n,
		     size_t nruns)
{
	struct iovec iov[UVM_ZAP_RUNS];
	int rc;

	if (nruns > UVM_ZAP_RUNS)
		uvm_bug("too many runs for one batched zap", first[0], E2BIG);
	for (size_t i = 0; i < nruns; i++) {
		uint64_t off = uvm_be_off(first[i]);

		iov[i].iov_base =
		    (void *)(view == UVM_VIEW_HOST ? uvm_host_addr(be->arena, off)
						   : uvm_dev_addr_g(be->arena, be->gpu, off));
		iov[i].iov_len = uvm_be_off(n[i]);
	}
	if (view == UVM_VIEW_HOST)
		UVM_TIMED(be->st->ns.unmap, rc = uvm_uffd_zapv(be->uffd, iov, nruns));
	else
		UVM_GPU_UNMAP_TIMED(be, rc = uvm_uffd_zapv(be->uffd, iov, nruns));
	if (rc)
		uvm_bug(view == UVM_VIEW_HOST ? "unmapping runs from the host view"
						     : "unmapping runs from the device view",
			       first[0], rc);
}

void uvm_be_protect_host(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	UVM_TIMED(be->st->ns.unmap,
		  rc = uvm_uffd_protect(be->uffd, host(be, first), uvm_be_off(n)));
	if (rc)
		uvm_bug("write-protecting host pages", first, rc);
}

void uvm_be_unprotect_host(struct uvm_backend *be, size_t first, size_t n)
{
	int rc;

	UVM_TIMED(be->st->ns.unmap,
		  rc = uvm_uffd_unprotect(be->uffd, host(be, first), uvm_be_off(n), 0));
	if (rc)
		uvm_bug("lifting write protection from host pages", first, rc);
}
