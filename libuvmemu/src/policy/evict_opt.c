// SPDX-License-Identifier: MIT
/*
 * evict_opt.c - Belady's optimal replacement, from a recorded access trace.
 *
 * Source: Belady's MIN (evict what is used again furthest in the future),
 * the oracle the papers compare against; the compiler-assisted paper's RDM
 * (SC 2019) is its kernel-granular form, reuse distance counted in kernel
 * launches, which is the granularity here. Granularity: one 64 KB block.
 *
 * The future comes from an earlier run of the same deterministic program
 * (--opt-trace FILE, written by --record-trace FILE or --trace DIR as
 * DIR/accesses.csv): CSV with the header
 *     launch,kernel,alloc,block,accesses,source
 * and one row per (kernel launch, 64 KB block) the launch touched; `block`
 * is the block's arena index (arena offset >> 16), the index the space uses,
 * which a deterministic program reproduces. Lines starting with '#' and
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
 * and the line (create_err).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evict_util.h"
#include "block_lru.h"

#define NEVER  UINT64_MAX
#define HEADER "launch,kernel,alloc,block,accesses,source"

struct opt {
	struct uvm_block_lru lru; /* first: the order's observers take a struct opt */
	size_t nblk;		  /* blocks the trace covers: its largest block + 1 */
	uint32_t *start;	  /* uses of block b: use[start[b] .. start[b + 1]) */
	uint32_t *use;		  /* launch indices, ascending per block */
};

/* A growing array of (block << 32 | launch) keys. */
struct keys {
	uint64_t *k;
	size_t n, cap;
};

static int keys_add(struct keys *ks, uint64_t key)
{
	if (ks->n == ks->cap) {
		size_t cap = ks->cap ? 2 * ks->cap : 4096;
		uint64_t *k = realloc(ks->k, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		ks->k = k;
		ks->cap = cap;
	}
	ks->k[ks->n++] = key;
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A whole field of decimal digits. */
static bool parse_uint(const char *s, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	if (s == end)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

/* launch,kernel,alloc,block,accesses,source; the kernel may hold commas. */
static bool parse_row(const char *line, size_t len, uint64_t *launch, uint64_t *block)
{
	const char *end = line + len, *comma[4], *first = memchr(line, ',', len);
	const char *p = end;
	uint64_t alloc, accesses;
	size_t srclen;

	for (int i = 3; i >= 0; i--) {
		while (p > line && p[-1] != ',')
			p--;
		if (p == line)
			return false;
		comma[i] = --p;
	}
	/* The kernel lies between the first comma and comma[0]; it may be
	 * empty (a launch without a name), but the comma must be its own. */
	if (!first || first >= comma[0])
		return false;
	srclen = (size_t)(end - comma[3] - 1);
	if (!((srclen == 6 && memcmp(comma[3] + 1, "faults", 6) == 0) ||
	      (srclen == 4 && memcmp(comma[3] + 1, "gmmu", 4) == 0)))
		return false;
	return parse_uint(line, first, launch) && parse_uint(comma[0] + 1, comma[1], &alloc) &&
	       parse_uint(comma[1] + 1, comma[2], block) &&
	       parse_uint(comma[2] + 1, comma[3], &accesses);
}

static int read_trace(const char *path, size_t nblocks, struct keys *ks, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	bool header = false;
	ssize_t len;
	int rc = 0;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "--opt-trace %s: %s", path, strerror(-rc));
		return rc;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		uint64_t launch, block;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if (!header) {
			if (strcmp(line, HEADER) != 0) {
				snprintf(err, errlen,
					 "--opt-trace %s:%zu: expected the header line '" HEADER
					 "' of an access trace (--record-trace)",
					 path, lineno);
				rc = -EINVAL;
				break;
			}
			header = true;
			continue;
		}
		if (!parse_row(line, (size_t)len, &launch, &block)) {
			snprintf(err, errlen,
				 "--opt-trace %s:%zu: not a row of " HEADER
				 " (unsigned numbers, source faults or gmmu): '%.48s'",
				 path, lineno, line);
			rc = -EINVAL;
			break;
		}
		if (block >= nblocks || launch >= UINT32_MAX) {
			snprintf(err, errlen, "--opt-trace %s:%zu: %s %llu is out of range", path,
				 lineno, block >= nblocks ? "block" : "launch",
				 (unsigned long long)(block >= nblocks ? block : launch));
			rc = -EINVAL;
			break;
		}
		if (keys_add(ks, block << 32 | launch)) {
			snprintf(err, errlen, "--opt-trace %s: out of memory", path);
			rc = -ENOMEM;
			break;
		}
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "--opt-trace %s: %s", path, strerror(errno));
		rc = -EIO;
	}
	if (!rc && !header) {
		snprintf(err, errlen,
			 "--opt-trace %s: no header line '" HEADER "': not an access trace", path);
		rc = -EINVAL;
	}
	free(line);
	fclose(f);
	return rc;
}

