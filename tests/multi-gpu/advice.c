// SPDX-License-Identifier: MIT
/*
 * Description: advice that names a device, over two GPUs (issue 33), under
 * `uvmemu run --gpus 2`; every word is checked against a CPU reference.
 *   integrity  data preferring GPU 1 read and written by kernels on GPUs 0
 *              and 1 and by the host; data on GPU 1 that GPU 0 has
 *              accessed-by, written by both GPUs while prefetches move it
 *              (to the CPU, to GPU 1, to GPU 0); data preferring GPU 0 that
 *              GPU 1 has accessed-by; untouched data preferring the host,
 *              half of it accessed by GPU 0, first touched by GPU 1;
 *              read-mostly data read on both GPUs,
 *              written on GPU 1, read on both again. Then the host reads it
 *              all.
 *   prefer     data written first by a kernel on GPU 1, then read and
 *              written by a kernel on GPU 0 (with SetPreferredLocation(1)
 *              when the second argument is "advise").
 *   accessed   data prefetched to GPU 1 and data left on the host, both
 *              given SetAccessedBy(0), read and written by kernels on GPU 0,
 *              the first moved to the CPU and back to GPU 1 in between.
 * What the driver did is the report's to show (advice.sh reads it). Exits
 * 0 when every word matched, 1 otherwise, 2 on bad usage.
 * usage: multi-gpu-advice integrity|prefer|accessed [advise] [MiB]
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emugpu.h"
#include "uvmemu_cuda.h"

#define THREADS 256

struct step_args {
	uint32_t *a;
	uint64_t n;
	uint32_t mul, add;
};

/* a[i] = a[i] * mul + add: every word read and written. */
EMU_KERNEL(step, struct step_args)
{
	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->n)
			args->a[i] = args->a[i] * args->mul + args->add;
	}
}

struct read_args {
	const uint32_t *a;
	uint32_t *out; /* out[i] = a[i] + 1: reads a only */
	uint64_t n;
};

EMU_KERNEL(readonly, struct read_args)
{
	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->n)
			args->out[i] = args->a[i] + 1;
	}
}

static void must(cudaError_t e, const char *what)
{
	if (e != cudaSuccess) {
		fprintf(stderr, "multi-gpu-advice: %s: %s\n", what, cudaGetErrorString(e));
		exit(1);
	}
}

/* One buffer and its reference. */
struct buf {
	uint32_t *a, *ref;
	uint64_t n;
};

static void buf_init(struct buf *b, uint64_t n, uint32_t seed)
{
	b->n = n;
	b->ref = malloc(n * 4);
	if (!b->ref) {
		fprintf(stderr, "multi-gpu-advice: out of memory\n");
		exit(1);
	}
	must(cudaMallocManaged((void **)&b->a, n * 4, cudaMemAttachGlobal), "cudaMallocManaged");
	for (uint64_t i = 0; i < n; i++)
		b->a[i] = b->ref[i] = (uint32_t)(i * 2654435761u) ^ seed;
}

/* A buffer no one has touched yet (resident nowhere): zeros. */
static void buf_fresh(struct buf *b, uint64_t n)
{
	b->n = n;
	b->ref = calloc(n, 4);
	if (!b->ref) {
		fprintf(stderr, "multi-gpu-advice: out of memory\n");
		exit(1);
	}
	must(cudaMallocManaged((void **)&b->a, n * 4, cudaMemAttachGlobal), "cudaMallocManaged");
}

/* A kernel on device `dev` over all of b, waited for. */
static void step_on(int dev, struct buf *b, uint32_t mul, uint32_t add)
{
	unsigned grid = (unsigned)((b->n + THREADS - 1) / THREADS);

	must(cudaSetDevice(dev), "cudaSetDevice");
	must(EMU_LAUNCH(step, emu_dim3(grid, 1, 1), emu_dim3(THREADS, 1, 1), 0, b->a, b->n, mul,
			add),
	     "launch");
	must(cudaDeviceSynchronize(), "synchronize");
	for (uint64_t i = 0; i < b->n; i++)
		b->ref[i] = b->ref[i] * mul + add;
}

