// SPDX-License-Identifier: MIT
/* kernels.c - the dialect's constructs, for emu-gpu and (nvcc) a real GPU. */
#include "dialect.h"

EMU_KERNEL(dialect_loops, struct loops_args)
{
	EMU_FOR_THREADS {
		int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;

		args->all[y * LOOPS_W + x] = 1;
	}
	EMU_FOR_THREADS_BELOW(args->below_n) {
		int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;

		args->below[y * LOOPS_W + x] = 1;
	}
	EMU_FOR_THREADS_IN(5, 19, 2, 7) {
		int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;

		args->in[y * LOOPS_W + x] = 1;
	}
	EMU_FOR_THREADS_IDX_IN(1, 6, 1, 3) {
		int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;

		args->idx[y * LOOPS_W + x] = 1;
	}
	/* A thread that returns leaves this loop only: it runs the next. */
	EMU_FOR_THREADS {
		int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;

		if (x % 3 == 0)
			EMU_RETURN;
		args->ret[y * LOOPS_W + x] += 1;
	}
	EMU_FOR_THREADS {
		int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;

		args->ret[y * LOOPS_W + x] += 10;
	}
}

EMU_DEVICE static int cta_value(EMU_DEVICE_PARAMS)
{
	return dialect_cta_value(blockIdx.x);
}

EMU_KERNEL_BLOCK(dialect_shared, struct shared_args, SHARED_BLOCK, 1, 1)
{
	EMU_SHARED int s[SHARED_BLOCK];
	EMU_PER_THREAD(int, mine);
	int *d = emu_shared(int);

	EMU_FOR_THREADS {
		s[threadIdx.x] = (int)(blockIdx.x * SHARED_BLOCK + threadIdx.x);
		mine[emu_tid] = (int)threadIdx.x * 3;
		d[threadIdx.x] = (int)threadIdx.x + 1000;
	}
	__syncthreads();
	EMU_FOR_THREADS {
		unsigned g = blockIdx.x * SHARED_BLOCK + threadIdx.x;

		args->reversed[g] = s[SHARED_BLOCK - 1 - threadIdx.x] + mine[emu_tid];
		args->rotated[g] = d[(threadIdx.x + 1) % SHARED_BLOCK];
	}
	EMU_FOR_THREADS_IDX_IN(0, 1, 0, 1) {
		args->cta[blockIdx.x] = cta_value(EMU_DEVICE_ARGS);
	}
}

EMU_KERNEL(dialect_atomics, struct atomic_args)
{
	struct atomic_words *w = args->w;

	EMU_FOR_THREADS {
		unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
		double old;

		atomicAdd(&w->i, 1);
		atomicSub(&w->i_sub, 2);
		atomicMin(&w->i_min, (int)g - 100);
		atomicMax(&w->i_max, (int)g - 100);
		atomicAdd(&w->u, 3u);
		atomicAdd(&w->l, 5l);
		atomicMin(&w->l_min, -(long)g * 1000000000l);
		atomicAnd(&w->ul_and, ~(1ul << (g % 64)));
		atomicOr(&w->ul_or, 1ul << (g % 40));
		atomicXor(&w->ul_xor, (unsigned long)g << 20);
		atomicAdd(&w->ll, 7ll);
		atomicAdd(&w->ull, 1ull << 33);
		atomicSub(&w->ull_sub, 9ull);
		atomicAdd(&w->f, 1.0f);
		atomicSub(&w->f_sub, 0.5f);
		atomicMin(&w->f_min, (float)g * -0.25f);
		atomicMax(&w->f_max, (float)g * 0.25f);
		atomicAdd(&w->d, 0.125);
		atomicSub(&w->d_sub, 0.25);
		atomicMin(&w->d_min, (double)g - 0.5);
		atomicMax(&w->d_max, (double)g + 0.5);
		/* Each id goes in once and comes out once (or stays). */
		old = atomicExch(&w->d_exch, (double)(g + 1));
		atomicAdd(&args->seen[(unsigned)old], 1u);
		/* An increment by compare-and-swap on a float. */
		for (float f = 0, got; (got = atomicCAS(&w->f_cas, f, f + 1.0f)) != f;)
			f = got;
	}
}
