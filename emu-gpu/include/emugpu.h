/* SPDX-License-Identifier: MIT */
/*
 * emugpu.h - write GPU-style kernels in C and run them on CPU worker threads.
 *
 * A kernel is a C function run once per CTA (thread block). Inside it the
 * author loops over the CTA's threads with EMU_FOR_THREADS; a __syncthreads()
 * barrier is the boundary between two such loops (loop fission, as MCUDA
 * does), and a per-thread value that must survive a barrier lives in a
 * per-thread array (EMU_PER_THREAD). A ported kernel keeps the original's
 * structure and reads close to it:
 *
 *	struct vecadd_args { const float *a, *b; float *c; int n; };
 *
 *	EMU_KERNEL(vecadd, struct vecadd_args)
 *	{
 *		EMU_FOR_THREADS {
 *			int i = blockIdx.x * blockDim.x + threadIdx.x;
 *			if (i >= args->n)
 *				EMU_RETURN;
 *			args->c[i] = args->a[i] + args->b[i];
 *		}
 *
 * (EMU_FOR_THREADS_BELOW(args->n) { ... } says the same without the check in
 * the loop, and vectorizes.)
 *	}
 *
 *	EMU_LAUNCH(vecadd, emu_dim3(n / 256, 1, 1), emu_dim3(256, 1, 1), 0, a, b, c, n);
 *	cudaDeviceSynchronize();
 *
 * Launches are asynchronous and run in order on the one default stream. The
 * argument struct is copied at launch, and every pointer in it - at any
 * 8-byte-aligned offset - into a live managed (or zero-copy) allocation is
 * translated to the device view, so that the kernel's accesses take GPU far
 * faults under the emulator. Pointers a kernel reads out of memory are
 * translated with EMU_DEV(p). Natively translation is the identity and kernels
 * run unchanged. Keep pointers as pointers and sizes as 64-bit fields where
 * you can: a word made of two packed ints that happened to equal an address
 * inside a live allocation would be translated too (the lookup makes it all
 * but impossible, not impossible).
 *
 * A thread loop that walks memory (a column pass: one thread per column,
 * each looping over rows) reads like a GPU when EMU_FOR_THREADS sits inside
 * the loop over rows, so that the CTA's threads step together as a warp does.
 */
#ifndef EMUGPU_H
#define EMUGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "uvmemu.h"
/* C11 atomics and the GMMU accessors are the CPU executor's alone. */
#ifndef __CUDACC__
#include <stdatomic.h>

#include "uvmemu_gmmu.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Public entry points stay visible when the library builds with
 * -fvisibility=hidden. */
#pragma GCC visibility push(default)

/* --------------------------------------------------------------- the CTA */

struct emu_cta {
	dim3 block_idx, block_dim, grid_dim; /* read them as blockIdx, blockDim, gridDim */
	unsigned nthreads;		     /* block_dim.x * block_dim.y * block_dim.z */
	unsigned sm;			     /* the SM (worker group) running this CTA */
	void *shared;	     /* dynamic shared memory (64-byte aligned), NULL if none */
	size_t shared_bytes; /* its size, as given at launch */
	uint64_t launch;     /* launch index of the kernel */
	const struct uvmemu_view_map *views; /* for EMU_DEV */
	const struct uvmemu_gmmu *gmmu;	     /* for the GMMU accessors */
	/* The runtime's model clock (NULL: none): its word says a lane of the
	 * running warp took a far fault, and the warp's end waits for it. */
	const struct uvmemu_slot *slot;
};

typedef void (*emu_kernel_fn)(const struct emu_cta *cta, const void *args);

struct emu_kernel {
	const char *name;
	emu_kernel_fn fn;
	size_t args_size;
	dim3 block; /* the one block shape it runs in (EMU_KERNEL_BLOCK); 0s: any */
};

/*
 * Compiled by nvcc, the same kernel source becomes CUDA (emugpu_cuda.h): what
 * follows, up to the launch API, is the CPU executor's form of the dialect.
 */
#ifdef __CUDACC__
#include "emugpu_cuda.h"
#endif
#ifndef __CUDACC__

/* A shared array (CUDA's __shared__ T s[N]) is a local array of the kernel
 * body, one per CTA: the marker makes it __shared__ in the CUDA build. */
