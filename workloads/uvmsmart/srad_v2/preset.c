// SPDX-License-Identifier: MIT
/* preset.c - us-srad_v2: Rodinia srad_v2 (workloads/srad_v2) as UVMSmart runs
 * it (benchmarks/Managed/srad_v2/run: srad 1024 1024 0 127 0 127 0.5 4), with
 * the coefficient and the derivatives in device memory as its srad.cu has
 * them. */
#include "wl.h"

WL_PRESET(.name = "us-srad_v2",
	  .origin = "UVMSmart's srad_v2/run: srad 1024 1024 0 127 0 127 0.5 4",
	  .args = "--scratch device --r1 0 --r2 127 --c1 0 --c2 127 --lambda 0.5 --iterations 4",
	  .input = "--rows 1024 --cols 1024");
