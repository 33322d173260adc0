// SPDX-License-Identifier: MIT
/*
 * kernels.c - us-sssp's three kernels, one thread per vertex in CTAs of 16.
 * The relaxing kernel only lowers `updating` (atomically, so concurrent
 * relaxations of a vertex keep the smallest) and reads `dist`, which only the
 * committing kernel writes: an iteration's result does not depend on the
 * order CTAs run in.
 */
#include "sssp.h"

EMU_KERNEL(us_sssp_init, struct us_sssp_init_args)
{
	EMU_FOR_THREADS_BELOW(args->nodes) {
		const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		const bool src = tid == args->source;

		st_global(&args->finalized[tid], src);
		st_global(&args->dist[tid], src ? 0.0f : US_SSSP_INF);
		st_global(&args->updating[tid], src ? 0.0f : US_SSSP_INF);
	}
}

EMU_KERNEL(us_sssp_relax, struct us_sssp_relax_args)
{
	EMU_FOR_THREADS_BELOW(args->nodes) {
		const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
		int64_t end;

		if (!ld_global(&args->finalized[tid]))
			EMU_RETURN;
		st_global(&args->finalized[tid], false);
		end = tid + 1 < args->nodes ? ld_global(&args->vertex[tid + 1]) : args->edges_count;
		for (int64_t e = ld_global(&args->vertex[tid]); e < end; e++)
			atomicMin(&args->updating[ld_global(&args->edges[e])],
				  ld_global(&args->dist[tid]) + ld_global(&args->weights[e]));
	}
}

EMU_KERNEL(us_sssp_commit, struct us_sssp_commit_args)
{
	EMU_FOR_THREADS_BELOW(args->nodes) {
		const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (ld_global(&args->dist[tid]) > ld_global(&args->updating[tid])) {
			st_global(&args->dist[tid], ld_global(&args->updating[tid]));
			st_global(&args->finalized[tid], true);
		}
		st_global(&args->updating[tid], ld_global(&args->dist[tid]));
	}
}
