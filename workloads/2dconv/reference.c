// SPDX-License-Identifier: MIT
/* reference.c - 2dconv on the CPU: the interior of B, packed row after row. */
#include "conv2d.h"

void conv2d_reference(const float *a, float *interior, int ni, int nj)
{
	float *out = interior;

	for (size_t i = 1; i + 1 < (size_t)ni; i++) {
		const float *up = a + (i - 1) * (size_t)nj, *mid = a + i * (size_t)nj;
		const float *down = a + (i + 1) * (size_t)nj;

		for (size_t j = 1; j + 1 < (size_t)nj; j++)
			*out++ = conv2d_filter(up[j - 1], up[j], up[j + 1], mid[j - 1], mid[j],
					       mid[j + 1], down[j - 1], down[j], down[j + 1]);
	}
}
