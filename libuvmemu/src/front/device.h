/* SPDX-License-Identifier: MIT */
/*
 * device.h - the GPUs a run models (--gpus N, devices 0..N-1), as the CUDA
 * API sees them (cuda_api.c): the calling host thread's current device
 * (cudaSetDevice; each thread starts at 0, as in CUDA) and which devices
 * have enabled peer access to which (cudaDeviceEnablePeerAccess), for the
 * runtimes and the memory system behind them.
 */
#ifndef UVM_FRONT_DEVICE_H
#define UVM_FRONT_DEVICE_H

#include <stdbool.h>

#include "uvmemu.h"

/* The most GPUs a run models: --gpus's bound (uvmemu_options.def), and the
 * side of the session's table of peer access (session.h). */
#define UVM_GPUS_MAX UVMEMU_MAX_DEVICES

/* The calling thread's current device (0 until it calls cudaSetDevice). */
int uvm_front_device(void);
/* Sets it (cudaSetDevice, which checked the device). */
void uvm_front_set_device(int device);
/* The session's --gpus. */
int uvm_front_device_count(void);
/* Whether `device` has enabled peer access to `peer` (false for a device
 * outside 0..N-1, and for device == peer). */
bool uvm_front_peer_enabled(int device, int peer);

#endif
