// SPDX-License-Identifier: MIT
/*
 * evict_opt.c - Belady's optimal replacement, from a recorded access trace.
 *
 * Source: Belady's MIN (evict what is used again furthest in the future),
 * the oracle the papers compare against; the compiler-assisted paper's RDM
 * (SC 2019) is its kernel-granular form, reuse distance counted in kernel
 * launches, which is the granularity here. Granularity: one 64 KB block;
 * under --page-size 4k its basic block (evict_util.h), whose pages share the
 * trace's row.
 *
 * The future comes from an earlier run of the same deterministic program
 * (--opt-trace FILE, written by --record-trace FILE or --trace DIR as
 * DIR/accesses.csv): CSV with the header
 *     launch,kernel,alloc,block,accesses,source
 * and one row per (kernel launch, 64 KB block) the launch touched; `block`
 * is the block's arena index (arena offset >> 16, at either migration unit:
 * trace.h), which a deterministic program reproduces. Lines starting with '#' and
 * blank lines are skipped; the kernel name may be empty or contain commas
 * (the last four fields are taken from the right).
 *
 * The rule. At launch L (ctx->launch), the next use of block b is the
 * smallest launch index >= L whose rows include b: a block the current
 * launch uses counts as used now, the nearest possible; a block no later
 * launch uses is never used again, infinitely far. The victim is the
 * block, among those that may be evicted under the context, with the
 * furthest next use; ties go in LRU order (residency time, refreshed when
 * touched, as lru64k), and the scan stops at the first block never used
 * again. Per block the trace keeps its launches in ascending order (a CSR
 * over block indices), so a next use is one binary search.
 *
 * --evict opt without --opt-trace, or with a file that is missing or not
 * such a trace, fails at start with a message naming the option, the file
 * and the line (its create). The trace is read by opt_trace.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evict_util.h"
#include "block_lru.h"
#include "opt_trace.h"

#define NEVER UINT64_MAX

struct opt {
	struct uvm_block_lru lru; /* first: the order's observers take a struct opt */
	struct uvm_opt_trace t;	  /* the launches that use each block */
};

static void opt_destroy(void *p)
{
	struct opt *o = p;

	uvm_block_lru_fini(&o->lru);
	uvm_opt_trace_fini(&o->t);
	free(o);
}

static void *opt_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			size_t errlen)
{
	const char *path = uvm_cfg_s(cfg, UVM_OPT_opt_trace);
	struct opt *o;
	FILE *f;
	int rc;

	if (!path[0]) {
		snprintf(err, errlen,
			 "--evict opt needs --opt-trace FILE, the access trace of an earlier "
			 "run of the same program (--record-trace FILE)");
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (!o || uvm_block_lru_init(&o->lru, space)) {
		free(o);
		snprintf(err, errlen, "out of memory creating --evict opt");
		return NULL;
	}
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "--opt-trace %s: %s", path, strerror(errno));
		opt_destroy(o);
		return NULL;
	}
	rc = uvm_opt_trace_read(f, path, space->ncounters, &o->t, err, errlen);
	fclose(f);
	if (rc) {
		opt_destroy(o);
		return NULL;
	}
	return o;
}

/* The first launch >= now that uses 64 KB block b, or NEVER. */
static uint64_t next_use(const struct opt *o, size_t b, uint64_t now)
{
	size_t lo, hi;

	if (b >= o->t.nblk)
		return NEVER;
	lo = o->t.start[b];
	hi = o->t.start[b + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->t.use[mid] < now)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->t.start[b + 1] ? o->t.use[lo] : NEVER;
}

static int opt_pick(void *p, const struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	const struct opt *o = p;
	uint32_t best = UVM_ILIST_END;
	uint64_t best_next = 0;

	for (uint32_t b = uvm_ilist_first(&o->lru.list); b != UVM_ILIST_END;
	     b = uvm_ilist_next(&o->lru.list, b)) {
		uint64_t n;

		if (!uvm_evict_block_ok(ctx, b))
			continue;
		n = next_use(o, uvm_counter_of(b), ctx->launch);
		if (best == UVM_ILIST_END || n > best_next) {
			best = b;
			best_next = n;
			if (n == NEVER)
				break;
		}
	}
	if (best == UVM_ILIST_END)
		return -ENOENT;
	*v = uvm_evict_basic(ctx->space, best);
	return 0;
}

const struct uvm_evict_ops uvm_evict_opt = {
    .name = "opt",
    .help = "Belady: the 64 KB block used again furthest in the future, from the access trace "
	    "of an earlier run (--opt-trace)",
    .create = opt_create,
    .destroy = opt_destroy,
    .resident = uvm_block_lru_resident,
    .released = uvm_block_lru_released,
    .touched = uvm_block_lru_touched,
    .pick = opt_pick,
};
