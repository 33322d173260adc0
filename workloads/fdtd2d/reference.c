// SPDX-License-Identifier: MIT
/* reference.c - fdtd2d on the CPU: the three field updates of each time
 * step over the whole grid, in the kernels' order. */
#include "fdtd2d.h"

void fdtd_reference(const struct fdtd_fields *f)
{
	const size_t nx = (size_t)f->nx, ny = (size_t)f->ny;
	float *ex = f->ex, *ey = f->ey, *hz = f->hz;

	for (int t = 0; t < f->tmax; t++) {
		for (size_t j = 0; j < ny; j++)
			ey[j] = f->fict[t];
		for (size_t i = 1; i < nx; i++)
			for (size_t j = 0; j < ny; j++)
				ey[i * ny + j] =
				    fdtd_ey(ey[i * ny + j], hz[i * ny + j], hz[(i - 1) * ny + j]);
		for (size_t i = 0; i < nx; i++)
			for (size_t j = 1; j < ny; j++)
				ex[i * (ny + 1) + j] = fdtd_ex(ex[i * (ny + 1) + j], hz[i * ny + j],
							       hz[i * ny + j - 1]);
		for (size_t i = 0; i < nx; i++)
			for (size_t j = 0; j < ny; j++)
				hz[i * ny + j] = fdtd_hz(hz[i * ny + j], ex[i * (ny + 1) + j],
							 ex[i * (ny + 1) + j + 1], ey[i * ny + j],
							 ey[(i + 1) * ny + j]);
	}
}
