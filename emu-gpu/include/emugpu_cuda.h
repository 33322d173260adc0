/* SPDX-License-Identifier: MIT */
/*
 * emugpu_cuda.h - the kernel dialect of emugpu.h as CUDA, for nvcc.
 *
 * emugpu.h includes this in place of the CPU executor's macros when nvcc
 * compiles a kernel file (__CUDACC__), so that one kernel source runs on the
 * executor and on a real GPU. The mapping:
 *
 *   EMU_KERNEL(k, T) { body }   a __global__ function taking T by value, whose
 *                               body sees `args` (const T *) as on the CPU, and
 *                               the struct emu_kernel `k` whose function
 *                               launches it (emu_launch of the CUDA build,
 *                               emu-gpu/cuda/launch.c, calls it)
 *   EMU_KERNEL_BLOCK(...)       the same with __launch_bounds__ of that shape
 *   EMU_FOR_THREADS { ... }     the thread's own body: a one-pass loop, so that
 *                               EMU_RETURN (continue) and break end it as they
 *                               end the thread's turn on the CPU
 *   _BELOW, _IN, _IDX_IN        the same, entered when the thread's (global or
 *                               CTA) index lies in the window
 *   the end of a thread loop    __syncthreads(): on the CPU a barrier is the
 *                               boundary between two thread loops, so every
 *                               loop ends with one here; the code between
 *                               loops is the same for every thread of a CTA
 *                               (it cannot see threadIdx), so every thread
 *                               reaches it
 *   __syncthreads()             a marker, as on the CPU (the loop's end is the
 *                               barrier)
 *   EMU_SHARED                  __shared__
 *   EMU_DEVICE                  __device__
 *   EMU_HOST_DEVICE             __host__ __device__
 *   EMU_PER_THREAD(T, v)        one T in the thread's registers; v[i] is it
 *   emu_shared(T)               extern __shared__ (dynamic shared memory)
 *   EMU_DEV(p), ld_global(p),   the identity and plain accesses: a GPU reaches
 *   st_global(p, v)             managed memory through one address
 *   atomicAdd ... atomicXor     CUDA's own where it has the type; the other
 *                               types of the CPU executor (long, unsigned
 *                               long, 64-bit subtraction, float and double
 *                               exchange, compare-and-swap, min and max) by
 *                               the same bits or a compare-and-swap loop
 *
 * What does not map (emu-gpu/README.md): code between thread loops runs once
 * per CTA on the CPU and once per thread here, so it must not store to
 * memory or use atomics; a variable of the kernel body written inside a
 * thread loop and read after it is one per CTA on the CPU and one per thread
 * here (make it an EMU_SHARED array, or EMU_PER_THREAD); emu_cta_ and the
 * executor's own fields (cta->sm, cta->launch) do not exist.
 */
#ifndef EMUGPU_CUDA_H
#define EMUGPU_CUDA_H

