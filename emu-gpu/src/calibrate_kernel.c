// SPDX-License-Identifier: MIT
/* calibrate_kernel.c - STREAM's triad, z = 3x + y on floats (calibrate.c). */
#include "calibrate_kernel.h"

EMU_KERNEL(emu_calibration_triad, struct calib_args)
{
	EMU_FOR_THREADS_BELOW((int64_t)args->n) {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		args->z[i] = 3.0f * args->x[i] + args->y[i];
	}
}
