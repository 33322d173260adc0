/* SPDX-License-Identifier: MIT */
/*
 * wl.h - conventions every workload shares: command-line options (with
 * --footprint SIZE and --seed N), managed allocation with checks, a seeded
 * random generator, exact result checks, and the verdict reported through
 * the uvmemu API. Workloads use only public headers (uvmemu.h, emugpu.h).
 */
#ifndef WL_H
#define WL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uvmemu.h"

enum wl_opt_type { WL_SIZE, WL_INT, WL_DOUBLE, WL_STR, WL_FLAG, WL_MEM };

/*
 * How a workload's data moves between host and GPU (--mem, for the workloads
 * whose options list WL_OPT_MEM; bench/gpu/validate runs each one):
 *   managed   managed memory migrated on demand (the default)
 *   explicit  cudaMalloc'd device arrays and pageable host copies, with
 *             cudaMemcpy where the workload says data crosses (wl_to_gpu,
 *             wl_to_host)
 *   prefetch  managed memory with cudaMemPrefetchAsync at those places
 *   advise    managed memory with the workload's cudaMemAdvise hints
 *             (wl_advise), on demand otherwise
 */
enum wl_mem { WL_MEM_MANAGED, WL_MEM_EXPLICIT, WL_MEM_PREFETCH, WL_MEM_ADVISE };
#define WL_OPT_MEM(w)                                                                              \
	{                                                                                          \
		"mem", WL_MEM, &(w)->mem, 0, 0,                                                    \
		    "managed, explicit, prefetch or advise: how data moves (default managed)"      \
	}

/* One workload-specific option: --name VALUE (or --name for a flag). */
struct wl_opt {
	const char *name;
	enum wl_opt_type type;
	void *dst;	    /* uint64_t*, long long*, double*, const char**, bool*, enum wl_mem* */
	long long min, max; /* bounds for WL_INT and WL_SIZE (max 0 = none) */
	const char *help;
};

struct wl {
	const char *name;
	uint64_t footprint; /* --footprint, 0 if not given */
	uint64_t seed;	    /* --seed, default 1 */
	bool quiet;	    /* --quiet: no progress lines */
	bool dry_run;	    /* --dry-run: size, allocate, print the footprint, stop */
	const char *output; /* --output FILE: where the result is written, or NULL */
	FILE *out;	    /* open while wl_output_* write it */
	enum wl_mem mem;    /* --mem */
};

/*
 * Parses argv: the common options (--footprint, --seed, --quiet, --help) and
 * `opts` (terminated by a {NULL} entry). A wrong option or value prints one
 * line naming it and the accepted values, and exits with status 2. With a
 * preset registered (below), the program takes the preset's name and reads
 * its arguments first.
 */
void wl_init(struct wl *w, const char *name, const char *summary, int argc, char **argv,
	     const struct wl_opt *opts);
/*
 * A preset: a second program built from a workload's sources that runs
 * another study's inputs by default (workloads/uvmsmart: UVMSmart's run
 * scripts), so that one implementation serves both. wl_init reads the
 * preset's words as if the user had typed them before their own arguments,
 * so an option the user gives wins:
 *   args         always (the program's shape, e.g. "--over device");
 *   input        the default input, dropped when the user sizes the input
 *                instead: --footprint, an option `input` names, or one of
 *                `replaced_by` (e.g. "--input").
 * Words are separated by single spaces. One source file of the program
 * registers it with WL_PRESET(.name = ..., ...), before main runs.
 */
struct wl_preset {
	const char *name;	 /* the program's name in its output */
	const char *origin;	 /* where the defaults come from, for --help */
	const char *args;	 /* may be NULL */
	const char *input;	 /* may be NULL */
	const char *replaced_by; /* may be NULL */
};
void wl_preset_register(const struct wl_preset *p);
#define WL_PRESET(...)                                                                             \
	static const struct wl_preset wl_preset_ = {__VA_ARGS__};                                  \
	__attribute__((constructor)) static void wl_preset_init_(void)                             \
	{                                                                                          \
		wl_preset_register(&wl_preset_);                                                   \
	}

/* Exits with status 2 after printing "NAME: message". */
__attribute__((noreturn, format(printf, 2, 3))) void wl_usage_error(const struct wl *w,
								    const char *fmt, ...);

/*
 * The element count of a program whose footprint grows by `bytes_per` bytes
 * an element: `n` as given with the option `opt` (0 when not given), else
 * --footprint's, else `def`. Both options together, or a footprint that gives
 * a count outside min..max, is a usage error.
 */
long long wl_elements(const struct wl *w, const char *opt, long long n, uint64_t bytes_per,
		      long long min, long long def, long long max);

/*
 * The workload's data (wl_mem.c). cudaMallocManaged that exits with a message
 * on failure; under --mem explicit, pageable host memory (zeroed) with a
 * cudaMalloc'd twin on the device, which kernels reach through wl_dev.
 */
void *wl_managed(const struct wl *w, size_t bytes, const char *what);
/* Frees what wl_managed gave (both twins under --mem explicit). */
void wl_free(const struct wl *w, void *p);
/* The address of p's byte that kernels use: p itself, or its device twin's
 * under --mem explicit. */
