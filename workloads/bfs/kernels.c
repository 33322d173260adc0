// SPDX-License-Identifier: MIT
/*
 * kernels.c - the two bfs kernels, one thread per node.
 *
 * Several frontier threads may write the same neighbour's cost and updating
 * flag in one launch; they all write the same values (the level is the same
 * for the whole frontier), which is why the original needs no atomics.
 */
#include "bfs.h"

EMU_KERNEL(bfs_kernel1, struct bfs_kernel1_args)
{
	EMU_FOR_THREADS {
		int32_t tid = (int32_t)(blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x);
		struct bfs_node node;

		if (tid >= args->no_of_nodes || !ld_global(&args->mask[tid]))
			EMU_RETURN;
		st_global(&args->mask[tid], false);
		node = ld_global(&args->nodes[tid]);
		for (int32_t i = node.start; i < node.start + node.degree; i++) {
			int32_t id = ld_global(&args->edges[i]);

			if (!ld_global(&args->visited[id])) {
				st_global(&args->cost[id], ld_global(&args->cost[tid]) + 1);
				st_global(&args->updating[id], true);
			}
		}
	}
}

EMU_KERNEL(bfs_kernel2, struct bfs_kernel2_args)
{
	EMU_FOR_THREADS {
		int32_t tid = (int32_t)(blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x);

		if (tid >= args->no_of_nodes || !ld_global(&args->updating[tid]))
			EMU_RETURN;
		st_global(&args->mask[tid], true);
		st_global(&args->visited[tid], true);
		st_global(args->over, true);
		st_global(&args->updating[tid], false);
	}
}
