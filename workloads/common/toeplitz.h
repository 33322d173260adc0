/* SPDX-License-Identifier: MIT */
/*
 * toeplitz.h - the generated matrix of Rodinia's gaussian and lud: symmetric
 * Toeplitz, a(i, j) = 10 exp(-rate |i - j|), positive definite for rate > 0,
 * so elimination and LU need no pivoting.
 */
#ifndef WL_TOEPLITZ_H
#define WL_TOEPLITZ_H

#include <stddef.h>

/* Fills the n x n row-major matrix a; one exp per distance from the
 * diagonal, rounded to float, as the originals compute it. Exits with a
 * message when out of memory. */
void wl_toeplitz_exp(float *a, size_t n, double rate);

#endif
