// SPDX-License-Identifier: MIT
/*
 * views_check.c - residency against the page tables (--check).
 *
 * Counts and thrashing depend on residency being exact: a CPU access to a
 * DEVICE block must fault, and so must a GPU access to a HOST block. That
 * holds only if the view a block is not resident on has no page-table
 * entries for it, which /proc/self/pagemap shows (bit 63: present). Only
 * "must not be mapped" is checked: a mapped page may legitimately vanish
 * (reclaim), but one that should fault and does not is a bug.
 */
#include "views_check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define PAGES_PER_BLOCK	  (UVM_BLOCK_SIZE / UVM_PAGE_SIZE)
#define PAGES_PER_VABLOCK (UVM_VABLOCK_SIZE / UVM_PAGE_SIZE)
#define PRESENT		  (1ull << 63)

/* Which views must have no entries for a block in each state. */
static void forbidden(const struct uvm_backend_ops *be, const struct uvm_block *blk, bool *host,
		      bool *dev)
{
	*host = *dev = false;
	switch (blk->state) {
	case UVM_EMPTY:
		*host = *dev = true;
		break;
	case UVM_HOST:
		*dev = true;
		break;
	case UVM_DEVICE:
		*host = true;
		break;
	case UVM_REMOTE:
		*dev = !(blk->flags & UVM_BF_DEV_MAPPED);
		/* A copy on the device: the host view stays unmapped so that
		 * a CPU access drops it (writing back) first. */
		*host = !be->coherent_remote;
		break;
	default:
		break;
	}
}

static int read_entries(int fd, uintptr_t addr, uint64_t *e)
{
	ssize_t want = PAGES_PER_VABLOCK * sizeof(*e);

	return pread(fd, e, (size_t)want, (off_t)(addr / UVM_PAGE_SIZE * sizeof(*e))) == want
		   ? 0
		   : -EIO;
}

/* Vablock v's pages on GPU g's device view (and the host view's, read in
 * host) against what each block's state allows. */
static int check_gpu(int fd, const struct uvm_arena *a, const struct uvm_space *s,
		     const struct uvm_backend_ops *be, size_t v, unsigned g, const uint64_t *host,
		     uint64_t *dev, char *err, size_t errlen)
{
	size_t first = uvm_vablock_first(v);

	if (read_entries(fd, uvm_dev_addr_g(a, g, (uint64_t)v << UVM_VABLOCK_SHIFT), dev)) {
		snprintf(err, errlen, "reading /proc/self/pagemap failed");
		return -EINVAL;
	}
	for (size_t i = 0; i < s->vablock[v].nvalid; i++) {
		const struct uvm_block *blk = &s->block[first + i];
		bool no_host, no_dev;

		forbidden(be, blk, &no_host, &no_dev);
		/* Another GPU's copy (unless this GPU maps it over the peer
		 * link), or a remote mapping on another GPU's view. */
		if ((blk->state == UVM_DEVICE || blk->state == UVM_DUPLICATED) &&
		    !uvm_block_on_gpu(blk, g) && !uvm_block_peer_mapped(blk, g))
			no_dev = true;
		if (blk->state == UVM_REMOTE && blk->gpu != g)
			no_dev = true;
		for (size_t p = i * PAGES_PER_BLOCK; p < (i + 1) * PAGES_PER_BLOCK; p++) {
			bool on_host = no_host && (host[p] & PRESENT);
			char gpu[32] = "";

			if (!on_host && !(no_dev && (dev[p] & PRESENT)))
				continue;
			if (!on_host && a->ngpus > 1)
				snprintf(gpu, sizeof(gpu), " of GPU %u", g);
			snprintf(err, errlen,
				 "block %zu is %s but its page %zu is mapped on the %s view%s",
				 first + i, uvm_state_name(blk->state),
				 (size_t)(p % PAGES_PER_BLOCK), on_host ? "host" : "device", gpu);
			return -EINVAL;
		}
	}
	return 0;
}

int uvm_views_check(const struct uvm_arena *a, const struct uvm_space *s,
		    const struct uvm_backend_ops *be, char *err, size_t errlen)
{
	uint64_t host[PAGES_PER_VABLOCK], dev[PAGES_PER_VABLOCK];
	int fd, rc = 0;

	/* The mprotect capture keeps PTEs under PROT_NONE: pagemap cannot tell
	 * a closed block from an open one (the protections are the check). */
	if (a->closed_views)
		return 0;
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "/proc/self/pagemap: %m");
		return -EINVAL;
	}
	for (size_t v = 0; v < s->used_vablocks && !rc; v++) {
		if (!s->vablock[v].nvalid)
			continue;
		if (read_entries(fd, uvm_host_addr(a, (uint64_t)v << UVM_VABLOCK_SHIFT), host)) {
			snprintf(err, errlen, "reading /proc/self/pagemap failed");
			rc = -EINVAL;
			break;
		}
		for (unsigned g = 0; g < a->ngpus && !rc; g++)
			rc = check_gpu(fd, a, s, be, v, g, host, dev, err, errlen);
	}
	close(fd);
	return rc;
}
