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
	EMU_FOR_THREADS {
		const size_t ny = (size_t)args->ny;
		size_t j = blockIdx.x * blockDim.x + threadIdx.x;
		size_t i = blockIdx.y * blockDim.y + threadIdx.y;

		if (i >= (size_t)args->nx || j >= ny)
			EMU_RETURN;
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
	EMU_FOR_THREADS {
		const size_t ny = (size_t)args->ny;
		size_t j = blockIdx.x * blockDim.x + threadIdx.x;
		size_t i = blockIdx.y * blockDim.y + threadIdx.y;

		if (i >= (size_t)args->nx || j >= ny || j == 0)
			EMU_RETURN;
		st_global(&args->ex[i * (ny + 1) + j],
			  fdtd_ex(ld_global(&args->ex[i * (ny + 1) + j]),
				  ld_global(&args->hz[i * ny + j]),
				  ld_global(&args->hz[i * ny + j - 1])));
	}
}

EMU_KERNEL(fdtd_step3_kernel, struct fdtd_step3_args)
{
	EMU_FOR_THREADS {
		const size_t ny = (size_t)args->ny;
		size_t j = blockIdx.x * blockDim.x + threadIdx.x;
		size_t i = blockIdx.y * blockDim.y + threadIdx.y;

		if (i >= (size_t)args->nx || j >= ny)
			EMU_RETURN;
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
