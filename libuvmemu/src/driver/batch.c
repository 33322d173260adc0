// SPDX-License-Identifier: MIT
/* batch.c - fetch fault messages and preprocess them into a batch. */
#include "driver_int.h"
#include "timing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* When the earliest deferred fault is due (UINT64_MAX: none deferred). */
uint64_t uvm_batch_next_deferred(const struct uvm_driver *d)
{
	uint64_t due = UINT64_MAX;

	for (size_t i = 0; i < d->ndeferred; i++)
		if (d->deferred[i].not_before < due)
			due = d->deferred[i].not_before;
	return due;
}

/* Faults deferred by the previous batch come first, then new messages until
 * the queue is empty or the batch is full. Returns the number of faults. */
int uvm_batch_fetch(struct uvm_driver *d)
{
	const struct uvm_arena *a = d->dep.arena;
	struct uffd_msg msg[64];
	uint64_t now = uvm_now_ns();
	size_t n = 0, kept = 0, fresh;
	const uint64_t gpu_before = d->st.gpu_faults; /* new GPU messages count here */

	/* Deferred faults that are due come first; throttled ones wait on. */
	for (size_t i = 0; i < d->ndeferred; i++) {
		if (d->deferred[i].not_before <= now) {
			d->fault[n] = d->deferred[i];
			d->fault[n].not_before = 0;
			/* The model clock: it keeps the stamp of its first fetch,
			 * and the model's time is past its hold (a host fault
			 * waited that long: the host's clock goes on from it). */
			if (d->dep.gpu && d->fault[n].gpu && d->nstamped < d->max_batch)
				d->stamped[d->nstamped++] =
				    (struct uvm_stamped){d->fault[n].page, d->fault[n].stamp};
			if (d->fault[n].hold > d->model_floor)
				d->model_floor = d->fault[n].hold;
			if (d->dep.gpu && !d->fault[n].gpu && d->fault[n].hold > d->host.at)
				d->host.at = d->fault[n].hold;
			n++;
		} else {
			d->deferred[kept++] = d->deferred[i];
		}
	}
	d->ndeferred = kept;
	fresh = n; /* messages from here on */
	/* Room stays for this batch's faults to be deferred next to those
	 * still waiting. */
	while (n + d->ndeferred < d->max_batch) {
		size_t want = d->max_batch - n - d->ndeferred;
		ssize_t got;

		if (want > sizeof(msg) / sizeof(msg[0]))
			want = sizeof(msg) / sizeof(msg[0]);
		got = read(d->dep.uffd->fd, msg, want * sizeof(msg[0]));
		if (got < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			uvm_bug("reading fault messages", 0, errno);
		}
		for (size_t i = 0; i < (size_t)got / sizeof(msg[0]); i++) {
			uint64_t addr = msg[i].arg.pagefault.address & ~(UVM_PAGE_SIZE - 1);
			uint64_t flags = msg[i].arg.pagefault.flags, off;
			struct uvm_fault *f = &d->fault[n];
			int dev;

			if (msg[i].event != UFFD_EVENT_PAGEFAULT)
				continue; /* no other events are enabled */
			memset(f, 0, sizeof(*f));
			dev = uvm_arena_gpu_of(a, addr, &off);
			if (dev >= 0) {
				f->gpu = 1;
				f->dev = (uint8_t)dev;
				f->page = off;
				d->st.gpu_faults++;
				/* Its thread sleeps in the fault: its CPU time now is
				 * its warp's issue time. */
				if (d->dep.gpu && d->nstamped < d->max_batch)
					d->stamped[d->nstamped++] = (struct uvm_stamped){
					    f->page, uvm_gpu_stamp(d->dep.gpu,
								   msg[i].arg.pagefault.feat.ptid)};
			} else {
				f->page = addr - a->host;
				d->st.cpu_faults++;
				/* The host's time it faulted at, near enough. */
				if (d->dep.gpu && !d->host.at) {
					uint64_t h = uvm_gpu_host_now(d->dep.gpu);

					d->host.at = h ? h : 1;
				}
			}
			f->write =
			    (flags & (UFFD_PAGEFAULT_FLAG_WRITE | UFFD_PAGEFAULT_FLAG_WP)) != 0;
			f->minor = (flags & UFFD_PAGEFAULT_FLAG_MINOR) != 0;
			f->tid = msg[i].arg.pagefault.feat.ptid;
			f->count = 1;
			n++;
		}
		if ((size_t)got < want * sizeof(msg[0]))
			break; /* the queue is empty */
	}
	/* CTAs are blocked in these faults now: the executor may start spare
	 * slots instead of waiting for a stalled CTA to finish. */
	if (d->st.gpu_faults != gpu_before)
		uvm_session_gpu_stalled(d->dep.session);
	/* The messages read now came through the capture in use. */
	if (d->dep.uffd->sig)
		d->st.signal_faults += n - fresh;
	else if (d->dep.uffd->user_mode_only)
		d->st.user_mode_faults += n - fresh;
	d->nfault = n;
	return (int)n;
}