#define EMU_SHARED
/* A function of the kernels (CUDA's __device__), and one the host calls too,
 * as a CPU reference does (__host__ __device__): ordinary functions here. */
#define EMU_DEVICE
#define EMU_HOST_DEVICE

/*
 * EMU_KERNEL(name, args_type) { body } defines the kernel `name` (a
 * struct emu_kernel) whose body sees `args` (const args_type *) and the CTA
 * built-ins. EMU_KERNEL_DECLARE(name, args_type) declares one defined in
 * another file.
 *
 * `args` and the built-ins point to copies local to the CTA, and the body sees
 * both pointers as restrict-qualified (nothing else writes the copies): the
 * compiler then knows that the kernel's stores cannot change them, keeps the
 * pointers and blockIdx/blockDim in registers across the thread loops and can
 * vectorize a loop that stores ints. Read through a pointer it cannot prove
 * unaliased, every args->p[i] would reload args->p; that alone made the stream
 * triad twice as slow.
 */
#define EMU_KERNEL_DECLARE(name, args_type)                                                        \
	typedef args_type name##_args_t;                                                           \
	extern const struct emu_kernel name

#define EMU_KERNEL(name, args_type) EMU_KERNEL_DEFINE_(name, args_type, 0, 0, 0)

/*
 * EMU_KERNEL_BLOCK(name, args_type, bx, by, bz) { body } defines a kernel that
 * runs only in CTAs of bx x by x bz threads (constants), as OpenCL's
 * reqd_work_group_size: a launch with another block shape fails with
 * cudaErrorInvalidConfiguration. In the body blockDim is then a constant, so
 * the thread loops have counts known at compile time, as a CUDA kernel written
 * for one BLOCK_SIZE compiles: bounds checks on threadIdx fold away, and small
 * loops unroll and vectorize as the same loops over constants do.
 */
#define EMU_KERNEL_BLOCK(name, args_type, bx, by, bz)                                              \
	EMU_KERNEL_DEFINE_(name, args_type, bx, by, bz)

/* A shape of 0 x 0 x 0 is any shape. */
#define EMU_KERNEL_DEFINE_(name, args_type, bx, by, bz)                                            \
	typedef args_type name##_args_t;                                                           \
	static inline __attribute__((always_inline)) void name##_body(                             \
	    const struct emu_cta *__restrict emu_cta_, const args_type *__restrict args);          \
	static void name##_entry(const struct emu_cta *cta, const void *a)                         \
	{                                                                                          \
		struct emu_cta cta_copy_ = *cta;                                                   \
		const args_type args_copy_ = *(const args_type *)a;                                \
		if ((bx) != 0) {                                                                   \
			cta_copy_.block_dim = (dim3){(bx), (by), (bz)};                            \
			cta_copy_.nthreads = (bx) * (by) * (bz);                                   \
		}                                                                                  \
		/* Two copies of the body: natively (no slot word) the thread                      \
		 * loops are single segments and vectorize as plain loops do. */                   \
		if (cta_copy_.slot)                                                                \
			name##_body(&cta_copy_, &args_copy_);                                      \
		else                                                                               \
			name##_body(&cta_copy_, &args_copy_);                                      \
	}                                                                                          \
	const struct emu_kernel name = {                                                           \
	    #name, name##_entry, sizeof(args_type), {(bx), (by), (bz)}};                           \
	static void name##_body(const struct emu_cta *__restrict emu_cta_,                         \
				const args_type *__restrict args)

/* CTA built-ins, usable anywhere `emu_cta_` is in scope (kernel bodies, and
 * device functions that take EMU_DEVICE_PARAMS). */
#define blockIdx	  (emu_cta_->block_idx)
#define blockDim	  (emu_cta_->block_dim)
#define gridDim		  (emu_cta_->grid_dim)
#define EMU_DEVICE_PARAMS const struct emu_cta *emu_cta_
#define EMU_DEVICE_ARGS	  emu_cta_

