// SPDX-License-Identifier: MIT
/* device.c - the calling host thread's current device (cudaSetDevice). Apart
 * from cuda_api.c so that the memory system can read it (which GPU's view a
 * launch reaches) without the CUDA front end and the runtime behind it. */
#include "device.h"

/* CUDA's current device is per host thread, 0 until it is set. */
static _Thread_local int current_device;

int uvm_front_device(void)
{
	return current_device;
}

void uvm_front_set_device(int device)
{
	current_device = device;
}
