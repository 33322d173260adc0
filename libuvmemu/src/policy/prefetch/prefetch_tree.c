// SPDX-License-Identifier: MIT
/*
 * prefetch_tree.c - the NVIDIA driver's density prefetcher ("tree-based
 * neighborhood prefetcher" in Ganguly et al., ISCA 2019).
 *
 * Source: nvidia-uvm's perf prefetch module (uvm_perf_prefetch.c), as
 * described in the papers behind uvmemu. Per 2 MB vablock, a full binary
 * tree whose leaves are the vablock's blocks (vablock_tree.h: the tail of an
 * allocation gets nvalid leaves rounded up to 2^i, node ranges cut at
 * nvalid). The occupied leaves are the blocks already on the device plus
 * the ones faulted in this batch. For each faulted block that is not
 * resident yet, walk from its leaf to the root; every node whose occupancy
 * is STRICTLY more than the threshold (count * 100 > size * threshold;
 * --prefetch-threshold, 51 in the driver, 50 in the papers) becomes the
 * candidate region, so the largest such ancestor wins, even when a smaller
 * one on the way did not qualify. The union of the regions, less what is
 * occupied, is the prefetch set. The tree is not updated between faulted
 * leaves (the driver computes every region from the same snapshot).
 *
 * Granularity: the leaves are the vablock's blocks. At --page-size 64k they
 * are 64 KB, where the driver's are 4 KB pages after its 64 KB "big page"
 * upgrade; with at most 32 leaves no node's occupancy lies in (50%, 51%], so
 * thresholds 50 and 51 decide alike there. At --page-size 4k they are the
 * driver's 512 pages, and its upgrade comes first: every 64 KB basic block
 * (UVM_BLOCKS_PER_BASIC leaves, cut at nvalid) holding a walked fault is
 * filled, in the tree's occupancy and in the prefetch set, so a fault brings
 * at least its basic block (UVMSmart's 64 KB leaf; seed 000 section II) and
 * the nodes above count the filled pages as occupied. Never crosses the
 * vablock; never goes beyond the allocation (nvalid). The driver leaves
 * advised blocks out of the mask it returns (service.c, prefetchable). Not
 * modelled: the driver's whole-block prefetch when nothing is resident and
 * the destination is the preferred location, and the removal of thrashing
 * pages from the region (thrash.c throttles and pins faults; it does not trim
 * the prefetch).
 */
#include <stdlib.h>

#include "policy.h"
#include "vablock_tree.h"

struct prefetch_tree {
	unsigned threshold; /* percent */
};

static void *tree_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	struct prefetch_tree *t = calloc(1, sizeof(*t));

	if (t)
		t->threshold = (unsigned)uvm_cfg_i(cfg, UVM_OPT_prefetch_threshold);
	return t;
}

static void tree_destroy(void *p)
{
	free(p);
}

/* The largest ancestor of `leaf` more than the threshold occupied, or none. */
static struct uvm_vbmask region_of(const struct prefetch_tree *t, unsigned leaf, unsigned nvalid,
				   struct uvm_vbmask occupied)
{
	unsigned levels = uvm_tree_levels(nvalid);
	struct uvm_vbmask region = uvm_vbmask_zero();

	for (unsigned level = 1; level < levels; level++) {
		struct uvm_vbmask node = uvm_tree_node(leaf, level, nvalid);

		if (uvm_tree_count(node, occupied) * 100 > uvm_tree_size(node) * t->threshold)
			region = node;
	}
	return region;
}

static struct uvm_vbmask tree_pick(void *p, const struct uvm_prefetch_ctx *ctx)
{
	const struct prefetch_tree *t = p;
	unsigned nvalid = uvm_vbmask_count(ctx->valid); /* valid is [0, nvalid) */
	struct uvm_vbmask occupied =
	    uvm_vbmask_and(uvm_vbmask_or(ctx->faulted, ctx->resident), ctx->valid);
	/* A stale fault (block already resident) starts no walk: the driver
	 * skips faults the GPU already has permission for. */
	struct uvm_vbmask walk =
	    uvm_vbmask_andnot(uvm_vbmask_and(ctx->faulted, ctx->valid), ctx->resident);
	struct uvm_vbmask region = uvm_tree_basic(walk, nvalid);
	struct uvm_vbmask tree = uvm_vbmask_or(occupied, region);

	uvm_vbmask_for_each(leaf, walk) {
		if (uvm_vbmask_equal(uvm_vbmask_or(region, occupied), ctx->valid))
			break; /* nothing left to add */
		region = uvm_vbmask_or(region, region_of(t, leaf, nvalid, tree));
	}
	return uvm_vbmask_andnot(uvm_vbmask_and(region, ctx->valid), occupied);
}

const struct uvm_prefetch_ops uvm_prefetch_tree = {
    .name = "tree",
    .help = "the NVIDIA driver's density prefetcher: a tree node over a 2 MB vablock more than "
	    "--prefetch-threshold occupied pulls in its missing blocks",
    .create = tree_create,
    .destroy = tree_destroy,
    .pick = tree_pick,
};