/*
 * One loop over the CTA's threads in x-fastest order; the body sees
 * `threadIdx` (const dim3). EMU_RETURN ends this thread's part of the loop
 * (what `return` does in a CUDA thread); `continue` and `break` do the same.
 * A body need not use threadIdx (a loop that only counts threads is fine).
 *
 * The innermost loop is a plain counted loop over x with its bound read once;
 * the one-pass loop inside it only declares threadIdx and catches `break`,
 * and the compiler removes it, so a body without per-thread control flow
 * (no early return, no conditional store) vectorizes across threads. A bounds
 * check such as `if (i >= n) EMU_RETURN;` keeps the loop scalar on x86-64's
 * baseline SSE2, which has no masked stores: write it as the loop's range
 * with EMU_FOR_THREADS_BELOW or EMU_FOR_THREADS_IN (below).
 *
 * The compiler is told CUDA's limits on the bounds (x, y <= 1024, z <= 64;
 * launches check them): `(int)threadIdx.x` then cannot wrap, so it stays an
 * induction variable the compiler strength-reduces and vectorizes, as with a
 * tile size known at compile time. Without that a 16 x 16 stencil's thread
 * loops ran 17% more instructions than the same loops over constants.
 */
/*
 * With the GMMU accessors, each thread loop starts a new set of warp accesses
 * (a barrier separates them) and each thread tells the executor its warp
 * before its first access; the thread-loop condition, evaluated once per
 * thread while emu_once_ is set, is where that call fits.
 */
#ifdef EMUGPU_GMMU
unsigned emu_gmmu_loop_(void);
int emu_gmmu_thread_(unsigned loop, unsigned tid);
#define EMU_GMMU_LOOP_ , emu_gl_ = emu_gmmu_loop_()
#define EMU_GMMU_THREAD_                                                                           \
	&&emu_gmmu_thread_(emu_gl_, (emu_tz_ * emu_ny_ + emu_ty_) * emu_nx_ + emu_tx_)
#else
#define EMU_GMMU_LOOP_
#define EMU_GMMU_THREAD_
#endif

static inline unsigned emu_block_dim_(unsigned v, unsigned max)
{
	if (v > max)
		__builtin_unreachable();
	return v;
}

/* Threads [0, n) of a CTA along one axis, the first of them at global index
 * `base`: the first thread whose global index is at least `bound` (n if none). */
static inline unsigned emu_first_at_(int64_t bound, int64_t base, unsigned n)
{
	if (bound <= base)
		return 0;
	return bound - base >= (int64_t)n ? n : (unsigned)(bound - base);
}

/*
 * The model clock (uvmemu.h): the lanes of a warp issue together, so they
 * share its issue time, and a CTA's warps interleave, so a far fault stalls
 * the CTA's slot only at the thread loop's end. The x loop runs in segments
 * that end where a warp does (every UVMEMU_WARP_SIZE threads in linear
 * order); after a warp-ending segment a flag test, set by the runtime when a
 * lane faulted, tells it the warp ended, and at the loop's end the same
 * flag decides whether to wait. With no model clock (natively) a row is one
 * segment and the test never passes; the kernel's entry runs a copy of the
 * body made for that case (EMU_KERNEL_DEFINE_), whose loops vectorize as
 * plain loops do.
 */
static inline int emu_seg_end_(unsigned w, int xs, unsigned x1, unsigned row)
{
	int e;

	if (!w)
		return (int)x1;
	e = xs + (int)(w - (row + (unsigned)xs) % w);
	return e < (int)x1 ? e : (int)x1;
}

static inline uint32_t emu_attention_(const struct emu_cta *c)
{
	return c->slot ? atomic_load_explicit(&c->slot->attention, memory_order_relaxed) : 0;
}

static inline void emu_warp_check_(const struct emu_cta *c, unsigned w, unsigned end)
{
	if (w && end % w == 0 && (emu_attention_(c) & UVMEMU_ATTN_WARP))
		uvmemu_warp_end();
}

/* At a thread loop's end (a barrier): its warps' faults, the last warp's
 * whole or not. */
static inline int emu_loop_end_(const struct emu_cta *c)
{
	if (emu_attention_(c))
		uvmemu_barrier();
	return 0;
}

/* The thread loop over x in [x0, x1), y in [y0, y1) and every z; the bounds may
 * name emu_nx_ and emu_ny_ (the block's x and y) and are evaluated once. */
