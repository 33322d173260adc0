// SPDX-License-Identifier: MIT
/* preset.c - us-nw: Rodinia nw (workloads/nw) as UVMSmart runs it
 * (benchmarks/Managed/nw/run: needle 1024 10). */
#include "wl.h"

WL_PRESET(.name = "us-nw", .origin = "UVMSmart's nw/run: needle 1024 10", .args = "--penalty 10",
	  .input = "--n 1024");
