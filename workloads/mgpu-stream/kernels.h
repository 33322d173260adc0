/* SPDX-License-Identifier: MIT */
/*
 * kernels.h - STREAM's copy, scale and add beside stream's triad (triad.h),
 * on the same arguments: z from x (and y) for i < n, one thread per element.
 */
#ifndef MGPU_STREAM_KERNELS_H
#define MGPU_STREAM_KERNELS_H

#include "triad.h"

/* z[i] = x[i] */
EMU_KERNEL_DECLARE(stream_copy, struct triad_args);
/* z[i] = STREAM_SCALAR * x[i] */
EMU_KERNEL_DECLARE(stream_scale, struct triad_args);
/* z[i] = x[i] + y[i] */
EMU_KERNEL_DECLARE(stream_add, struct triad_args);

#endif