#define EMU_FOR_THREADS_RANGE_(x0, x1, y0, y1)                                                     \
	for (unsigned emu_tz_ = 0, emu_nx_ = emu_block_dim_(blockDim.x, 1024),                     \
		      emu_ny_ = emu_block_dim_(blockDim.y, 1024),                                  \
		      emu_nz_ = emu_block_dim_(blockDim.z, 64), emu_x0_ = (x0), emu_x1_ = (x1),    \
		      emu_y0_ = (y0), emu_y1_ = (y1),                                              \
		      emu_w_ = emu_cta_->slot ? UVMEMU_WARP_SIZE : 0 EMU_GMMU_LOOP_;               \
	     emu_tz_ < emu_nz_ || emu_loop_end_(emu_cta_); emu_tz_++)                              \
		for (unsigned emu_ty_ = emu_y0_,                                                   \
			      emu_row_ = (emu_tz_ * emu_ny_ + emu_ty_) * emu_nx_;                  \
		     emu_ty_ < emu_y1_; emu_ty_++, emu_row_ += emu_nx_)                            \
			for (int emu_xs_ = (int)emu_x0_,                                           \
				 emu_xe_ = emu_seg_end_(emu_w_, emu_xs_, emu_x1_, emu_row_);       \
			     emu_xs_ < (int)emu_x1_;                                               \
			     emu_warp_check_(emu_cta_, emu_w_, emu_row_ + (unsigned)emu_xe_),      \
				 emu_xs_ = emu_xe_,                                                \
				 emu_xe_ = emu_seg_end_(emu_w_, emu_xs_, emu_x1_, emu_row_))       \
				for (int emu_tx_ = emu_xs_, emu_once_ = 1; emu_tx_ < emu_xe_;      \
				     emu_tx_++, emu_once_ = 1)                                     \
					for (const dim3 threadIdx __attribute__((                  \
						 unused)) = {(unsigned)emu_tx_, emu_ty_, emu_tz_}; \
					     emu_once_ EMU_GMMU_THREAD_; emu_once_ = 0)

#define EMU_FOR_THREADS EMU_FOR_THREADS_RANGE_(0, emu_nx_, 0, emu_ny_)

/*
 * EMU_FOR_THREADS_IN(x_lo, x_hi, y_lo, y_hi) { body } is EMU_FOR_THREADS run
 * by only the threads whose global index (blockIdx.x * blockDim.x +
 * threadIdx.x, and the same along y) lies in [x_lo, x_hi) x [y_lo, y_hi):
 * what a CUDA thread does that starts with
 *
 *	if (x < x_lo || x >= x_hi || y < y_lo || y >= y_hi) return;
 *
 * EMU_FOR_THREADS_BELOW(n) is the one-dimensional `if (i >= n) return;`. The
 * bounds are int64_t values the same for every thread of the CTA (they are
 * evaluated once per loop, before any thread runs). The loop's own range is
 * cut to those threads, so the check is not inside the loop: a body without
 * other control flow vectorizes across threads, which it cannot with the check
 * inside (x86-64's baseline SSE2 has no masked stores). The other threads
 * skip the body, as after an EMU_RETURN; threadIdx and emu_tid are unchanged.
 */
#define EMU_FOR_THREADS_IN(x_lo, x_hi, y_lo, y_hi)                                                 \
	EMU_FOR_THREADS_RANGE_(emu_first_at_((x_lo), (int64_t)blockIdx.x *emu_nx_, emu_nx_),       \
			       emu_first_at_((x_hi), (int64_t)blockIdx.x *emu_nx_, emu_nx_),       \
			       emu_first_at_((y_lo), (int64_t)blockIdx.y *emu_ny_, emu_ny_),       \
			       emu_first_at_((y_hi), (int64_t)blockIdx.y *emu_ny_, emu_ny_))
#define EMU_FOR_THREADS_BELOW(n) EMU_FOR_THREADS_IN(0, (n), 0, INT64_MAX)

