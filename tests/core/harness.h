/* SPDX-License-Identifier: MIT */
/*
 * harness.h - what the core tests share: an emulator instance with given
 * options, "GPU" threads (plain pthreads on the device view, standing in for
 * emu-gpu workers), and the device view's resident set from smaps.
 */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu_int.h"
#include "testing.h"

struct th_emu {
	struct uvm_session session;
	struct uvm_emu *e;
};

/* Starts an instance with options "name=value" (NULL-terminated list) over
 * --check 1 and the UVMEMU_* environment; exits 77 (skip) when this machine
 * cannot run the emulator, saying why. */
void th_start(struct th_emu *t, const char *const *opts);
void th_stop(struct th_emu *t);
/* The remap backend runs (one set of frames: REMOTE data is the host's). */
bool th_shared_frames(const struct th_emu *t);
void *th_managed(struct th_emu *t, size_t bytes);
/* The device-view address of a managed host-view pointer. */
void *th_dev(struct th_emu *t, const void *host_ptr);
/* The same, in GPU `gpu`'s device view (--gpus). */
void *th_dev_g(struct th_emu *t, const void *host_ptr, unsigned gpu);
struct uvm_stats th_stats(struct th_emu *t);
/* The state of the block holding `host` (UVM_HOST, UVM_DEVICE, ...) once the
 * driver is done with the batch that moved it: waits for the device, then
 * reads on the driver thread between two batches (a resolving ioctl may wake
 * the faulting thread before the state is recorded, and a read from the
 * test's thread would race with the driver's write). */
uint8_t th_block_state(struct th_emu *t, const void *host);

/* Runs fn(index, arg) on n threads and joins them. */
void th_parallel(int n, void (*fn)(int index, void *arg), void *arg);

/* Bytes of the device view resident in memory, summed over its mappings. */
uint64_t th_device_rss(struct th_emu *t);

#endif
