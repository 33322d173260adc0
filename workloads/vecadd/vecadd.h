/* SPDX-License-Identifier: MIT */
/* vecadd.h - the vecadd workload's kernel (kernel.c, compiled both ways). */
#ifndef VECADD_H
#define VECADD_H

#include <stdint.h>

#include "emugpu.h"

#define VECADD_THREADS 256

struct vecadd_args {
	const float *a, *b;
	float *c;
	int64_t n;
};

/* c[i] = a[i] + b[i] for i < n, one thread per element. */
EMU_KERNEL_DECLARE(vecadd_kernel, struct vecadd_args);

#endif