void *wl_dev(const struct wl *w, const void *p);
/*
 * Where data crosses, for --mem explicit and prefetch; p and bytes name a
 * range inside one allocation. wl_to_gpu: the host wrote it and kernels
 * read it next (cudaMemcpy to the device, or a prefetch to it).
 * wl_gpu_space: kernels write it and nothing of the host's is needed there
 * (a prefetch, so that the GPU's first writes do not fault; nothing to copy).
 * wl_to_host: kernels wrote it and the host reads it next: waits for the
 * kernels, then copies it back, or prefetches it to the host, or (managed,
 * advise) reads a byte of each page, so that the migrations the host's reads
 * cause happen here, inside the region of interest, in every mode.
 */
void wl_to_gpu(const struct wl *w, const void *p, size_t bytes);
void wl_gpu_space(const struct wl *w, const void *p, size_t bytes);
void wl_to_host(const struct wl *w, const void *p, size_t bytes);
/* cudaMemAdvise hints, given under --mem advise only. */
enum wl_advice {
	WL_READ_MOSTLY,	    /* kernels only read it: copies may stay on both sides */
	WL_ACCESSED_BY_GPU, /* mapped for the GPU wherever it lives: no faults, no moves */
	WL_PREFER_HOST,	    /* lives on the host (the GPU reaches it with AccessedBy) */
};
void wl_advise(const struct wl *w, const void *p, size_t bytes, enum wl_advice advice);
/* Parses a --mem value; -1 when it is none of them. */
int wl_mem_parse(const char *name, enum wl_mem *out);
/* Checks a CUDA call; on error prints what failed and exits 1. */
#define WL_CHECK(w, call) wl_check((w), (call), #call, __FILE__, __LINE__)
void wl_check(const struct wl *w, cudaError_t e, const char *what, const char *file, int line);

/* Prints the exact managed footprint and records it in the report; with
 * --dry-run it then ends the run (exit 0) before any input is generated, for
 * checking --footprint on workloads whose work grows faster than their data. */
void wl_footprint(const struct wl *w, uint64_t bytes);
/* Prints a progress line (unless --quiet). */
__attribute__((format(printf, 2, 3))) void wl_log(const struct wl *w, const char *fmt, ...);

/*
 * Reports the verdict through the API, prints "NAME: verify pass" or the first
 * mismatches, and returns the exit status (0 pass, 1 fail).
 */
int wl_finish(struct wl *w, bool pass);

/* Exact comparisons; they print up to 5 mismatches and return true if equal. */
bool wl_check_i32(const struct wl *w, const char *what, const int32_t *got, const int32_t *want,
		  size_t n);
bool wl_check_u32(const struct wl *w, const char *what, const uint32_t *got, const uint32_t *want,
		  size_t n);
bool wl_check_u64(const struct wl *w, const char *what, const uint64_t *got, const uint64_t *want,
		  size_t n);
bool wl_check_u8(const struct wl *w, const char *what, const uint8_t *got, const uint8_t *want,
		 size_t n);
/* Bit-for-bit float equality (for references computed in the same order). */
bool wl_check_f32_exact(const struct wl *w, const char *what, const float *got, const float *want,
			size_t n);
/* |got - want| <= abs_tol + rel_tol * |want|; the caller justifies the
 * tolerance in a comment where it calls this. */
bool wl_check_f32_tol(const struct wl *w, const char *what, const float *got, const float *want,
		      size_t n, double abs_tol, double rel_tol);

/*
 * Results a user can check (--output FILE). The file is plain text:
 *
 *   # uvmemu-workload-output 1
 *   # workload NAME
 *   # section WHAT COUNT
 *   one value per line (COUNT lines): exact integers, or floats as %.9g
 *   (enough digits to read back the same float)
 *   # section ...
 *
 * Values come from the GPU's output, never from the reference. Without
 * --output these do nothing; an unwritable file is a one-line error, exit 2,
 * checked by wl_init before any work.
 */
void wl_output_i32(struct wl *w, const char *what, const int32_t *v, size_t n);
void wl_output_u32(struct wl *w, const char *what, const uint32_t *v, size_t n);
void wl_output_u64(struct wl *w, const char *what, const uint64_t *v, size_t n);
void wl_output_f32(struct wl *w, const char *what, const float *v, size_t n);
void wl_output_f64(struct wl *w, const char *what, const double *v, size_t n);
/* Closes the output (wl_finish calls it); a write error exits 1. */
void wl_output_close(struct wl *w);

/* A seeded generator (xoshiro256**, seeded through splitmix64). */
struct wl_rng {
	uint64_t s[4];
};
void wl_rng_seed(struct wl_rng *r, uint64_t seed);
uint64_t wl_rng_next(struct wl_rng *r);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint64_t wl_rng_below(struct wl_rng *r, uint64_t bound);
/* Uniform in [0, 1). */
double wl_rng_unit(struct wl_rng *r);
/* v[0..n) uniform in [0, 1), as floats, in index order. */
void wl_rng_fill_unit(struct wl_rng *r, float *v, size_t n);
/* v[0..n) uniform in [-1, 1) (2 u - 1 in double, then rounded), in index order. */
void wl_rng_fill_signed(struct wl_rng *r, float *v, size_t n);

/* The sum of v[0..n) in double, in index order: the checksums workloads print
 * from their GPU-computed results. */
double wl_sum_f32(const float *v, size_t n);

/* Seconds on a monotonic clock, for the timings workloads print. */
double wl_now(void);

/* Round x up to a multiple of m. */
static inline uint64_t wl_round_up(uint64_t x, uint64_t m)
{
	return (x + m - 1) / m * m;
}

/* The multiple of q nearest x, at least q: a dimension sized from a
 * --footprint that must come in whole tiles. */
long long wl_round_nearest(double x, long long q);

#endif
