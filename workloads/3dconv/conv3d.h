/* SPDX-License-Identifier: MIT */
/*
 * conv3d.h - PolyBench/GPU 3DCONV: a fixed stencil over an NI x NJ x NK
 * volume, A -> B, one launch per i-plane with one thread per element of the
 * plane. The filter is shared by the kernel and the CPU reference so that
 * both do the same float operations in the same order.
 */
#ifndef CONV3D_H
#define CONV3D_H

#include <stddef.h>
#include <stdint.h>

#include "wl.h"

/* CTA shape of PolyBench/GPU: 32 x 8 threads (x along k, y along j). */
#define CONV3D_BLOCK_X 32
#define CONV3D_BLOCK_Y 8

/*
 * The original's 15 terms, summed left to right in its order. The names give
 * the neighbour as (i, j, k) offsets: m for -1, z for 0, p for +1; the first,
 * third and fifth terms read the same element, as in the original (its
 * weights c11, c21, c31 all land on A[i-1][j-1][k-1]), and so do the second,
 * fourth and sixth (A[i+1][j-1][k-1]).
 */
static inline float conv3d_filter(float mmm, float pmm, float zmz, float zzz, float zpz, float mmp,
				  float pmp, float mzp, float pzp, float mpp, float ppp)
{
	const float c11 = +2, c21 = +5, c31 = -8;
	const float c12 = -3, c22 = +6, c32 = -9;
	const float c13 = +4, c23 = +7, c33 = +10;

	return c11 * mmm + c13 * pmm + c21 * mmm + c23 * pmm + c31 * mmm + c33 * pmm + c12 * zmz +
	       c22 * zzz + c32 * zpz + c11 * mmp + c13 * pmp + c21 * mzp + c23 * pzp + c31 * mpp +
	       c33 * ppp;
}

/* A uniform in [0, 1) from the seed, as the original's rand() / RAND_MAX. */
void conv3d_generate(uint64_t seed, float *a, size_t n);

/* The ni - 2 launches (planes i = 1 ... ni - 2) on the device, then a
 * synchronisation. */
void conv3d_run_gpu(const struct wl *w, const float *a, float *b, int ni, int nj, int nk);

/* The interior of B on the CPU, packed: (ni - 2) x (nj - 2) x (nk - 2) floats. */
void conv3d_reference(const float *a, float *interior, int ni, int nj, int nk);

/* B's interior packed in the same order, from the GPU's B. */
void conv3d_pack_interior(const float *b, float *interior, int ni, int nj, int nk);

#endif
