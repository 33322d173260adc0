// SPDX-License-Identifier: MIT
/*
 * fill.c - the inputs of the two-GPU workloads (mgpu.h): the init kernel of
 * --mode peer, which writes every element on GPU 0, and the host's loop that
 * writes the same values in the other modes.
 */
#include "mgpu.h"

#define MGPU_FILL_THREADS 256

struct mgpu_fill_args {
	float *v;
	int64_t n;
	uint64_t key;
	int64_t kind;
};

EMU_KERNEL(mgpu_fill_kernel, struct mgpu_fill_args)
{
	EMU_FOR_THREADS_BELOW(args->n) {
		int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		st_global(&args->v[i], mgpu_value(args->key, i, (enum mgpu_fill)args->kind));
	}
}

void mgpu_values(float *v, int64_t n, uint64_t key, enum mgpu_fill kind)
{
	for (int64_t i = 0; i < n; i++)
		v[i] = mgpu_value(key, i, kind);
}

void mgpu_fill(const struct wl *w, const struct mgpu *m, float *v, int64_t n, uint64_t key,
	       enum mgpu_fill kind)
{
	if (m->mode != MGPU_PEER) {
		mgpu_values(v, n, key, kind);
		return;
	}
	mgpu_set_device(w, MGPU_INIT_DEV);
	WL_CHECK(w, EMU_LAUNCH(
			mgpu_fill_kernel,
			emu_dim3((unsigned)((n + MGPU_FILL_THREADS - 1) / MGPU_FILL_THREADS), 1, 1),
			emu_dim3(MGPU_FILL_THREADS, 1, 1), 0, v, n, key, kind));
	WL_CHECK(w, cudaDeviceSynchronize());
}