/* Sorted, de-duplicated keys into the per-block CSR. */
static int build_index(struct opt *o, struct keys *ks)
{
	size_t n = 0;

	if (ks->n)
		qsort(ks->k, ks->n, sizeof(*ks->k), cmp_key);
	for (size_t i = 0; i < ks->n; i++)
		if (n == 0 || ks->k[i] != ks->k[n - 1])
			ks->k[n++] = ks->k[i];
	o->nblk = n ? (size_t)(ks->k[n - 1] >> 32) + 1 : 0;
	o->start = calloc(o->nblk + 1, sizeof(*o->start));
	o->use = malloc((n ? n : 1) * sizeof(*o->use));
	if (!o->start || !o->use)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		o->start[(ks->k[i] >> 32) + 1]++;
		o->use[i] = (uint32_t)ks->k[i];
	}
	for (size_t b = 0; b < o->nblk; b++)
		o->start[b + 1] += o->start[b];
	return 0;
}

static void opt_destroy(void *p)
{
	struct opt *o = p;

	uvm_block_lru_fini(&o->lru);
	free(o->start);
	free(o->use);
	free(o);
}

static void *opt_create(const struct uvm_space *space, const struct uvm_config *cfg, char *err,
			size_t errlen)
{
	const char *path = uvm_cfg_s(cfg, UVM_OPT_opt_trace);
	struct opt *o;
	struct keys ks = {0};
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
	rc = read_trace(path, space->nblocks, &ks, err, errlen);
	if (!rc && build_index(o, &ks)) {
		snprintf(err, errlen, "--opt-trace %s: out of memory", path);
		rc = -ENOMEM;
	}
	free(ks.k);
	if (rc) {
		opt_destroy(o);
		return NULL;
	}
	return o;
}

/* The first launch >= now that uses block b, or NEVER. */
static uint64_t next_use(const struct opt *o, size_t b, uint64_t now)
{
	size_t lo, hi;

	if (b >= o->nblk)
		return NEVER;
	lo = o->start[b];
	hi = o->start[b + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->use[mid] < now)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->start[b + 1] ? o->use[lo] : NEVER;
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
		n = next_use(o, b, ctx->launch);
		if (best == UVM_ILIST_END || n > best_next) {
			best = b;
			best_next = n;
			if (n == NEVER)
				break;
		}
	}
	if (best == UVM_ILIST_END)
		return -ENOENT;
	*v = (struct uvm_victim){best, 1};
	return 0;
}

const struct uvm_evict_ops uvm_evict_opt = {
    .name = "opt",
    .help = "Belady: the 64 KB block used again furthest in the future, from the access trace "
	    "of an earlier run (--opt-trace)",
    .create_err = opt_create,
    .destroy = opt_destroy,
    .resident = uvm_block_lru_resident,
    .released = uvm_block_lru_released,
    .touched = uvm_block_lru_touched,
    .pick = opt_pick,
};
