// SPDX-License-Identifier: MIT
/*
 * reference.c - the sequential Needleman-Wunsch recurrence, row by row from
 * the sequences (not from the managed matrices, so that the check does not
 * trust data the emulator moved), compared with the GPU's score matrix.
 */
#include "nw.h"

#include <stdlib.h>
#include <string.h>

#include "blosum62.h"

static int max3(int a, int b, int c)
{
	int m = a > b ? a : b;

	return m > c ? m : c;
}

bool nw_check(const struct wl *w, const struct nw_problem *p)
{
	const int cols = p->cols, penalty = p->penalty;
	int *prev = malloc((size_t)cols * sizeof(int));
	int *cur = malloc((size_t)cols * sizeof(int));
	size_t bad_rows = 0;

	if (!prev || !cur) {
		fprintf(stderr, "%s: out of memory for the CPU reference\n", w->name);
		free(prev);
		free(cur);
		return false;
	}
	for (int j = 0; j < cols; j++)
		cur[j] = -j * penalty;
	for (int i = 0; i < cols; i++) {
		const int *got = p->matrix + (size_t)i * cols;

		if (i > 0) {
			int *t = prev;

			prev = cur;
			cur = t;
			cur[0] = -i * penalty;
			for (int j = 1; j < cols; j++)
				cur[j] = max3(prev[j - 1] + nw_blosum62[p->seq_a[i]][p->seq_b[j]],
					      cur[j - 1] - penalty, prev[j] - penalty);
		}
		if (memcmp(got, cur, (size_t)cols * sizeof(int)) == 0)
			continue;
		/* Print the details of the first wrong row only. */
		if (bad_rows++ == 0) {
			char what[32];

			snprintf(what, sizeof(what), "score row %d", i);
			wl_check_i32(w, what, got, cur, (size_t)cols);
		}
	}
	if (bad_rows)
		fprintf(stderr, "%s: %zu of %d score rows differ\n", w->name, bad_rows, cols);
	free(prev);
	free(cur);
	return bad_rows == 0;
}
