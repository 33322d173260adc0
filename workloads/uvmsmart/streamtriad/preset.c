// SPDX-License-Identifier: MIT
/* preset.c - us-streamtriad: STREAM's triad (workloads/stream) as UVMSmart's
 * StreamTriad runs it: N = 2^20 and one launch
 * (benchmarks/Managed/StreamTriad/stream_triad.cu). */
#include "wl.h"

WL_PRESET(.name = "us-streamtriad", .origin = "UVMSmart's StreamTriad: N = 2^20, one launch",
	  .args = "--iters 1", .input = "--n 1048576");