/* The host reads and writes a word of every 4 KB page. */
static void host_touch(struct buf *b)
{
	for (uint64_t i = 0; i < b->n; i += 1024) {
		b->a[i] ^= 0x5a5a5a5au;
		b->ref[i] ^= 0x5a5a5a5au;
	}
}

static void prefetch(struct buf *b, int dev)
{
	must(cudaMemPrefetchAsync(b->a, b->n * 4, dev, 0), "prefetch");
	must(cudaDeviceSynchronize(), "synchronize");
}

static void advise(struct buf *b, enum cudaMemoryAdvise what, int dev)
{
	must(cudaMemAdvise(b->a, b->n * 4, what, dev), "cudaMemAdvise");
}

static int check(const char *what, const struct buf *b)
{
	for (uint64_t i = 0; i < b->n; i++)
		if (b->a[i] != b->ref[i]) {
			fprintf(stderr, "multi-gpu-advice: %s: word %llu is %u, expected %u\n",
				what, (unsigned long long)i, b->a[i], b->ref[i]);
			return 1;
		}
	return 0;
}

/* A read-only kernel on device `dev` over b, its output checked. */
static int read_on(int dev, const struct buf *b, uint32_t *out)
{
	unsigned grid = (unsigned)((b->n + THREADS - 1) / THREADS);

	must(cudaSetDevice(dev), "cudaSetDevice");
	must(
	    EMU_LAUNCH(readonly, emu_dim3(grid, 1, 1), emu_dim3(THREADS, 1, 1), 0, b->a, out, b->n),
	    "launch");
	must(cudaDeviceSynchronize(), "synchronize");
	for (uint64_t i = 0; i < b->n; i++)
		if (out[i] != b->ref[i] + 1) {
			fprintf(stderr,
				"multi-gpu-advice: a read on GPU %d: word %llu is %u, "
				"expected %u\n",
				dev, (unsigned long long)i, out[i], b->ref[i] + 1);
			return 1;
		}
	return 0;
}

