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

int plot_allocs_read(struct plot_allocs *out, const char *dir, char *err, size_t len)
{
	static const char *const cols[] = {"alloc",  "kind",  "first_block",
					   "blocks", "bytes", "name"};
	struct plot_csv c;
	int idx[6], rc;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (plot_csv_open(&c, dir, "allocations.csv", err, len))
		return -1;
	if (plot_csv_need(&c, cols, idx, 6, err, len))
		goto fail;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		uint64_t id, first, blocks, bytes;
		struct plot_alloc *a, *na;

		if (plot_csv_u64(&c, idx[0], &id, err, len) ||
		    plot_csv_u64(&c, idx[2], &first, err, len) ||
		    plot_csv_u64(&c, idx[3], &blocks, err, len) ||
		    plot_csv_u64(&c, idx[4], &bytes, err, len))
			goto fail;
		if (id > UINT32_MAX) {
			plot_csv_bad(&c, err, len, "allocation id out of range");
			goto fail;
		}
		a = find_alloc(out, (uint32_t)id);
		if (!a) {
			na = uvm_grow(out->a, &cap, out->n, sizeof(*out->a), 16);
			if (!na) {
				plot_csv_bad(&c, err, len, "out of memory");
				goto fail;
			}
			out->a = na;
			a = &out->a[out->n++];
			memset(a, 0, sizeof(*a));
			a->id = (uint32_t)id;
		}
		/* A row per allocation, another per label: the last name wins. */
		a->first_block = first;
		a->blocks = blocks;
		a->bytes = bytes;
		snprintf(a->kind, sizeof(a->kind), "%s", c.field[idx[1]]);
		if (c.field[idx[5]][0])
			snprintf(a->name, sizeof(a->name), "%s", c.field[idx[5]]);
	}
	if (rc < 0)
		goto fail;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	plot_allocs_free(out);
	return -1;
}

void plot_allocs_free(struct plot_allocs *a)
{
	free(a->a);
	a->a = NULL;
	a->n = 0;
}

const char *plot_alloc_label(const struct plot_alloc *a, char *buf, size_t len)
{
	if (a->name[0])
		snprintf(buf, len, "%s", a->name);
	else
		snprintf(buf, len, "alloc %u", a->id);
	return buf;
}

int plot_kernels_read(struct plot_kernels *out, const char *dir, char *err, size_t len)
{
	static const char *const cols[] = {"launch", "kernel", "begin_s", "end_s"};
	struct plot_csv c;
	int idx[4], rc;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (plot_csv_open(&c, dir, "kernels.csv", err, len))
		return -1;
	if (plot_csv_need(&c, cols, idx, 4, err, len))
		goto fail;
	while ((rc = plot_csv_next(&c, err, len)) == 1) {
		struct plot_kernel k, *nk;

		if (plot_csv_u64(&c, idx[0], &k.launch, err, len) ||
		    plot_csv_num(&c, idx[2], &k.begin, err, len) ||
		    plot_csv_num(&c, idx[3], &k.end, err, len))
			goto fail;
		if (k.end < k.begin) {
			plot_csv_bad(&c, err, len, "a launch that ends before it begins");
			goto fail;
		}
		snprintf(k.name, sizeof(k.name), "%s", c.field[idx[1]]);
		nk = uvm_grow(out->k, &cap, out->n, sizeof(*out->k), 64);
		if (!nk) {
			plot_csv_bad(&c, err, len, "out of memory");
			goto fail;
		}
		out->k = nk;
		out->k[out->n++] = k;
	}
	if (rc < 0)
		goto fail;
	plot_csv_close(&c);
	return 0;
fail:
	plot_csv_close(&c);
	plot_kernels_free(out);
	return -1;
}

void plot_kernels_free(struct plot_kernels *k)
{
	free(k->k);
	k->k = NULL;
	k->n = 0;
}
