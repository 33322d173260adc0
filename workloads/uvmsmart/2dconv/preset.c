// SPDX-License-Identifier: MIT
/* preset.c - us-2dconv: PolyBench/GPU 2DCONV (workloads/2dconv) at UVMSmart's
 * NI = NJ = 1024 (benchmarks/Managed/2DCONV/2DConvolution.cu). */
#include "wl.h"

WL_PRESET(.name = "us-2dconv", .origin = "UVMSmart's 2DCONV: NI = NJ = 1024",
	  .input = "--ni 1024 --nj 1024");