/*
 * Order: vablock, then GPU before CPU (the device side is serviced first and
 * a CPU fault on a block the GPU also wants waits a batch), then the GPU in
 * order (--gpus: each GPU's faults of the vablock together), then page, then
 * writes before reads so that the survivor of a duplicate is the most
 * intrusive access.
 */
static int cmp_fault(const void *pa, const void *pb)
{
	const struct uvm_fault *a = pa, *b = pb;
	uint64_t va = a->page >> UVM_VABLOCK_SHIFT, vb = b->page >> UVM_VABLOCK_SHIFT;

	if (va != vb)
		return va < vb ? -1 : 1;
	if (a->gpu != b->gpu)
		return a->gpu ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->page != b->page)
		return a->page < b->page ? -1 : 1;
	return (int)b->write - (int)a->write;
}

void uvm_batch_preprocess(struct uvm_driver *d)
{
	size_t out = 0;

	qsort(d->fault, d->nfault, sizeof(*d->fault), cmp_fault);
	for (size_t i = 0; i < d->nfault; i++) {
		struct uvm_fault *prev = out ? &d->fault[out - 1] : NULL;

		if (prev && prev->page == d->fault[i].page && prev->gpu == d->fault[i].gpu &&
		    prev->dev == d->fault[i].dev) {
			prev->count += d->fault[i].count;
			prev->minor |= d->fault[i].minor;
			d->st.duplicate_faults++;
			d->fault[i].outcome = UVM_OUT_DUPLICATE;
			uvm_driver_trace_fault(d, &d->fault[i]);
			continue;
		}
		d->fault[out++] = d->fault[i];
	}
	d->nfault = out;
}

size_t uvm_batch_take(struct uvm_driver *d)
{
	uint64_t t = uvm_now_ns();

	uvm_assert_driver_thread(d);
	if (uvm_batch_fetch(d) == 0)
		return 0;
	/* Pairs with the lock around the metadata of new allocations. */
	uvm_mutex_lock(&d->dep.arena->lock);
	uvm_mutex_unlock(&d->dep.arena->lock);
	d->st.ns.fetch += uvm_elapsed_ns(t);
	UVM_TIMED(d->st.ns.preprocess, uvm_batch_preprocess(d));
	return d->nfault;
}

void uvm_batch_add_wake(struct uvm_driver *d, uintptr_t addr, uint64_t len)
{
	struct uvm_wake *last = d->nwake ? &d->wake[d->nwake - 1] : NULL;

	if (last && last->addr + last->len == addr) {
		last->len += len;
		return;
	}
	if (last && last->addr == addr && last->len >= len)
		return;
	if (d->nwake == d->capwake) {
		size_t cap = d->capwake ? 2 * d->capwake : 64;
		struct uvm_wake *w = realloc(d->wake, cap * sizeof(*w));

		if (!w)
			uvm_bug("growing the wake list", 0, ENOMEM);
		d->wake = w;
		d->capwake = cap;
	}
	d->wake[d->nwake++] = (struct uvm_wake){addr, len};
}
