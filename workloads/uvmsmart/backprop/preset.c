// SPDX-License-Identifier: MIT
/* preset.c - us-backprop: Rodinia backprop (workloads/backprop) as UVMSmart
 * runs it (benchmarks/Managed/backprop/run: backprop 131056), the second
 * kernel adjusting a copy of the initial weights as its backprop.cu does. */
#include "wl.h"

WL_PRESET(.name = "us-backprop", .origin = "UVMSmart's backprop/run: backprop 131056",
	  .args = "--adjust-copy", .input = "--inputs 131056");
