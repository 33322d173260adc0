// SPDX-License-Identifier: MIT
/*
 * reference.c - lud on the CPU, in place: the same block steps as the
 * kernels (diagonal block, perimeter row and column blocks, trailing
 * blocks), each element going through the same operations in the same
 * order (lud.h). A kernel stages blocks in shared memory; reading and
 * writing the matrix directly gives the same values, since no element a
 * kernel reads is written by the same kernel before it is read.
 */
#include "lud.h"

#define BS LUD_BLOCK

/* lud_diagonal: the 16 x 16 block at (off, off), in the kernel's order
 * (column i of L, then row i + 1 of U, for i = 0..14). */
static void diagonal(float *m, size_t dim, size_t off)
{
	float *s = m + off * dim + off; /* s[r * dim + c] is shadow[r][c] */

	for (size_t i = 0; i < BS - 1; i++) {
		for (size_t t = i + 1; t < BS; t++) {
			for (size_t j = 0; j < i; j++)
				s[t * dim + i] =
				    lud_sub(s[t * dim + i], s[t * dim + j], s[j * dim + i]);
			s[t * dim + i] = lud_div(s[t * dim + i], s[i * dim + i]);
		}
		for (size_t t = i + 1; t < BS; t++)
			for (size_t j = 0; j < i + 1; j++)
				s[(i + 1) * dim + t] = lud_sub(
				    s[(i + 1) * dim + t], s[(i + 1) * dim + j], s[j * dim + t]);
	}
}

/* lud_perimeter for the blocks at column (row block) and row (column block)
 * `peri`. */
static void perimeter(float *m, size_t dim, size_t off, size_t peri)
{
	const float *dia = m + off * dim + off;
	float *row = m + off * dim + peri; /* the block right of the diagonal */
	float *col = m + peri * dim + off; /* the block below it */

	for (size_t idx = 0; idx < BS; idx++)
		for (size_t i = 1; i < BS; i++)
			for (size_t j = 0; j < i; j++)
				row[i * dim + idx] = lud_sub(row[i * dim + idx], dia[i * dim + j],
							     row[j * dim + idx]);
	for (size_t idx = 0; idx < BS; idx++)
		for (size_t i = 0; i < BS; i++) {
			for (size_t j = 0; j < i; j++)
				col[idx * dim + i] = lud_sub(col[idx * dim + i], col[idx * dim + j],
							     dia[j * dim + i]);
			col[idx * dim + i] = lud_div(col[idx * dim + i], dia[i * dim + i]);
		}
}

void lud_reference(float *m, int n, int steps)
{
	const size_t dim = (size_t)n;
	size_t off = 0;

	for (int s = 0; s < steps; s++, off += BS) {
		diagonal(m, dim, off);
		for (size_t peri = off + BS; peri < dim; peri += BS)
			perimeter(m, dim, off, peri);
		/* lud_internal, every trailing element. */
		for (size_t r = off + BS; r < dim; r++)
			for (size_t c = off + BS; c < dim; c++)
				m[r * dim + c] = lud_internal_element(
				    m[r * dim + c], &m[r * dim + off], &m[off * dim + c], dim);
	}
	if (steps == lud_block_steps(n))
		diagonal(m, dim, off);
}
