// SPDX-License-Identifier: MIT
/*
 * kernel.c - 3dconv's kernel, convolution3D_kernel, and its host loop: one
 * launch per interior i-plane (i = 1 ... ni - 2), each a 2-D grid of 32 x 8
 * CTAs with one thread per element (x along k, y along j) of the plane. The
 * edge of each plane is not written, as in the original. A launch reads the
 * planes i - 1, i and i + 1 of A and writes plane i of B, so neighbouring
 * launches share two planes of A.
 */
#include "conv3d.h"

#include "emugpu.h"

/* Sizes are longs, one to an 8-byte word, so that no word of the argument
 * struct can look like a managed pointer to the launch's translation. */
struct convolution3d_args {
	const float *a;
	float *b;
	long ni, nj, nk, i;
};

EMU_KERNEL(convolution3D_kernel, struct convolution3d_args)
{
	const long ni = args->ni, nj = args->nj, nk = args->nk, i = args->i;
	const long plane = nj * nk;
	const float *A = args->a;

	EMU_FOR_THREADS {
		const long k = (long)(blockIdx.x * blockDim.x + threadIdx.x);
		const long j = (long)(blockIdx.y * blockDim.y + threadIdx.y);
		/* Rows of the three planes around (i, j): m/z/p for -1/0/+1 in i
		 * then in j, as conv3d_filter names them. */
		const float *mm, *mz, *mp, *zm, *zz, *zp, *pm, *pz, *pp;

		if (!(i < ni - 1 && j < nj - 1 && k < nk - 1 && i > 0 && j > 0 && k > 0))
			EMU_RETURN;
		mm = A + (i - 1) * plane + (j - 1) * nk;
		mz = mm + nk;
		mp = mz + nk;
		zm = mm + plane;
		zz = zm + nk;
		zp = zz + nk;
		pm = zm + plane;
		pz = pm + nk;
		pp = pz + nk;
		st_global(&args->b[i * plane + j * nk + k],
			  conv3d_filter(ld_global(&mm[k - 1]), ld_global(&pm[k - 1]),
					ld_global(&zm[k]), ld_global(&zz[k]), ld_global(&zp[k]),
					ld_global(&mm[k + 1]), ld_global(&pm[k + 1]),
					ld_global(&mz[k + 1]), ld_global(&pz[k + 1]),
					ld_global(&mp[k + 1]), ld_global(&pp[k + 1])));
	}
}

void conv3d_run_gpu(const struct wl *w, const float *a, float *b, int ni, int nj, int nk)
{
	dim3 block = emu_dim3(CONV3D_BLOCK_X, CONV3D_BLOCK_Y, 1);
	dim3 grid = emu_dim3((unsigned)((nk + CONV3D_BLOCK_X - 1) / CONV3D_BLOCK_X),
			     (unsigned)((nj + CONV3D_BLOCK_Y - 1) / CONV3D_BLOCK_Y), 1);

	for (int i = 1; i < ni - 1; i++)
		WL_CHECK(w, EMU_LAUNCH(convolution3D_kernel, grid, block, 0, a, b, ni, nj, nk, i));
	WL_CHECK(w, cudaDeviceSynchronize());
}
