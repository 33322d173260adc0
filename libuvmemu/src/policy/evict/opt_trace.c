// SPDX-License-Identifier: MIT
/*
 * opt_trace.c - the access trace --evict opt reads (see opt_trace.h): CSV
 * with the header
 *     launch,kernel,alloc,block,accesses,source
 * and one row per (kernel launch, 64 KB block) the launch touched. Lines
 * starting with '#' and blank lines are skipped; the kernel name may be empty
 * or contain commas (the last four fields are taken from the right).
 */
#include "opt_trace.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* The rows of the trace as (block << 32 | launch) keys. */
static int read_keys(FILE *f, const char *path, size_t nblocks, struct keys *ks, char *err,
		     size_t errlen)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	bool header = false;
	ssize_t len;
	int rc = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		uint64_t launch, block;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if (!header) {
			if (strcmp(line, UVM_OPT_TRACE_HEADER) != 0) {
				snprintf(err, errlen,
					 "--opt-trace %s:%zu: expected the header line "
					 "'" UVM_OPT_TRACE_HEADER
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
				 "--opt-trace %s:%zu: not a row of " UVM_OPT_TRACE_HEADER
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
			 "--opt-trace %s: no header line '" UVM_OPT_TRACE_HEADER
			 "': not an access trace",
			 path);
		rc = -EINVAL;
	}
	free(line);
	return rc;
}

/* Sorted, de-duplicated keys into the per-block CSR. */
static int build_index(struct uvm_opt_trace *o, struct keys *ks)
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

int uvm_opt_trace_read(FILE *f, const char *name, size_t nblocks, struct uvm_opt_trace *t,
		       char *err, size_t errlen)
{
	struct keys ks = {0};
	int rc;

	memset(t, 0, sizeof(*t));
	rc = read_keys(f, name, nblocks, &ks, err, errlen);
	if (!rc && build_index(t, &ks)) {
		snprintf(err, errlen, "--opt-trace %s: out of memory", name);
		rc = -ENOMEM;
	}
	free(ks.k);
	if (rc)
		uvm_opt_trace_fini(t);
	return rc;
}

void uvm_opt_trace_fini(struct uvm_opt_trace *t)
{
	free(t->start);
	free(t->use);
	memset(t, 0, sizeof(*t));
}