static int integrity(uint64_t n)
{
	struct buf p, q, r, m, h;
	uint32_t *out;
	int bad = 0;

	/* Preferring GPU 1, used by both GPUs and the host in turn. */
	buf_init(&p, n, 1);
	advise(&p, cudaMemAdviseSetPreferredLocation, 1);
	for (int k = 0; k < 3; k++) {
		step_on(k % 2, &p, 3, (uint32_t)k);
		step_on((k + 1) % 2, &p, 5, (uint32_t)k + 1);
		host_touch(&p);
	}
	bad |= check("data preferring GPU 1", &p);

	/* On GPU 1, accessed-by GPU 0, moved around under both. */
	buf_init(&q, n, 2);
	prefetch(&q, 1);
	advise(&q, cudaMemAdviseSetAccessedBy, 0);
	step_on(0, &q, 7, 1);
	step_on(1, &q, 9, 2);
	prefetch(&q, cudaCpuDeviceId);
	step_on(0, &q, 11, 3);
	prefetch(&q, 1);
	step_on(0, &q, 13, 4);
	host_touch(&q);
	prefetch(&q, 0);
	step_on(1, &q, 15, 5);
	advise(&q, cudaMemAdviseUnsetAccessedBy, 0);
	step_on(0, &q, 17, 6);
	bad |= check("data on GPU 1 accessed by GPU 0", &q);

	/* Preferring GPU 0, accessed by GPU 1. */
	buf_init(&r, n, 3);
	advise(&r, cudaMemAdviseSetPreferredLocation, 0);
	advise(&r, cudaMemAdviseSetAccessedBy, 1);
	step_on(1, &r, 19, 7);
	step_on(0, &r, 21, 8);
	step_on(1, &r, 23, 9);
	host_touch(&r);
	step_on(1, &r, 25, 10);
	bad |= check("data preferring GPU 0 accessed by GPU 1", &r);

	/* Untouched data preferring the host, its first half accessed by GPU
	 * 0: GPU 1's first touch fills the host and maps it there (GPU 0's
	 * half mapped on GPU 0's view ahead, then taken over by GPU 1). */
	buf_fresh(&h, n);
	advise(&h, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
	must(cudaMemAdvise(h.a, h.n * 2, cudaMemAdviseSetAccessedBy, 0), "cudaMemAdvise");
	step_on(1, &h, 29, 12);
	step_on(0, &h, 31, 13);
	step_on(1, &h, 33, 14);
	bad |= check("fresh data preferring the host", &h);

	/* Read-mostly: a copy on each GPU that reads; GPU 1's write collapses
	 * them all, so GPU 0 then reads the new data, not its old copy. */
	buf_init(&m, n, 4);
	must(cudaMallocManaged((void **)&out, n * 4, cudaMemAttachGlobal), "cudaMallocManaged");
	advise(&m, cudaMemAdviseSetReadMostly, 0);
	bad |= read_on(0, &m, out);
	bad |= read_on(1, &m, out);
	step_on(1, &m, 27, 11);
	bad |= read_on(0, &m, out);
	bad |= read_on(1, &m, out);
	bad |= check("read-mostly data after a write", &m);

	/* The host reads everything once more after the GPUs' last writes. */
	bad |= check("data preferring GPU 1, at the end", &p);
	bad |= check("data accessed by GPU 0, at the end", &q);
	return bad;
}

static int prefer(uint64_t n, bool advised)
{
	struct buf p;

	buf_init(&p, n, 4);
	if (advised)
		advise(&p, cudaMemAdviseSetPreferredLocation, 1);
	step_on(1, &p, 3, 1);
	step_on(0, &p, 5, 2);
	return check("data written on GPU 1, then GPU 0", &p);
}

static int accessed(uint64_t n)
{
	struct buf on_gpu, on_host;
	int bad;

	buf_init(&on_gpu, n, 5);
	buf_init(&on_host, n, 6);
	prefetch(&on_gpu, 1);
	advise(&on_gpu, cudaMemAdviseSetAccessedBy, 0);
	advise(&on_host, cudaMemAdviseSetAccessedBy, 0);
	step_on(0, &on_gpu, 3, 1);
	step_on(0, &on_host, 5, 2);
	/* Moved: GPU 0's mappings follow the data. */
	prefetch(&on_gpu, cudaCpuDeviceId);
	step_on(0, &on_gpu, 7, 3);
	prefetch(&on_gpu, 1);
	step_on(0, &on_gpu, 9, 4);
	bad = check("data on GPU 1 accessed by GPU 0", &on_gpu);
	return bad | check("data on the host accessed by GPU 0", &on_host);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	bool advised = argc > 2 && strcmp(argv[2], "advise") == 0;
	uint64_t mib = argc > 2 + advised ? strtoull(argv[2 + advised], NULL, 10) : 8;
	int ngpus = 0, bad;

	if (mib == 0 ||
	    (strcmp(mode, "integrity") && strcmp(mode, "prefer") && strcmp(mode, "accessed"))) {
		fprintf(stderr,
			"usage: multi-gpu-advice integrity|prefer|accessed [advise] [MiB > 0]\n");
		return 2;
	}
	must(cudaGetDeviceCount(&ngpus), "cudaGetDeviceCount");
	if (ngpus < 2) {
		fprintf(stderr, "multi-gpu-advice: needs two GPUs (uvmemu run --gpus 2), has %d\n",
			ngpus);
		return 2;
	}
	if (strcmp(mode, "integrity") == 0)
		bad = integrity((mib << 20) / 4);
	else if (strcmp(mode, "prefer") == 0)
		bad = prefer((mib << 20) / 4, advised);
	else
		bad = accessed((mib << 20) / 4);
	uvmemu_set_verify(bad ? UVMEMU_VERIFY_FAIL : UVMEMU_VERIFY_PASS);
	printf("multi-gpu-advice %s: %s\n", mode, bad ? "MISMATCH" : "every word matched");
	return bad;
}