/*
 * EMU_FOR_THREADS_IDX_IN(x_lo, x_hi, y_lo, y_hi) { body } is the same window
 * on threadIdx itself, [x_lo, x_hi) x [y_lo, y_hi) of the CTA's threads: a
 * thread that starts with
 *
 *	if (threadIdx.x < x_lo || threadIdx.x >= x_hi || ...) return;
 *
 * on bounds the whole CTA shares (a tile's band, the part of a tile inside
 * the grid, as a shared-memory stencil computes them). Bounds are int64_t,
 * clipped to the block, evaluated once per loop; an empty window runs no
 * thread.
 */
#define EMU_FOR_THREADS_IDX_IN(x_lo, x_hi, y_lo, y_hi)                                             \
	EMU_FOR_THREADS_RANGE_(                                                                    \
	    emu_first_at_((x_lo), 0, emu_nx_), emu_first_at_((x_hi), 0, emu_nx_),                  \
	    emu_first_at_((y_lo), 0, emu_ny_), emu_first_at_((y_hi), 0, emu_ny_))
#define EMU_RETURN continue

/* Linear thread index inside the CTA, for per-thread arrays. */
#define emu_tid ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)

/* A per-thread variable that lives across barriers: EMU_PER_THREAD(float, sum);
 * then sum[emu_tid] inside the thread loops. */
#define EMU_PER_THREAD(type, name) type name[emu_cta_->nthreads]

/* The barrier is the boundary between two EMU_FOR_THREADS loops; this marks
 * it in ported code and does nothing by itself. */
#define __syncthreads() ((void)0)

/* Dynamic shared memory as an array of `type` (CUDA's extern __shared__). */
#define emu_shared(type) ((type *)emu_cta_->shared)

/* Translate a managed pointer read from memory to the device view (the
 * memory system notes that the launch used its allocation). */
#define EMU_DEV(p) ((__typeof__(p))uvmemu_kernel_ptr(emu_cta_->views, (p)))

#endif /* !__CUDACC__ */

static inline dim3 emu_dim3(unsigned x, unsigned y, unsigned z)
{
	dim3 d = {x, y, z};
	return d;
}

/* ------------------------------------------------------------------ launch */

/*
 * Launches `kernel` asynchronously on the default stream. `args` points to its
 * argument struct (kernel->args_size bytes, at most 4 KB), copied before the
 * call returns. Returns cudaErrorInvalidConfiguration for a zero or oversized
 * grid or block (CUDA's limits: grid x < 2^31, y and z <= 65535; block x and
 * y <= 1024, z <= 64, at most 1024 threads per CTA), cudaErrorInvalidValue
 * for shared memory above the per-CTA limit (48 KB, CUDA's limit without the
 * opt-in attribute), a NULL kernel or missing arguments, and
 * cudaErrorNotSupported when called from inside a kernel; such errors are
 * also recorded for cudaGetLastError(). Kernel faults (an invalid pointer:
 * cudaErrorIllegalAddress) are reported by cudaDeviceSynchronize() and
 * cudaGetLastError(); the process goes on.
 */
cudaError_t emu_launch(const struct emu_kernel *kernel, dim3 grid, dim3 block, size_t shared_bytes,
		       const void *args);

/* Typed launch: the trailing arguments initialise the kernel's argument struct
 * (positionally or with designators), so types are checked by the compiler. */
