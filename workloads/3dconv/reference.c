// SPDX-License-Identifier: MIT
/* reference.c - 3dconv on the CPU: the interior of B, packed plane after
 * plane, row after row, with the kernel's filter (conv3d_filter). */
#include "conv3d.h"

void conv3d_reference(const float *a, float *interior, int ni, int nj, int nk)
{
	const size_t plane = (size_t)nj * (size_t)nk, row = (size_t)nk;
	float *out = interior;

	for (size_t i = 1; i + 1 < (size_t)ni; i++)
		for (size_t j = 1; j + 1 < (size_t)nj; j++) {
			const float *mm = a + (i - 1) * plane + (j - 1) * row;
			const float *mz = mm + row, *mp = mz + row;
			const float *zm = mm + plane, *zz = zm + row, *zp = zz + row;
			const float *pm = zm + plane, *pz = pm + row, *pp = pz + row;

			for (size_t k = 1; k + 1 < row; k++)
				*out++ = conv3d_filter(mm[k - 1], pm[k - 1], zm[k], zz[k], zp[k],
						       mm[k + 1], pm[k + 1], mz[k + 1], pz[k + 1],
						       mp[k + 1], pp[k + 1]);
		}
}

void conv3d_pack_interior(const float *b, float *interior, int ni, int nj, int nk)
{
	const size_t plane = (size_t)nj * (size_t)nk, row = (size_t)nk;
	float *out = interior;

	for (size_t i = 1; i + 1 < (size_t)ni; i++)
		for (size_t j = 1; j + 1 < (size_t)nj; j++)
			for (size_t k = 1; k + 1 < row; k++)
				*out++ = b[i * plane + j * row + k];
}
