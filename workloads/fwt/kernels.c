// SPDX-License-Identifier: MIT
/*
 * kernels.c - fwt's three kernels and the host code that launches them, the
 * CUDA samples' structure:
 *
 *   fwt_batch2_kernel  one radix-4 pass in global memory: a grid of
 *                      n / 1024 x batch CTAs of 256 threads, one butterfly
 *                      of 4 elements at `stride` per thread. Launched while
 *                      the remaining transform is larger than 2^11 floats,
 *                      with strides n/4, n/16, ... (down to 2^11 for the
 *                      original's 2^23);
 *   fwt_batch1_kernel  the rest of the transform, one CTA per remaining
 *                      piece of at most 2^11 floats (n/4 threads), in shared
 *                      memory: radix-4 stages, then a radix-2 stage when the
 *                      piece's log2 size is odd;
 *   fwt_modulate_kernel  data *= kernel / n, 128 CTAs of 256 threads
 *                      striding over all elements.
 *
 * A transform is the passes plus the shared-memory kernel; the convolution
 * is transform(data), transform(kernel), modulate, transform(data).
 */
#include "fwt.h"

#include "emugpu.h"

struct fwt_pass_args {
	float *d;
	int64_t stride; /* distance between a butterfly's elements */
	int64_t n;	/* elements per vector (the whole transform's) */
};

EMU_KERNEL(fwt_batch2_kernel, struct fwt_pass_args)
{
	/* blockIdx.y is the vector of the batch. */
	float *d = args->d + (int64_t)blockIdx.y * args->n;
	const int64_t stride = args->stride;

	EMU_FOR_THREADS {
		const int64_t pos = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		const int64_t i0 = (int64_t)fwt_first((uint64_t)pos, (uint64_t)stride);
		float d0 = ld_global(&d[i0]), d1 = ld_global(&d[i0 + stride]);
		float d2 = ld_global(&d[i0 + 2 * stride]), d3 = ld_global(&d[i0 + 3 * stride]);

		fwt_radix4(&d0, &d1, &d2, &d3);
		st_global(&d[i0], d0);
		st_global(&d[i0 + stride], d1);
		st_global(&d[i0 + 2 * stride], d2);
		st_global(&d[i0 + 3 * stride], d3);
	}
}

struct fwt_elementary_args {
	float *d;
	int64_t log2n; /* log2 of this CTA's piece (<= 11) */
};

EMU_KERNEL(fwt_batch1_kernel, struct fwt_elementary_args)
{
	const int64_t n = (int64_t)1 << args->log2n;
	float *d = args->d + (int64_t)blockIdx.x * n;
	float *s = emu_shared(float);

	/* Each thread loads 4 elements, blockDim.x apart (coalesced). The loop
	 * over them sits outside the thread loop, so that the CTA's threads
	 * take each step together, as warps do (here and below). */
	for (int64_t base = 0; base < n; base += blockDim.x)
		EMU_FOR_THREADS {
			s[base + threadIdx.x] = ld_global(&d[base + threadIdx.x]);
		}
	__syncthreads();
	for (int64_t stride = n >> 2; stride > 0; stride >>= 2) {
		EMU_FOR_THREADS {
			const int64_t i0 = (int64_t)fwt_first(threadIdx.x, (uint64_t)stride);

			fwt_radix4(&s[i0], &s[i0 + stride], &s[i0 + 2 * stride],
				   &s[i0 + 3 * stride]);
		}
		__syncthreads();
	}
	if (args->log2n & 1) {
		for (int64_t base = 0; base < n / 2; base += blockDim.x)
			EMU_FOR_THREADS {
				const int64_t pos = base + threadIdx.x;

				fwt_radix2(&s[2 * pos], &s[2 * pos + 1]);
			}
		__syncthreads();
	}
	for (int64_t base = 0; base < n; base += blockDim.x)
		EMU_FOR_THREADS {
			st_global(&d[base + threadIdx.x], s[base + threadIdx.x]);
		}
}

struct fwt_modulate_args {
	float *a;
	const float *b;
	int64_t count; /* elements in all */
	float rcpn;
};

EMU_KERNEL(fwt_modulate_kernel, struct fwt_modulate_args)
{
	const int64_t threads = (int64_t)blockDim.x * gridDim.x;

	/* The grid-stride loop sits outside the thread loop: at each step the
	 * CTA's threads touch one contiguous 1 KB, as a GPU's warps do. (Inside
	 * it, each thread would sweep the whole array before the next began.) */
	for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < args->count; base += threads)
		EMU_FOR_THREADS {
			const int64_t pos = base + threadIdx.x;

			if (pos >= args->count)
				EMU_RETURN;
			st_global(&args->a[pos],
				  fwt_modulate(ld_global(&args->a[pos]), ld_global(&args->b[pos]),
					       args->rcpn));
		}
}

/* One transform of every vector of `d` in place; returns the launches. */
static int fwt_transform(const struct wl *w, float *d, int batch, int log2n)
{
	const int64_t n = (int64_t)1 << log2n;
	/* The grid of the passes stays the whole vector's, as the original's. */
	const dim3 grid = emu_dim3((unsigned)(n / (4 * FWT_PASS_THREADS)), (unsigned)batch, 1);
	int64_t pieces = batch;
	int launches = 0;

	for (; log2n > FWT_ELEMENTARY_LOG2; log2n -= 2, pieces <<= 2, launches++)
		WL_CHECK(w, EMU_LAUNCH(fwt_batch2_kernel, grid, emu_dim3(FWT_PASS_THREADS, 1, 1), 0,
				       d, ((int64_t)1 << log2n) / 4, n));
	WL_CHECK(w, EMU_LAUNCH(fwt_batch1_kernel, emu_dim3((unsigned)pieces, 1, 1),
			       emu_dim3((unsigned)(1u << log2n) / 4, 1, 1), sizeof(float) << log2n,
			       d, log2n));
	return launches + 1;
}

int fwt_gpu(const struct wl *w, const struct fwt_problem *p)
{
	int launches = 0;

	launches += fwt_transform(w, p->data, p->batch, p->log2n);
	launches += fwt_transform(w, p->kern, p->batch, p->log2n);
	WL_CHECK(w, EMU_LAUNCH(fwt_modulate_kernel, emu_dim3(FWT_MOD_CTAS, 1, 1),
			       emu_dim3(FWT_MOD_THREADS, 1, 1), 0, p->data, p->kern,
			       (int64_t)fwt_elems(p), 1.0f / (float)((int64_t)1 << p->log2n)));
	launches++;
	launches += fwt_transform(w, p->data, p->batch, p->log2n);
	WL_CHECK(w, cudaDeviceSynchronize());
	return launches;
}
