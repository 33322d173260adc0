// SPDX-License-Identifier: MIT
/*
 * kernels.c - srad_v2's two kernels, for emu-gpu and (nvcc) a real GPU.
 *
 * srad_cuda_1: each 16 x 16 CTA stages its tile of J and the rows/columns
 * around it in shared memory, and writes the four directional derivatives
 * and the diffusion coefficient of each pixel. srad_cuda_2: each CTA reads
 * the coefficient of its tile plus the row below and the column to the right,
 * and updates J in place. Between iterations the host reads the speckle
 * region of J to compute q0^2, so J goes back and forth between CPU and GPU.
 *
 * At the image edge the original first reads the neighbour row or column
 * outside the tile (for the first row of CTAs, before the start of J) and
 * then overwrites it with the edge pixel; here the edge pixel is read
 * directly, so no access falls outside the arrays.
 */
#include "srad.h"

#define BS SRAD_BLOCK

EMU_KERNEL(srad_cuda_1, struct srad_cuda_1_args)
{
	EMU_SHARED float temp[BS][BS], temp_result[BS][BS];
	EMU_SHARED float north[BS][BS], south[BS][BS], east[BS][BS], west[BS][BS];
	/* Per-thread derivatives, kept across the last barrier (registers in
	 * the original; shared arrays here, which the CPU's loops vectorize). */
	EMU_SHARED float dn[BS][BS], ds[BS][BS], dw[BS][BS], de[BS][BS];
	const float *j = args->j_cuda;
	const size_t cols = (size_t)args->cols;
	const size_t bx = blockIdx.x, by = blockIdx.y;
	const size_t last_x = gridDim.x - 1, last_y = gridDim.y - 1;
	/* Top-left pixel of the tile. */
	const size_t tile = cols * BS * by + BS * bx;

	/* The row above and the row below the tile (each thread of a column
	 * reads the same pixel, as in the original). */
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;
		size_t n = by == 0 ? BS * bx + tx : tile + tx - cols;
		size_t s = by == last_y ? cols * BS * last_y + BS * bx + cols * (BS - 1) + tx
					: tile + cols * BS + tx;

		north[ty][tx] = ld_global(&j[n]);
		south[ty][tx] = ld_global(&j[s]);
	}
	__syncthreads();
	/* The column left of and right of the tile. */
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;
		size_t w = bx == 0 ? cols * BS * by + cols * ty : tile + cols * ty - 1;
		size_t e = bx == last_x ? cols * BS * by + BS * last_x + cols * ty + BS - 1
					: tile + cols * ty + BS;

		west[ty][tx] = ld_global(&j[w]);
		east[ty][tx] = ld_global(&j[e]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;

		temp[ty][tx] = ld_global(&j[tile + cols * ty + tx]);
	}
	__syncthreads();

	EMU_FOR_THREADS {
		const unsigned tx = threadIdx.x, ty = threadIdx.y;
		float jc = temp[ty][tx];
		/* Inside the tile the neighbours come from the tile itself. */
		float n = (ty == 0 ? north[ty][tx] : temp[ty - 1][tx]) - jc;
		float s = (ty == BS - 1 ? south[ty][tx] : temp[ty + 1][tx]) - jc;
		float w = (tx == 0 ? west[ty][tx] : temp[ty][tx - 1]) - jc;
		float e = (tx == BS - 1 ? east[ty][tx] : temp[ty][tx + 1]) - jc;

		temp_result[ty][tx] = srad_coefficient(jc, n, s, w, e, args->q0sqr);
		dn[ty][tx] = n;
		ds[ty][tx] = s;
		dw[ty][tx] = w;
		de[ty][tx] = e;
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const unsigned tx = threadIdx.x, ty = threadIdx.y;
		const size_t index = tile + cols * ty + tx;

		st_global(&args->c_cuda[index], temp_result[ty][tx]);
		st_global(&args->e_c[index], de[ty][tx]);
		st_global(&args->w_c[index], dw[ty][tx]);
		st_global(&args->s_c[index], ds[ty][tx]);
		st_global(&args->n_c[index], dn[ty][tx]);
	}
}

EMU_KERNEL(srad_cuda_2, struct srad_cuda_2_args)
{
	EMU_SHARED float south_c[BS][BS], east_c[BS][BS];
	EMU_SHARED float c_cuda_temp[BS][BS], c_cuda_result[BS][BS], temp[BS][BS];
	const float *c = args->c_cuda;
	const size_t cols = (size_t)args->cols;
	const size_t bx = blockIdx.x, by = blockIdx.y;
	const size_t last_x = gridDim.x - 1, last_y = gridDim.y - 1;
	const size_t tile = cols * BS * by + BS * bx;

	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;

		temp[ty][tx] = ld_global(&args->j_cuda[tile + cols * ty + tx]);
	}
	__syncthreads();
	/* Coefficients of the row below the tile (the tile's own last row at
	 * the bottom edge of the image)... */
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;
		size_t s = by == last_y ? cols * BS * last_y + BS * bx + cols * (BS - 1) + tx
					: tile + cols * BS + tx;

		south_c[ty][tx] = ld_global(&c[s]);
	}
	__syncthreads();
	/* ... and of the column to its right. */
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;
		size_t e = bx == last_x ? cols * BS * by + BS * last_x + cols * ty + BS - 1
					: tile + cols * ty + BS;

		east_c[ty][tx] = ld_global(&c[e]);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;

		c_cuda_temp[ty][tx] = ld_global(&c[tile + cols * ty + tx]);
	}
	__syncthreads();

	EMU_FOR_THREADS {
		const unsigned tx = threadIdx.x, ty = threadIdx.y;
		const size_t index = tile + cols * ty + tx;
		float cc = c_cuda_temp[ty][tx];
		/* North and west use the pixel's own coefficient, as the
		 * original does. */
		float cs = ty == BS - 1 ? south_c[ty][tx] : c_cuda_temp[ty + 1][tx];
		float ce = tx == BS - 1 ? east_c[ty][tx] : c_cuda_temp[ty][tx + 1];

		c_cuda_result[ty][tx] =
		    srad_update(temp[ty][tx], cc, cs, cc, ce, ld_global(&args->n_c[index]),
				ld_global(&args->s_c[index]), ld_global(&args->w_c[index]),
				ld_global(&args->e_c[index]), args->lambda);
	}
	__syncthreads();
	EMU_FOR_THREADS {
		const size_t tx = threadIdx.x, ty = threadIdx.y;

		st_global(&args->j_cuda[tile + cols * ty + tx], c_cuda_result[ty][tx]);
	}
}
