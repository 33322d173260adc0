/* SPDX-License-Identifier: MIT */
/*
 * nw.h - Rodinia's Needleman-Wunsch (nw) on emu-gpu: the problem, its
 * generator, the GPU part and the CPU check.
 */
#ifndef NW_H
#define NW_H

#include <stdbool.h>
#include <stdint.h>

#include "emugpu.h"
#include "uvmemu.h"
#include "wl.h"

#define NW_BLOCK 16 /* tile edge and CTA width (BLOCK_SIZE in the original) */
/* Bounds that keep every int index and score of the original's int
 * arithmetic in range: (n+1)^2 < 2^31 and |score| <= 2n * penalty < 2^31. */
#define NW_MAX_N       32768
#define NW_MAX_PENALTY 10000

struct nw_problem {
	int n;		/* sequence length, a multiple of NW_BLOCK */
	int cols;	/* n + 1: both matrices are cols x cols, row-major */
	int penalty;	/* gap penalty */
	int *seq_a;	/* host: n+1 symbols (row i aligns seq_a[i]); [0] unused */
	int *seq_b;	/* host: n+1 symbols (column j aligns seq_b[j]); [0] unused */
	int *reference; /* managed: BLOSUM62 score of seq_a[i] against seq_b[j] */
	int *matrix;	/* managed: the score matrix (input_itemsets), in and out */
};

/*
 * The original's arguments, pointers first. Each pair of ints shares an
 * 8-byte word whose high half (penalty <= 10000, block_width <= 2048) is
 * small: the executor translates every word that holds a managed host-view
 * pointer, and these words can never look like one.
 */
struct nw_args {
	int *reference;
	int *matrix;
	int cols;
	int penalty;
	int i;		 /* the tile diagonal of this launch */
	int block_width; /* tiles per row: n / NW_BLOCK */
};

/* Diagonal i of the upper-left triangle of tiles, and (counting down) of
 * the lower-right one (kernels.c). */
EMU_KERNEL_DECLARE(needle_cuda_shared_1, struct nw_args);
EMU_KERNEL_DECLARE(needle_cuda_shared_2, struct nw_args);

/* Bytes of managed memory the problem uses. */
static inline uint64_t nw_footprint_bytes(int n)
{
	return 2 * (uint64_t)(n + 1) * (uint64_t)(n + 1) * sizeof(int);
}

/* gen.c: random sequences, the reference matrix and the matrix borders. */
void nw_generate(struct nw_problem *p, uint64_t seed);
/* wavefront.c: the wavefront of kernel launches, then a synchronisation. */
cudaError_t nw_gpu(const struct wl *w, const struct nw_problem *p);
/* reference.c: recomputes the score matrix row by row on the CPU and
 * compares it with p->matrix; true when every element is equal. */
bool nw_check(const struct wl *w, const struct nw_problem *p);

#endif
