/* SPDX-License-Identifier: MIT */
/*
 * vablock_tree.h - the full binary tree over a vablock's blocks that the
 * tree prefetcher and tree eviction share.
 *
 * The leaves are the vablock's nvalid blocks (a whole vablock has
 * UVM_BLOCKS_PER_VABLOCK; the tail of an allocation fewer), so the tree has
 * nvalid rounded up to 2^i leaves and i + 1 levels, level 0 being the leaves.
 * The node at level k over leaf j covers leaves [j & ~(2^k - 1), that + 2^k),
 * cut at nvalid: the NVIDIA driver cuts a node's range at the block's leaf
 * count too (uvm_perf_tree_iter_leaf_range), so a node's size counts only
 * leaves that exist, and nothing outside the allocation is ever part of a
 * region. A node's occupancy is the number of its leaves that are set in a
 * mask (the caller decides what counts as occupied). Nodes are masks over the
 * vablock (vbmask.h) holding one run, so a node is also the run
 * [first, first + count).
 *
 * The leaves are blocks, the migration unit: 64 KB, or 4 KB pages under
 * --page-size 4k (512 leaves, as in the driver). The nodes at
 * UVM_TREE_BASIC_LEVEL are then the 64 KB basic blocks, the policies'
 * smallest region whatever the unit (level 0 at 64 KB).
 */
#ifndef UVM_VABLOCK_TREE_H
#define UVM_VABLOCK_TREE_H

#include "policy.h"

/* Levels of the tree over nvalid leaves (1 for a single leaf, 6 for 32). */
static inline unsigned uvm_tree_levels(unsigned nvalid)
{
	unsigned levels = 1;

	while ((1u << (levels - 1)) < nvalid)
		levels++;
	return levels;
}

/* The leaves of the node at `level` above `leaf`, cut at nvalid. */
static inline struct uvm_vbmask uvm_tree_node(unsigned leaf, unsigned level, unsigned nvalid)
{
	unsigned lo = leaf & ~((1u << level) - 1), hi = lo + (1u << level);

	return uvm_vbmask_run(lo, hi > nvalid ? nvalid : hi);
}

#define UVM_TREE_BASIC_LEVEL (UVM_BASIC_SHIFT - UVM_BLOCK_SHIFT)

/* The basic blocks holding `leaves`, cut at nvalid (the driver's 64 KB
 * big-page upgrade; `leaves` itself at 64 KB). */
static inline struct uvm_vbmask uvm_tree_basic(struct uvm_vbmask leaves, unsigned nvalid)
{
	struct uvm_vbmask m = uvm_vbmask_zero();

	if (UVM_TREE_BASIC_LEVEL == 0)
		return leaves;
	uvm_vbmask_for_each(leaf, leaves)
		m = uvm_vbmask_or(m, uvm_tree_node(leaf, UVM_TREE_BASIC_LEVEL, nvalid));
	return m;
}

static inline unsigned uvm_tree_count(struct uvm_vbmask node, struct uvm_vbmask occupied)
{
	return uvm_vbmask_count(uvm_vbmask_and(node, occupied));
}

static inline unsigned uvm_tree_size(struct uvm_vbmask node)
{
	return uvm_vbmask_count(node);
}

#endif
