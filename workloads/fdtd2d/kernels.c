// SPDX-License-Identifier: MIT
/*
 * kernels.c - fdtd2d's three kernels, one thread per cell in 32 x 8 CTAs
 * (x along the row, j; y down the columns, i), and the host loop: per time
 * step ey, then ex, then hz, each launch followed by a synchronisation as
 * in the original.
 */
#include "fdtd2d.h"

#include "emugpu.h"

struct fdtd_step1_args {
	const float *fict;
	const float *ex;
	float *ey;
	const float *hz;
	int nx, ny, t;
};

struct fdtd_step2_args {
	float *ex;
	const float *ey, *hz;
	int nx, ny, t;
};

struct fdtd_step3_args {
	const float *ex, *ey;
	float *hz;
	int nx, ny, t;
};

EMU_KERNEL(fdtd_step1_kernel, struct fdtd_step1_args)
{
	/* Threads outside the nx x ny field do nothing (the original's bounds
	 * check), as the loop's range. */
	EMU_FOR_THREADS_IN(0, args->ny, 0, args->nx) {
		const size_t ny = (size_t)args->ny;
		size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
		size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;

		/* Row 0 is driven by the source term of this step. */
		if (i == 0)
			st_global(&args->ey[j], ld_global(&args->fict[args->t]));
		else
			st_global(&args->ey[i * ny + j],
				  fdtd_ey(ld_global(&args->ey[i * ny + j]),
					  ld_global(&args->hz[i * ny + j]),
					  ld_global(&args->hz[(i - 1) * ny + j])));
	}
}

EMU_KERNEL(fdtd_step2_kernel, struct fdtd_step2_args)
{
	/* Column 0 and threads outside the field do nothing. */
	EMU_FOR_THREADS_IN(1, args->ny, 0, args->nx) {
		const size_t ny = (size_t)args->ny;
		size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
		size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;

		st_global(&args->ex[i * (ny + 1) + j],
			  fdtd_ex(ld_global(&args->ex[i * (ny + 1) + j]),
				  ld_global(&args->hz[i * ny + j]),
				  ld_global(&args->hz[i * ny + j - 1])));
	}
}

EMU_KERNEL(fdtd_step3_kernel, struct fdtd_step3_args)
{
	EMU_FOR_THREADS_IN(0, args->ny, 0, args->nx) {
		const size_t ny = (size_t)args->ny;
		size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
		size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;

		st_global(&args->hz[i * ny + j], fdtd_hz(ld_global(&args->hz[i * ny + j]),
							 ld_global(&args->ex[i * (ny + 1) + j]),
							 ld_global(&args->ex[i * (ny + 1) + j + 1]),
							 ld_global(&args->ey[i * ny + j]),
							 ld_global(&args->ey[(i + 1) * ny + j])));
	}
}

void fdtd_run_gpu(const struct wl *w, const struct fdtd_fields *f)
{
	dim3 block = emu_dim3(FDTD_BLOCK_X, FDTD_BLOCK_Y, 1);
	dim3 grid = emu_dim3((unsigned)((f->ny + FDTD_BLOCK_X - 1) / FDTD_BLOCK_X),
			     (unsigned)((f->nx + FDTD_BLOCK_Y - 1) / FDTD_BLOCK_Y), 1);

	for (int t = 0; t < f->tmax; t++) {
		WL_CHECK(w, EMU_LAUNCH(fdtd_step1_kernel, grid, block, 0, f->fict, f->ex, f->ey,
				       f->hz, f->nx, f->ny, t));
		WL_CHECK(w, cudaDeviceSynchronize());
		WL_CHECK(w, EMU_LAUNCH(fdtd_step2_kernel, grid, block, 0, f->ex, f->ey, f->hz,
				       f->nx, f->ny, t));
		WL_CHECK(w, cudaDeviceSynchronize());
		WL_CHECK(w, EMU_LAUNCH(fdtd_step3_kernel, grid, block, 0, f->ex, f->ey, f->hz,
				       f->nx, f->ny, t));
		WL_CHECK(w, cudaDeviceSynchronize());
	}
}
