// SPDX-License-Identifier: MIT
/*
 * plot_traces.c - the small trace tables every figure uses as context:
 * allocations.csv (where each allocation lies in block numbers, and its
 * name) and kernels.csv (when each launch ran).
 */
#include <stdlib.h>
#include <string.h>

#include "plot.h"

static struct plot_alloc *find_alloc(struct plot_allocs *a, uint32_t id)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->a[i].id == id)
			return &a->a[i];
	return NULL;
}

/* Columns: alloc, kind, first_block, blocks, bytes, name. */
static int alloc_row(const struct plot_csv *c, const int *idx, void *ctx, char *err, size_t len)
{
	struct plot_allocs *out = ctx;
	uint64_t id, first, blocks, bytes;
	struct plot_alloc *a, *na;

	if (plot_csv_u64(c, idx[0], &id, err, len) || plot_csv_u64(c, idx[2], &first, err, len) ||
	    plot_csv_u64(c, idx[3], &blocks, err, len) || plot_csv_u64(c, idx[4], &bytes, err, len))
		return -1;
	if (id > UINT32_MAX)
		return plot_csv_bad(c, err, len, "allocation id out of range");
	a = find_alloc(out, (uint32_t)id);
	if (!a) {
		na = uvm_grow(out->a, &out->cap, out->n, sizeof(*out->a), 16);
		if (!na)
			return plot_csv_bad(c, err, len, "out of memory");
		out->a = na;
		a = &out->a[out->n++];
		memset(a, 0, sizeof(*a));
		a->id = (uint32_t)id;
	}
	/* A row per allocation, another per label: the last name wins. */
	a->first_block = first;
	a->blocks = blocks;
	a->bytes = bytes;
	snprintf(a->kind, sizeof(a->kind), "%s", c->field[idx[1]]);
	if (c->field[idx[5]][0])
		snprintf(a->name, sizeof(a->name), "%s", c->field[idx[5]]);
	return 0;
}

int plot_allocs_read(struct plot_allocs *out, const char *dir, char *err, size_t len)
{
	static const char *const cols[] = {"alloc",  "kind",  "first_block",
					   "blocks", "bytes", "name"};

	memset(out, 0, sizeof(*out));
	if (plot_csv_each(dir, "allocations.csv", cols, 6, alloc_row, out, err, len)) {
		plot_allocs_free(out);
		return -1;
	}
	return 0;
}

void plot_allocs_free(struct plot_allocs *a)
{
	free(a->a);
	a->a = NULL;
	a->n = a->cap = 0;
}

const char *plot_alloc_label(const struct plot_alloc *a, char *buf, size_t len)
{
	if (a->name[0])
		snprintf(buf, len, "%s", a->name);
	else
		snprintf(buf, len, "alloc %u", a->id);
	return buf;
}

/* Columns: launch, kernel, begin_s, end_s. */
static int kernel_row(const struct plot_csv *c, const int *idx, void *ctx, char *err, size_t len)
{
	struct plot_kernels *out = ctx;
	struct plot_kernel k, *nk;

	if (plot_csv_u64(c, idx[0], &k.launch, err, len) ||
	    plot_csv_num(c, idx[2], &k.begin, err, len) ||
	    plot_csv_num(c, idx[3], &k.end, err, len))
		return -1;
	if (k.end < k.begin)
		return plot_csv_bad(c, err, len, "a launch that ends before it begins");
	snprintf(k.name, sizeof(k.name), "%s", c->field[idx[1]]);
	nk = uvm_grow(out->k, &out->cap, out->n, sizeof(*out->k), 64);
	if (!nk)
		return plot_csv_bad(c, err, len, "out of memory");
	out->k = nk;
	out->k[out->n++] = k;
	return 0;
}

int plot_kernels_read(struct plot_kernels *out, const char *dir, char *err, size_t len)
{
	static const char *const cols[] = {"launch", "kernel", "begin_s", "end_s"};

	memset(out, 0, sizeof(*out));
	if (plot_csv_each(dir, "kernels.csv", cols, 4, kernel_row, out, err, len)) {
		plot_kernels_free(out);
		return -1;
	}
	return 0;
}

void plot_kernels_free(struct plot_kernels *k)
{
	free(k->k);
	k->k = NULL;
	k->n = k->cap = 0;
}
