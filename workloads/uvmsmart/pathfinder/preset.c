// SPDX-License-Identifier: MIT
/* preset.c - us-pathfinder: Rodinia pathfinder (workloads/pathfinder) as
 * UVMSmart runs it (benchmarks/Managed/pathfinder/run: pathfinder 50000 200
 * 10, 20 launches). */
#include "wl.h"

WL_PRESET(.name = "us-pathfinder", .origin = "UVMSmart's pathfinder/run: pathfinder 50000 200 10",
	  .args = "--rows 200 --pyramid 10", .input = "--cols 50000");