#define EMU_LAUNCH(kernel, grid, block, shared_bytes, ...)                                         \
	emu_launch(&(kernel), (grid), (block), (shared_bytes), &(kernel##_args_t){__VA_ARGS__})

/* The CUDA-style entry (cudaLaunchKernel's shape): `args` is the argument
 * struct; only the default stream (0) is accepted, another gives
 * cudaErrorInvalidResourceHandle. */
cudaError_t emuLaunchKernel(const struct emu_kernel *func, dim3 grid, dim3 block, const void *args,
			    size_t sharedMem, cudaStream_t stream);

/* The resolved executor configuration, for reports and tests. */
struct emu_info {
	unsigned sms, ctas_per_sm, workers;
	/* Workers that run every kernel, one per core the process may use (its
	 * affinity mask); the others join only kernels whose CTAs block. */
	unsigned main_workers;
	const char *dispatch; /* "asc", "desc" or "switch" */
	bool pinned;
	bool gmmu; /* accessors built in */
	size_t max_shared_bytes;
};
void emu_get_info(struct emu_info *info);

#ifndef __CUDACC__ /* the CUDA build has CUDA's atomics and plain accesses */

/* ----------------------------------------------------------------- atomics */

/*
 * CUDA's atomics on global (or shared) memory, relaxed like the originals,
 * on int, unsigned, long, long long, their unsigned forms, float and double.
 * They return the old value. The helpers act on plain objects through C11
 * atomics on the same representation.
 */
#define EMU_ATOMIC_INT_OPS(T, sfx)                                                                 \
	static inline T emu_atomic_add_##sfx(T *p, T v)                                            \
	{                                                                                          \
		return atomic_fetch_add_explicit((_Atomic T *)p, v, memory_order_relaxed);         \
	}                                                                                          \
	static inline T emu_atomic_sub_##sfx(T *p, T v)                                            \
	{                                                                                          \
		return atomic_fetch_sub_explicit((_Atomic T *)p, v, memory_order_relaxed);         \
	}                                                                                          \
	static inline T emu_atomic_and_##sfx(T *p, T v)                                            \
	{                                                                                          \
		return atomic_fetch_and_explicit((_Atomic T *)p, v, memory_order_relaxed);         \
	}                                                                                          \
	static inline T emu_atomic_or_##sfx(T *p, T v)                                             \
	{                                                                                          \
		return atomic_fetch_or_explicit((_Atomic T *)p, v, memory_order_relaxed);          \
	}                                                                                          \
	static inline T emu_atomic_xor_##sfx(T *p, T v)                                            \
	{                                                                                          \
		return atomic_fetch_xor_explicit((_Atomic T *)p, v, memory_order_relaxed);         \
	}                                                                                          \
	static inline T emu_atomic_exch_##sfx(T *p, T v)                                           \
	{                                                                                          \
		return atomic_exchange_explicit((_Atomic T *)p, v, memory_order_relaxed);          \
	}                                                                                          \
	static inline T emu_atomic_cas_##sfx(T *p, T expected, T desired)                          \
	{                                                                                          \
		atomic_compare_exchange_strong_explicit((_Atomic T *)p, &expected, desired,        \
							memory_order_relaxed,                      \
							memory_order_relaxed);                     \
		return expected;                                                                   \
	}                                                                                          \
	static inline T emu_atomic_min_##sfx(T *p, T v)                                            \
	{                                                                                          \
		T old = atomic_load_explicit((_Atomic T *)p, memory_order_relaxed);                \
		while (v < old && !atomic_compare_exchange_weak_explicit((_Atomic T *)p, &old, v,  \
									 memory_order_relaxed,     \
									 memory_order_relaxed))    \
			;                                                                          \
		return old;                                                                        \
	}                                                                                          \
	static inline T emu_atomic_max_##sfx(T *p, T v)                                            \
	{                                                                                          \
		T old = atomic_load_explicit((_Atomic T *)p, memory_order_relaxed);                \
		while (v > old && !atomic_compare_exchange_weak_explicit((_Atomic T *)p, &old, v,  \
									 memory_order_relaxed,     \
									 memory_order_relaxed))    \
			;                                                                          \
		return old;                                                                        \
	}

EMU_ATOMIC_INT_OPS(int, i32)
EMU_ATOMIC_INT_OPS(unsigned, u32)
EMU_ATOMIC_INT_OPS(long, il)
EMU_ATOMIC_INT_OPS(unsigned long, ul)
EMU_ATOMIC_INT_OPS(long long, i64)
EMU_ATOMIC_INT_OPS(unsigned long long, u64)

/*
 * Floating-point atomics work on the bit pattern with compare-and-swap, so
 * they stay exact under contention (each update applied once, in some order).
 * F is the float type, U the unsigned integer of the same size.
 */
#define EMU_ATOMIC_FLOAT_OPS(F, U, sfx)                                                            \
	static inline U emu_fbits_##sfx(F f)                                                       \
	{                                                                                          \
		U u;                                                                               \
		memcpy(&u, &f, sizeof u);                                                          \
		return u;                                                                          \
	}                                                                                          \
	static inline F emu_bitsf_##sfx(U u)                                                       \
	{                                                                                          \
		F f;                                                                               \
		memcpy(&f, &u, sizeof f);                                                          \
		return f;                                                                          \
	}                                                                                          \
	static inline F emu_atomic_add_##sfx(F *p, F v)                                            \
	{                                                                                          \
		_Atomic U *q = (_Atomic U *)(void *)p;                                             \
		U old = atomic_load_explicit(q, memory_order_relaxed);                             \
		while (!atomic_compare_exchange_weak_explicit(                                     \
		    q, &old, emu_fbits_##sfx(emu_bitsf_##sfx(old) + v), memory_order_relaxed,      \
		    memory_order_relaxed))                                                         \
			;                                                                          \
		return emu_bitsf_##sfx(old);                                                       \
	}                                                                                          \
	static inline F emu_atomic_sub_##sfx(F *p, F v)                                            \
	{                                                                                          \
		return emu_atomic_add_##sfx(p, -v);                                                \
	}                                                                                          \
	static inline F emu_atomic_exch_##sfx(F *p, F v)                                           \
	{                                                                                          \
		return emu_bitsf_##sfx(atomic_exchange_explicit(                                   \
		    (_Atomic U *)(void *)p, emu_fbits_##sfx(v), memory_order_relaxed));            \
	}                                                                                          \
	static inline F emu_atomic_cas_##sfx(F *p, F expected, F desired)                          \
	{                                                                                          \
		U e = emu_fbits_##sfx(expected);                                                   \
		atomic_compare_exchange_strong_explicit(                                           \
		    (_Atomic U *)(void *)p, &e, emu_fbits_##sfx(desired), memory_order_relaxed,    \
		    memory_order_relaxed);                                                         \
		return emu_bitsf_##sfx(e);                                                         \
	}                                                                                          \
	static inline F emu_atomic_min_##sfx(F *p, F v)                                            \
	{                                                                                          \
		_Atomic U *q = (_Atomic U *)(void *)p;                                             \
		U old = atomic_load_explicit(q, memory_order_relaxed);                             \
		while (v < emu_bitsf_##sfx(old) &&                                                 \
		       !atomic_compare_exchange_weak_explicit(q, &old, emu_fbits_##sfx(v),         \
							      memory_order_relaxed,                \
							      memory_order_relaxed))               \
			;                                                                          \
		return emu_bitsf_##sfx(old);                                                       \
	}                                                                                          \
	static inline F emu_atomic_max_##sfx(F *p, F v)                                            \
	{                                                                                          \
		_Atomic U *q = (_Atomic U *)(void *)p;                                             \
		U old = atomic_load_explicit(q, memory_order_relaxed);                             \
		while (v > emu_bitsf_##sfx(old) &&                                                 \
		       !atomic_compare_exchange_weak_explicit(q, &old, emu_fbits_##sfx(v),         \
							      memory_order_relaxed,                \
							      memory_order_relaxed))               \
			;                                                                          \
		return emu_bitsf_##sfx(old);                                                       \
	}

EMU_ATOMIC_FLOAT_OPS(float, uint32_t, f32)
EMU_ATOMIC_FLOAT_OPS(double, uint64_t, f64)

#define EMU_ATOMIC_DISPATCH_ALL(op, p)                                                             \
	_Generic((p), int *: emu_atomic_##op##_i32, unsigned *: emu_atomic_##op##_u32,             \
		 long *: emu_atomic_##op##_il, unsigned long *: emu_atomic_##op##_ul,               \
		 long long *: emu_atomic_##op##_i64, unsigned long long *: emu_atomic_##op##_u64,   \
		 float *: emu_atomic_##op##_f32, double *: emu_atomic_##op##_f64)
#define EMU_ATOMIC_DISPATCH_INT(op, p)                                                             \
	_Generic((p), int *: emu_atomic_##op##_i32, unsigned *: emu_atomic_##op##_u32,             \
		 long *: emu_atomic_##op##_il, unsigned long *: emu_atomic_##op##_ul,               \
		 long long *: emu_atomic_##op##_i64, unsigned long long *: emu_atomic_##op##_u64)

/* An atomic is a read-modify-write of global memory: with GMMU accessors it
 * counts and, on a REMOTE block, crosses the link both ways (EMU_GMMU_RMW_,
 * below; a plain pointer without them). */
#define atomicAdd(p, v)	   EMU_ATOMIC_DISPATCH_ALL(add, p)(EMU_GMMU_RMW_(p), (v))
#define atomicSub(p, v)	   EMU_ATOMIC_DISPATCH_ALL(sub, p)(EMU_GMMU_RMW_(p), (v))
#define atomicExch(p, v)   EMU_ATOMIC_DISPATCH_ALL(exch, p)(EMU_GMMU_RMW_(p), (v))
#define atomicMin(p, v)	   EMU_ATOMIC_DISPATCH_ALL(min, p)(EMU_GMMU_RMW_(p), (v))
#define atomicMax(p, v)	   EMU_ATOMIC_DISPATCH_ALL(max, p)(EMU_GMMU_RMW_(p), (v))
#define atomicCAS(p, e, d) EMU_ATOMIC_DISPATCH_ALL(cas, p)(EMU_GMMU_RMW_(p), (e), (d))
#define atomicAnd(p, v)	   EMU_ATOMIC_DISPATCH_INT(and, p)(EMU_GMMU_RMW_(p), (v))
#define atomicOr(p, v)	   EMU_ATOMIC_DISPATCH_INT(or, p)(EMU_GMMU_RMW_(p), (v))
#define atomicXor(p, v)	   EMU_ATOMIC_DISPATCH_INT(xor, p)(EMU_GMMU_RMW_(p), (v))

/* ---------------------------------------------------------- GMMU accessors */

/*
 * ld_global(p) reads *p, st_global(p, v) writes *p = v. Built out (default)
 * they are plain accesses. Built in (EMUGPU_GMMU), they count and charge
 * accesses as the hardware does for a warp's coalesced transactions
 * (uvmemu_gmmu.h): the k-th access of each thread of a warp in one thread
 * loop is one warp access, counted once per 64 KB block it touches and, for
 * a REMOTE block, charged once per distinct 32-byte sector. Threads run one
 * after another, so the executor remembers, per access index, what the
 * warp's earlier threads touched (gmmu.c). Threads that diverge make
 * different numbers of accesses; their k-th accesses still pair up, as if
 * the warp's divergent paths had been one instruction stream. They need
 * `emu_cta_` in scope (kernel bodies, device functions with
 * EMU_DEVICE_PARAMS). Under --fault-path uvmmu an access to a block that is
 * not resident is resolved by calling into the runtime (no userfaultfd).
 */
#ifdef EMUGPU_GMMU
const void *emu_gmmu_access_(const struct uvmemu_gmmu *g, uintptr_t addr, size_t n, bool store);
/* An atomic's access: counted once, as a store; on a REMOTE block its
 * sectors are charged both ways (the request carries the operand, the
 * completion the old value). */
void *emu_gmmu_rmw_(const struct uvmemu_gmmu *g, uintptr_t addr, size_t n);

static inline void *emu_gmmu_rmw(const struct uvmemu_gmmu *g, void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;

	if (a < g->dev_lo || a >= g->dev_hi)
		return p;
	return emu_gmmu_rmw_(g, a, n);
}

static inline const void *emu_gmmu_load(const struct uvmemu_gmmu *g, const void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;

	if (a < g->dev_lo || a >= g->dev_hi)
		return p;
	return emu_gmmu_access_(g, a, n, false);
}

static inline void *emu_gmmu_store(const struct uvmemu_gmmu *g, void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;

	if (a < g->dev_lo || a >= g->dev_hi)
		return p;
	return (void *)emu_gmmu_access_(g, a, n, true);
}

#define ld_global(p) (*(const __typeof__(*(p)) *)emu_gmmu_load(emu_cta_->gmmu, (p), sizeof(*(p))))
#define st_global(p, v)                                                                            \
	(*(__typeof__(&*(p)))emu_gmmu_store(emu_cta_->gmmu, (p), sizeof(*(p))) = (v))
#define EMU_GMMU_RMW_(p) ((__typeof__(&*(p)))emu_gmmu_rmw(emu_cta_->gmmu, (p), sizeof(*(p))))
#else
#define ld_global(p)	 (*(p))
#define st_global(p, v)	 (*(p) = (v))
#define EMU_GMMU_RMW_(p) (p)
#endif

#endif /* !__CUDACC__ */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* EMUGPU_H */
