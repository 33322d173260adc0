// SPDX-License-Identifier: MIT
/* preset.c - us-hotspot: Rodinia hotspot (workloads/hotspot) as UVMSmart runs
 * it (benchmarks/Managed/hotspot/run: hotspot 1024 2 8 temp_1024 power_1024):
 * a generated 1024 x 1024 floorplan, 8 time steps, 2 per launch. */
#include "wl.h"

WL_PRESET(.name = "us-hotspot", .origin = "UVMSmart's hotspot/run: hotspot 1024 2 8",
	  .args = "--pyramid 2 --iterations 8", .input = "--rows 1024 --cols 1024");
