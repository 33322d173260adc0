// SPDX-License-Identifier: MIT
/*
 * kernels.c - the two sssp kernels, one thread per node.
 *
 * Kernel 1 only lowers updating_cost (atomically, so concurrent relaxations
 * of one node keep the smallest) and reads cost, which only kernel 2 writes:
 * the result of a round does not depend on the order CTAs run in.
 */
#include "sssp.h"

EMU_KERNEL(sssp_kernel1, struct sssp_kernel1_args)
{
	EMU_FOR_THREADS {
		int32_t tid = (int32_t)(blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x);
		int32_t end;

		if (tid >= args->no_of_nodes || !ld_global(&args->mask[tid]))
			EMU_RETURN;
		st_global(&args->mask[tid], false);
		end = tid < args->no_of_nodes - 1 ? ld_global(&args->nodes[tid + 1])
						  : args->edge_list_size;
		for (int32_t i = ld_global(&args->nodes[tid]); i < end; i++) {
			int32_t id = ld_global(&args->edges[i]);

			atomicMin(&args->updating_cost[id],
				  ld_global(&args->cost[tid]) + ld_global(&args->weights[i]));
		}
	}
}

EMU_KERNEL(sssp_kernel2, struct sssp_kernel2_args)
{
	EMU_FOR_THREADS {
		int32_t tid = (int32_t)(blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x);

		if (tid >= args->no_of_nodes)
			EMU_RETURN;
		if (ld_global(&args->cost[tid]) > ld_global(&args->updating_cost[tid])) {
			st_global(&args->cost[tid], ld_global(&args->updating_cost[tid]));
			st_global(&args->mask[tid], true);
			st_global(args->changed, true);
		}
		st_global(&args->updating_cost[tid], ld_global(&args->cost[tid]));
	}
}