#ifdef __cplusplus
extern "C++" {
#endif

#define EMU_KERNEL_DECLARE(name, args_type)                                                        \
	typedef args_type name##_args_t;                                                           \
	extern "C" const struct emu_kernel name

#define EMU_KERNEL(name, args_type) EMU_KERNEL_DEFINE_(name, args_type, 0, 0, 0, )
#define EMU_KERNEL_BLOCK(name, args_type, bx, by, bz)                                              \
	EMU_KERNEL_DEFINE_(name, args_type, bx, by, bz, __launch_bounds__((bx) * (by) * (bz)))

/*
 * The argument struct travels by value, as CUDA's parameters do; the body
 * gets a pointer to it, as on the CPU, and is inlined into the __global__
 * function so that its reads are parameter loads. The host-side launcher is
 * the struct emu_kernel's function: it reads the shape from the struct
 * emu_cta that emu_launch fills.
 */
#define EMU_KERNEL_DEFINE_(name, args_type, bx, by, bz, bounds)                                    \
	typedef args_type name##_args_t;                                                           \
	static __device__ __forceinline__ void name##_body(const args_type *__restrict__ args);    \
	static __global__ void bounds name##_gpu(const args_type a)                                \
	{                                                                                          \
		name##_body(&a);                                                                   \
	}                                                                                          \
	static void name##_launch(const struct emu_cta *cta, const void *a)                        \
	{                                                                                          \
		name##_gpu<<<cta->grid_dim, cta->block_dim, cta->shared_bytes>>>(                  \
		    *(const args_type *)a);                                                        \
	}                                                                                          \
	extern "C" const struct emu_kernel name = {                                                \
	    #name, name##_launch, sizeof(args_type), {(bx), (by), (bz)}};                          \
	static __device__ __forceinline__ void name##_body(const args_type *__restrict__ args)

/* Device functions take no CTA description: the built-ins are CUDA's. */
#define EMU_DEVICE_PARAMS int emu_no_cta_ __attribute__((unused))
#define EMU_DEVICE_ARGS	  0

#define EMU_SHARED	__shared__
#define EMU_DEVICE	__device__
#define EMU_HOST_DEVICE __host__ __device__

/* `cond` is evaluated once per thread before its body; the barrier comes
 * after the body whatever the body did (EMU_RETURN, break). (__syncthreads)
 * names CUDA's barrier past the marker macro below. */
#define EMU_THREAD_WHEN_(cond)                                                                     \
	for (int emu_run_ = (cond), emu_left_ = 1; emu_left_; (__syncthreads)(), emu_left_ = 0)    \
		for (; emu_run_; emu_run_ = 0)

static __device__ __forceinline__ bool emu_in_(int64_t v, int64_t lo, int64_t hi)
{
	return v >= lo && v < hi;
}

#define EMU_FOR_THREADS EMU_THREAD_WHEN_(1)
#define EMU_FOR_THREADS_IN(x_lo, x_hi, y_lo, y_hi)                                                 \
	EMU_THREAD_WHEN_(emu_in_((int64_t)blockIdx.x *blockDim.x + threadIdx.x, (x_lo), (x_hi)) && \
			 emu_in_((int64_t)blockIdx.y * blockDim.y + threadIdx.y, (y_lo), (y_hi)))
#define EMU_FOR_THREADS_BELOW(n) EMU_FOR_THREADS_IN(0, (n), 0, INT64_MAX)
#define EMU_FOR_THREADS_IDX_IN(x_lo, x_hi, y_lo, y_hi)                                             \
	EMU_THREAD_WHEN_(emu_in_(threadIdx.x, (x_lo), (x_hi)) &&                                   \
			 emu_in_(threadIdx.y, (y_lo), (y_hi)))
#define EMU_RETURN continue

#define emu_tid ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)

/* A per-thread variable is the thread's own: v[emu_tid] names it. */
template <typename T> struct emu_per_thread_ {
	T v;
	__device__ __forceinline__ T &operator[](unsigned)
	{
		return v;
	}
};
#define EMU_PER_THREAD(type, name) emu_per_thread_<type> name

#define __syncthreads() ((void)0)

extern __shared__ __align__(64) unsigned char emu_dynamic_shared_[];
#define emu_shared(type) ((type *)emu_dynamic_shared_)

#define EMU_DEV(p)	(p)
#define ld_global(p)	(*(p))
#define st_global(p, v) (*(p) = (v))

/* ----------------------------------------------------------------- atomics */

/*
 * T is the dialect's type, W the word CUDA's bitwise and arithmetic atomics
 * take for it (two's complement makes them the same bits), M the type of its
 * min and max; `arg` is the value passed on, in terms of v.
 */
#define EMU_CUDA_INT_OP_(T, W, name, cuda, arg)                                                    \
	static __device__ __forceinline__ T emu_atomic_##name(T *p, T v)                           \
	{                                                                                          \
		return (T)(cuda)((W *)p, arg);                                                     \
	}
#define EMU_CUDA_INT_ATOMICS_(T, W, M)                                                             \
	EMU_CUDA_INT_OP_(T, W, add, atomicAdd, (W)v)                                               \
	EMU_CUDA_INT_OP_(T, W, sub, atomicAdd, (W)0 - (W)v)                                        \
	EMU_CUDA_INT_OP_(T, W, and, atomicAnd, (W)v)                                               \
	EMU_CUDA_INT_OP_(T, W, or, atomicOr, (W)v)                                                 \
	EMU_CUDA_INT_OP_(T, W, xor, atomicXor, (W)v)                                               \
	EMU_CUDA_INT_OP_(T, W, exch, atomicExch, (W)v)                                             \
	EMU_CUDA_INT_OP_(T, M, min, atomicMin, (M)v)                                               \
	EMU_CUDA_INT_OP_(T, M, max, atomicMax, (M)v)                                               \
	static __device__ __forceinline__ T emu_atomic_cas(T *p, T expected, T desired)            \
	{                                                                                          \
		return (T)(atomicCAS)((W *)p, (W)expected, (W)desired);                            \
	}

EMU_CUDA_INT_ATOMICS_(int, unsigned, int)
EMU_CUDA_INT_ATOMICS_(unsigned, unsigned, unsigned)
EMU_CUDA_INT_ATOMICS_(long, unsigned long long, long long)
EMU_CUDA_INT_ATOMICS_(unsigned long, unsigned long long, unsigned long long)
EMU_CUDA_INT_ATOMICS_(long long, unsigned long long, long long)
EMU_CUDA_INT_ATOMICS_(unsigned long long, unsigned long long, unsigned long long)

/*
 * Floating point: CUDA adds floats and doubles and exchanges floats; the rest
 * work on the bit pattern (F's bits in the unsigned word U), as the CPU
 * executor's do, so that min and max are exact under contention: a
 * compare-and-swap loop that stores v while `v cmp old` holds.
 */
#define EMU_CUDA_FLOAT_EXTREME_(F, U, to_bits, from_bits, name, cmp)                               \
	static __device__ __forceinline__ F emu_atomic_##name(F *p, F v)                           \
	{                                                                                          \
		U old = *(volatile U *)p, seen;                                                    \
		while (v cmp from_bits(old) &&                                                     \
		       (seen = (atomicCAS)((U *)p, old, (U)to_bits(v))) != old)                    \
			old = seen;                                                                \
		return from_bits(old);                                                             \
	}
#define EMU_CUDA_FLOAT_ATOMICS_(F, U, to_bits, from_bits)                                          \
	static __device__ __forceinline__ F emu_atomic_add(F *p, F v)                              \
	{                                                                                          \
		return (atomicAdd)(p, v);                                                          \
	}                                                                                          \
	static __device__ __forceinline__ F emu_atomic_sub(F *p, F v)                              \
	{                                                                                          \
		return (atomicAdd)(p, -v);                                                         \
	}                                                                                          \
	static __device__ __forceinline__ F emu_atomic_exch(F *p, F v)                             \
	{                                                                                          \
		return from_bits((atomicExch)((U *)p, (U)to_bits(v)));                             \
	}                                                                                          \
	static __device__ __forceinline__ F emu_atomic_cas(F *p, F expected, F desired)            \
	{                                                                                          \
		return from_bits((atomicCAS)((U *)p, (U)to_bits(expected), (U)to_bits(desired)));  \
	}                                                                                          \
	EMU_CUDA_FLOAT_EXTREME_(F, U, to_bits, from_bits, min, <)                                  \
	EMU_CUDA_FLOAT_EXTREME_(F, U, to_bits, from_bits, max, >)

EMU_CUDA_FLOAT_ATOMICS_(float, unsigned, __float_as_uint, __uint_as_float)
EMU_CUDA_FLOAT_ATOMICS_(double, unsigned long long, __double_as_longlong, __longlong_as_double)

#define atomicAdd(p, v)	   emu_atomic_add((p), (v))
#define atomicSub(p, v)	   emu_atomic_sub((p), (v))
#define atomicExch(p, v)   emu_atomic_exch((p), (v))
#define atomicMin(p, v)	   emu_atomic_min((p), (v))
#define atomicMax(p, v)	   emu_atomic_max((p), (v))
#define atomicCAS(p, e, d) emu_atomic_cas((p), (e), (d))
#define atomicAnd(p, v)	   emu_atomic_and((p), (v))
#define atomicOr(p, v)	   emu_atomic_or((p), (v))
#define atomicXor(p, v)	   emu_atomic_xor((p), (v))

#ifdef __cplusplus
}
#endif

#endif /* EMUGPU_CUDA_H */
