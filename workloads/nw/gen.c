// SPDX-License-Identifier: MIT
/*
 * gen.c - nw's input: two random sequences, the reference matrix of their
 * BLOSUM62 scores, and the score matrix with its gap-penalty borders.
 */
#include "nw.h"

#include <string.h>

#include "blosum62.h"

/*
 * The original draws each symbol as rand() % 10 + 1, i.e. uniformly from
 * table indices 1-10 (R N D C Q E G H I L); the same distribution here keeps
 * the scores' spread, drawn from the seeded generator instead.
 */
#define NW_FIRST_SYMBOL 1
#define NW_SYMBOLS	10

void nw_generate(struct nw_problem *p, uint64_t seed)
{
	const int cols = p->cols;
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	for (int i = 1; i < cols; i++)
		p->seq_a[i] = NW_FIRST_SYMBOL + (int)wl_rng_below(&r, NW_SYMBOLS);
	for (int j = 1; j < cols; j++)
		p->seq_b[j] = NW_FIRST_SYMBOL + (int)wl_rng_below(&r, NW_SYMBOLS);

	/* Row and column 0 of the reference are never read by the kernels. */
	for (int i = 1; i < cols; i++) {
		int *row = p->reference + (size_t)i * cols;

		for (int j = 1; j < cols; j++)
			row[j] = nw_blosum62[p->seq_a[i]][p->seq_b[j]];
	}

	/*
	 * The original clears the whole score matrix on the host before it
	 * writes the borders, so every page of it starts host-resident; do the
	 * same rather than leave the interior to a first GPU touch.
	 */
	memset(p->matrix, 0, (size_t)cols * cols * sizeof(int));
	for (int i = 1; i < cols; i++)
		p->matrix[(size_t)i * cols] = -i * p->penalty;
	for (int j = 1; j < cols; j++)
		p->matrix[j] = -j * p->penalty;
}
