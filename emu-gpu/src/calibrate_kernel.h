/* SPDX-License-Identifier: MIT */
/*
 * calibrate_kernel.h - the calibration kernel (calibrate_kernel.c), in a file
 * of its own: a build that counts basic blocks (EMUGPU_COUNT_BLOCKS)
 * instruments it as it instruments programs, and nothing else of the
 * executor.
 */
#ifndef EG_CALIBRATE_KERNEL_H
#define EG_CALIBRATE_KERNEL_H

#include <stdint.h>

#include "emugpu.h"

struct calib_args {
	const float *x, *y;
	float *z;
	uint64_t n;
};

EMU_KERNEL_DECLARE(emu_calibration_triad, struct calib_args);

#endif
