// SPDX-License-Identifier: MIT
/* preset.c - us-fdtd2d: PolyBench/GPU FDTD-2D (workloads/fdtd2d) at UVMSmart's
 * NX = NY = 1280 and tmax = 20 (benchmarks/Managed/FDTD-2D/fdtd2d.cu and run:
 * 20 iterations, 60 launches). */
#include "wl.h"

WL_PRESET(.name = "us-fdtd2d", .origin = "UVMSmart's FDTD-2D: NX = NY = 1280, tmax = 20",
	  .args = "--tmax 20", .input = "--nx 1280 --ny 1280");
