// SPDX-License-Identifier: MIT
/* preset.c - us-bfs: Rodinia bfs (workloads/bfs) as UVMSmart runs it
 * (benchmarks/Managed/bfs/run: bfs graph256k.txt): a graphgen-style graph of
 * graph256k's 261,444 nodes, and the over flag in device memory as its bfs.cu
 * has it. */
#include "wl.h"

WL_PRESET(.name = "us-bfs", .origin = "UVMSmart's bfs/run: graph256k.txt, 261444 nodes",
	  .args = "--over device", .input = "--nodes 261444", .replaced_by = "--input");
