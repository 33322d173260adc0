// SPDX-License-Identifier: MIT
/* preset.c - us-atax: PolyBench/GPU ATAX (workloads/atax) at UVMSmart's
 * NX = NY = 1200 (benchmarks/Managed/ATAX/atax.cu). */
#include "wl.h"

WL_PRESET(.name = "us-atax", .origin = "UVMSmart's ATAX: NX = NY = 1200",
	  .input = "--nx 1200 --ny 1200");
