/* SPDX-License-Identifier: MIT */
/*
 * rt.h - what a runtime provides to the shared front ends.
 *
 * cuda_api.c and api.c implement every exported symbol once, for both
 * libraries; they validate arguments and call the uvm_rt_* functions below,
 * which each library defines its own way (native.c: plain memory; the
 * emulator's shim: the memory system). Because both libraries are built from
 * the same front ends, they export exactly the same symbols, which is what
 * lets libuvmemu.so interpose on libuvmemu_native.so under LD_PRELOAD.
 * Functions return 0 or a negative errno.
 */
#ifndef UVM_RT_H
#define UVM_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ranges.h"
#include "session.h"
#include "stats.h"
#include "uvmemu.h"
#include "uvmemu_gmmu.h"

enum uvm_ptr_kind {
	UVM_PTR_OTHER = 0,	/* not ours: plain host memory */
	UVM_PTR_MANAGED,	/* cudaMallocManaged */
	UVM_PTR_DEVICE,		/* cudaMalloc */
	UVM_PTR_HOST_PINNED,	/* cudaMallocHost / cudaHostAlloc */
	UVM_PTR_HOST_REGISTERED /* cudaHostRegister */
};

/* The process-wide runtime's session, created on first use. */
struct uvm_session *uvm_rt_session(void);
bool uvm_rt_emulated(void);

int uvm_rt_alloc(enum uvm_ptr_kind kind, size_t size, void **out);
/* Frees an allocation made by uvm_rt_alloc of the given kind; -EINVAL if p is
 * not the start of one. */
int uvm_rt_free(enum uvm_ptr_kind kind, void *p);
int uvm_rt_host_register(void *p, size_t size);
int uvm_rt_host_unregister(void *p);
/* Kind of the allocation containing p (UVM_PTR_OTHER if none). Device-view
 * addresses of managed memory count as UVM_PTR_MANAGED. */
enum uvm_ptr_kind uvm_rt_classify(const void *p);
/*
 * Where the n > 0 bytes at p lie (p + n does not wrap): 0 when one
 * allocation holds them all; -ENOENT when they touch no allocation and no
 * memory the runtime keeps for its own (plain host memory: the program's
 * business); -EINVAL otherwise, past an allocation's end into another or
 * into the runtime's reserved address space. *out is the allocation they
 * touch (host-view base, size, kind), left alone when they touch none.
 * Device-view addresses count as their allocation's.
 */
int uvm_rt_span(const void *p, size_t n, struct uvm_range *out);

void uvm_rt_label(const void *p, const char *name);

/* `kind` was checked (0..4) and pointers are not NULL. */
int uvm_rt_memcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
int uvm_rt_memset(void *p, int value, size_t n);
int uvm_rt_advise(const void *p, size_t n, enum cudaMemoryAdvise advice, int device);
int uvm_rt_prefetch(const void *p, size_t n, int device);
/* Waits for the memory system's own asynchronous work (prefetches). */
int uvm_rt_synchronize(void);
void uvm_rt_mem_info(size_t *free_bytes, size_t *total_bytes);

void uvm_rt_view_map(struct uvmemu_view_map *map);
/* uvmemu_fault_is_capture: async-signal-safe, never starts the runtime. */
int uvm_rt_fault_is_capture(const void *addr);
void *uvm_rt_host_ptr(const void *device_ptr);
const struct uvmemu_gmmu *uvm_rt_gmmu(void);

uint64_t uvm_rt_kernel_begin(const struct uvmemu_launch *launch, uint64_t index);
void uvm_rt_kernel_end(uint64_t index);
void uvm_rt_cta(uint64_t launch, unsigned cta, unsigned sm, bool begin);
const struct uvmemu_slot *uvm_rt_worker_register(unsigned sm, unsigned slot);
/* The model clock (model/gpu.h): a worker's hand-outs, its warps' and
 * thread loops' (barrier) ends, the host's modelled time (0 where there is
 * none). */
void uvm_rt_run(uint64_t ncta, bool begin);
void uvm_rt_warp_end(bool barrier);
/* --schedule model's turns (uvmemu.h): whether workers take turns (ASK),
 * the calling worker's wait for its turn (TAKE), its pass (PASS); false
 * natively and when they do not. */
enum uvm_turn_op { UVM_TURN_ASK, UVM_TURN_TAKE, UVM_TURN_PASS };
bool uvm_rt_turn(enum uvm_turn_op op);
uint64_t uvm_rt_host_time(void);
/* A launch's way through the executor begins (returns the host's modelled
 * time, its clock paused) or ends (the host goes on from host_ns and the
 * model's launch cost); 0 and nothing natively. */
uint64_t uvm_rt_launch(bool begin, uint64_t host_ns);
/* The session's calibration fields were just set (--dilation auto). */
void uvm_rt_calibrated(void);
/* The model's dilation (1 natively). */
double uvm_rt_dilation(void);

#endif
