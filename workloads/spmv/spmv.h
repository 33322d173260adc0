/* SPDX-License-Identifier: MIT */
/*
 * spmv.h - Parboil's spmv on emu-gpu: y = A x for a sparse matrix A in
 * jagged diagonal storage (JDS), rows sorted by length and padded to slices
 * of 32, one thread per row and one 32-thread CTA per slice, launched 50
 * times. A is read from a Matrix Market file or generated.
 */
#ifndef SPMV_H
#define SPMV_H

#include <stdbool.h>
#include <stdint.h>

#include "mtx.h"
#include "uvmemu.h"
#include "wl.h"

#define SPMV_SLICE 32 /* rows per slice: the padding, and threads per CTA */

/*
 * JDS in managed memory. Rows are sorted by length, longest first
 * (perm[ix] is the matrix row of sorted row ix); diagonal k holds the k-th
 * entry of every sorted row of every slice whose longest row has more than k
 * entries, so it starts at jds_ptr[k] and row ix's k-th entry is at
 * jds_ptr[k] + ix. Slots of rows shorter than their slice's longest (and of
 * the last slice's missing rows) hold value 0 and column 0.
 */
struct spmv_jds {
	int32_t rows, cols;
	int32_t slices;	  /* ceil(rows / 32) */
	int32_t diags;	  /* the longest row's length */
	int64_t len;	  /* slots in all, padding included */
	float *data;	  /* managed: len */
	int32_t *index;	  /* managed: len, column of each slot */
	int32_t *perm;	  /* managed: rows */
	int32_t *jds_ptr; /* managed: diags (at least 1 slot allocated) */
	int32_t *zcnt;	  /* managed: slices, the longest row of each (sh_zcnt) */
	float *x;	  /* managed: cols */
	float *y;	  /* managed: rows, the result */
};

/* One step of a row's sum, as the original writes it: sum += d * t. */
static inline float spmv_step(float sum, float d, float t)
{
	return sum + d * t;
}

/* jds.c: the slot count and the managed footprint the JDS of `m` takes. */
int64_t spmv_jds_len(const struct mtx_matrix *m);
uint64_t spmv_footprint_bytes(const struct mtx_matrix *m);

/* jds.c: allocates the managed arrays (wl_managed) and converts `m`; x is
 * left for the caller. Exits with a message if the JDS would not fit the
 * original's int indexing. */
void spmv_jds_build(const struct wl *w, const struct mtx_matrix *m, struct spmv_jds *j);
void spmv_jds_free(const struct wl *w, struct spmv_jds *j);

/* gen.c: a random square matrix of `rows` rows in CSR: row lengths uniform
 * in 1 .. 2 row_nnz - 1, the diagonal plus distinct uniform random columns,
 * values uniform in [0, 1). */
void spmv_generate(const struct wl *w, struct mtx_matrix *m, int32_t rows, int row_nnz,
		   uint64_t seed);

/* kernels.c: `reps` launches, then a synchronisation. */
void spmv_run_gpu(const struct wl *w, const struct spmv_jds *j, int reps);

/* reference.c: y on the CPU from the JDS in the kernel's order (bit for bit),
 * into `y` (rows floats). */
void spmv_reference(const struct spmv_jds *j, float *y);

/* reference.c: `got` against y = A x summed from the CSR in double, per row
 * within the float summation bound; true when every row is. */
bool spmv_check_csr(const struct wl *w, const struct mtx_matrix *m, const float *x,
		    const float *got);

#endif
