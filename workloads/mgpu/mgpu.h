/* SPDX-License-Identifier: MIT */
/*
 * mgpu.h - what the two-GPU workloads (mgpu-stream, mgpu-sgemm) share, after
 * the 2024 batch study's GPU-GPU experiments:
 *
 *   --mode peer   (default) a kernel on GPU 0 writes the inputs, then GPU 1
 *                 computes on them: its faults migrate the data GPU to GPU
 *   --mode host   the host writes them, then GPU 0 computes (CPU to GPU, the
 *                 study's comparison at the same size)
 *   --mode split  the host writes them, then each GPU computes half of the
 *                 output
 *   --prefetch    before the compute, each GPU's data is prefetched to it
 *                 (cudaMemPrefetchAsync), then the devices synchronise
 *
 * The devices come from cudaGetDeviceCount: GPU "1" is the last device, so
 * with one device every mode runs on device 0 (split: one part, all of the
 * output). The inputs are a hash of (seed, array, index), computed the same
 * way by the init kernel and on the host, so every mode computes on the same
 * data and the references need not read the managed arrays (which would move
 * them).
 */
#ifndef MGPU_H
#define MGPU_H

#include <stdint.h>

#include "emugpu.h"
#include "wl.h"

enum mgpu_mode { MGPU_PEER, MGPU_HOST, MGPU_SPLIT };

#define MGPU_MAX_PARTS 2

struct mgpu {
	const char *mode_arg; /* --mode as given (NULL: peer) */
	bool prefetch;	      /* --prefetch */
	enum mgpu_mode mode;
	int count;		 /* cudaGetDeviceCount */
	int parts;		 /* parts of the output: 1, or split's GPUs (1 or 2) */
	int dev[MGPU_MAX_PARTS]; /* the device computing each part */
};

/* clang-format off */
#define MGPU_OPTS(m)                                                                               \
	{"mode", WL_STR, &(m)->mode_arg, 0, 0,                                                     \
	 "peer, host or split: where the data starts, which GPUs compute (default peer)"},         \
	{"prefetch", WL_FLAG, &(m)->prefetch, 0, 0,                                                \
	 "prefetch each GPU's data to it before it computes"}
/* clang-format on */

/* The device the init kernel of --mode peer runs on. */
#define MGPU_INIT_DEV 0

/*
 * After wl_init: parses --mode (another value is a usage error, exit 2),
 * counts the devices, chooses them, prints them and records them in the
 * report (compute_gpus, first_compute_gpu, prefetch).
 */
void mgpu_setup(const struct wl *w, struct mgpu *m);

/* Part p's share [lo, hi) of n items, in whole units of `unit` items (n a
 * multiple of it): the first part takes the odd unit. */
void mgpu_part(const struct mgpu *m, int p, int64_t n, int64_t unit, int64_t *lo, int64_t *hi);

/* cudaSetDevice, checked. */
void mgpu_set_device(const struct wl *w, int dev);

/* With --prefetch, cudaMemPrefetchAsync(p, bytes, dev, 0); nothing without. */
void mgpu_prefetch(const struct wl *w, const struct mgpu *m, const void *p, size_t bytes, int dev);

/* cudaDeviceSynchronize on every device that computes a part. */
void mgpu_sync(const struct wl *w, const struct mgpu *m);

/* With --prefetch, mgpu_sync (the prefetches done before the kernels). */
void mgpu_prefetch_done(const struct wl *w, const struct mgpu *m);

/* ------------------------------------------------------------------ inputs */

enum mgpu_fill {
	MGPU_UNIT,   /* [0, 1) */
	MGPU_SIGNED, /* [-1, 1) */
	MGPU_ZERO,   /* 0 */
};

static inline uint64_t mgpu_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The key of input array `array` (1, 2, ...) under the seed. */
static inline uint64_t mgpu_key(uint64_t seed, unsigned array)
{
	return mgpu_mix(seed ^ ((uint64_t)array << 56));
}

/* Element i of the array with that key: 24 hashed bits, so the float is
 * exact and the same wherever it is computed. */
static inline float mgpu_value(uint64_t key, int64_t i, enum mgpu_fill kind)
{
	const float top =
	    (float)(uint32_t)(mgpu_mix(key + (uint64_t)i * 0x9e3779b97f4a7c15ull) >> 40);

	switch (kind) {
	case MGPU_UNIT:
		return top * 0x1p-24f;
	case MGPU_SIGNED:
		return (top - 0x1p23f) * 0x1p-23f;
	case MGPU_ZERO:
		break;
	}
	return 0.0f;
}

/* The whole array on the host (a reference's inputs, never managed). */
void mgpu_values(float *v, int64_t n, uint64_t key, enum mgpu_fill kind);

/*
 * Writes a managed input: under --mode peer by the init kernel on
 * MGPU_INIT_DEV (synchronised), otherwise by the host (a CPU loop).
 */
void mgpu_fill(const struct wl *w, const struct mgpu *m, float *v, int64_t n, uint64_t key,
	       enum mgpu_fill kind);

#endif
