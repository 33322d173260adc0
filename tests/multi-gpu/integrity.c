// SPDX-License-Identifier: MIT
/*
 * Description: data integrity over several GPUs (issue 33). Runs under
 * `uvmemu run --gpus N` (any N; natively it is one device) and checks every
 * word against a plain CPU reference:
 *   - kernels on each device in turn over shared managed data, each round
 *     starting from another device, so that blocks migrate GPU to GPU in
 *     every direction, and back to the host between rounds;
 *   - two host threads, each on its own device, launching kernels over
 *     disjoint halves at once;
 *   - read-mostly data read on every device (a read-only copy each), then
 *     written by one, then read by the host;
 *   - explicit prefetches to every device and to the CPU in between.
 * Under --oversub 1.5 each device evicts as it goes. Exits 0 when every
 * word matched, 1 with the first mismatch otherwise.
 * usage: multi-gpu-integrity [MiB]   (default 24)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "emugpu.h"
#include "uvmemu_cuda.h"

#define THREADS 256

struct step_args {
	uint32_t *a;
	uint64_t lo, hi;
	uint32_t mul, add;
};

/* a[i] = a[i] * mul + add over [lo, hi): every word read and written. */
EMU_KERNEL(step, struct step_args)
{
	EMU_FOR_THREADS {
		uint64_t i = args->lo + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->hi)
			args->a[i] = args->a[i] * args->mul + args->add;
	}
}

struct sum_args {
	const uint32_t *b;
	uint32_t *out; /* out[i] = b[i] + salt: reads b only */
	uint64_t n;
	uint32_t salt;
};

EMU_KERNEL(readb, struct sum_args)
{
	EMU_FOR_THREADS {
		uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

		if (i < args->n)
			args->out[i] = args->b[i] + args->salt;
	}
}

static int check(const char *what, const uint32_t *got, const uint32_t *want, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			fprintf(stderr, "multi-gpu-integrity: %s: word %llu is %u, expected %u\n",
				what, (unsigned long long)i, got[i], want[i]);
			return 1;
		}
	return 0;
}

static void must(cudaError_t e, const char *what)
{
	if (e != cudaSuccess) {
		fprintf(stderr, "multi-gpu-integrity: %s: %s\n", what, cudaGetErrorString(e));
		exit(1);
	}
}

static void launch_step(uint32_t *a, uint64_t lo, uint64_t hi, uint32_t mul, uint32_t add)
{
	unsigned grid = (unsigned)((hi - lo + THREADS - 1) / THREADS);

	must(
	    EMU_LAUNCH(step, emu_dim3(grid, 1, 1), emu_dim3(THREADS, 1, 1), 0, a, lo, hi, mul, add),
	    "launch");
}

static void reference_step(uint32_t *r, uint64_t lo, uint64_t hi, uint32_t mul, uint32_t add)
{
	for (uint64_t i = lo; i < hi; i++)
		r[i] = r[i] * mul + add;
}

struct half {
	int device;
	uint32_t *a;
	uint64_t lo, hi;
	uint32_t add;
};

static void *run_half(void *p)
{
	struct half *h = p;

	must(cudaSetDevice(h->device), "cudaSetDevice in a thread");
	for (int k = 0; k < 3; k++)
		launch_step(h->a, h->lo, h->hi, 5, h->add + (uint32_t)k);
	must(cudaDeviceSynchronize(), "synchronize in a thread");
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 24,
		 n = (mib << 20) / 4; /* a: mib MiB of words */
	uint32_t *a, *b, *out, *ra = malloc(n * 4), *rout = malloc(n * 4);
	int ngpus = 1, bad = 0;

	if (!ra || !rout || mib == 0) {
		fprintf(stderr, "usage: multi-gpu-integrity [MiB > 0]\n");
		return 2;
	}
	must(cudaGetDeviceCount(&ngpus), "cudaGetDeviceCount");
	must(cudaMallocManaged((void **)&a, n * 4, cudaMemAttachGlobal), "a");
	must(cudaMallocManaged((void **)&b, n * 2, cudaMemAttachGlobal), "b");
	must(cudaMallocManaged((void **)&out, n * 2, cudaMemAttachGlobal), "out");
	for (uint64_t i = 0; i < n; i++)
		a[i] = ra[i] = (uint32_t)(i * 2654435761u);

	/* Rounds: each device in turn over all of a, from a different first
	 * device each round (every ordered pair of devices follows another). */
	for (int r = 0; r < 2 * ngpus; r++) {
		for (int k = 0; k < ngpus; k++) {
			int g = (r + k * (1 + r / ngpus)) % ngpus;

			must(cudaSetDevice(g), "cudaSetDevice");
			launch_step(a, 0, n, 3, (uint32_t)(g + 7 * r));
			reference_step(ra, 0, n, 3, (uint32_t)(g + 7 * r));
			must(cudaDeviceSynchronize(), "synchronize");
		}
		/* The host reads and writes a word of every page between rounds. */
		for (uint64_t i = 0; i < n; i += 1024) {
			a[i] ^= 0x5a5a5a5au;
			ra[i] ^= 0x5a5a5a5au;
		}
		/* A prefetch to the next round's device, or to the CPU. */
		must(cudaMemPrefetchAsync(a, n * 4, r % 2 ? cudaCpuDeviceId : (r + 1) % ngpus, 0),
		     "prefetch");
		must(cudaDeviceSynchronize(), "synchronize");
	}
	bad |= check("a after the rounds", a, ra, n);

	/* Two host threads, each on its own device, over disjoint halves. */
	{
		struct half h[2] = {{0, a, 0, n / 2, 11}, {ngpus > 1 ? 1 : 0, a, n / 2, n, 13}};
		pthread_t t[2];

		for (int i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, run_half, &h[i]))
				return 1;
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		for (int i = 0; i < 2; i++)
			for (int k = 0; k < 3; k++)
				reference_step(ra, h[i].lo, h[i].hi, 5, h[i].add + (uint32_t)k);
		bad |= check("a after two threads on two devices", a, ra, n);
	}

	/* Read-mostly b: a read-only copy on every device, then a write. */
	{
		uint64_t nb = n / 2;
		uint32_t *rb = malloc(nb * 4);

		for (uint64_t i = 0; i < nb; i++)
			b[i] = rb[i] = (uint32_t)(i * 40503u + 1);
		must(cudaMemAdvise(b, nb * 4, cudaMemAdviseSetReadMostly, 0), "advise");
		for (int g = 0; g < ngpus; g++) {
			unsigned grid = (unsigned)((nb + THREADS - 1) / THREADS);

			must(cudaSetDevice(g), "cudaSetDevice");
			must(EMU_LAUNCH(readb, emu_dim3(grid, 1, 1), emu_dim3(THREADS, 1, 1), 0, b,
					out, nb, (uint32_t)g),
			     "launch");
			must(cudaDeviceSynchronize(), "synchronize");
			for (uint64_t i = 0; i < nb; i++)
				rout[i] = rb[i] + (uint32_t)g;
			bad |= check("a read of read-mostly data", out, rout, nb);
		}
		must(cudaSetDevice(ngpus - 1), "cudaSetDevice");
		launch_step(b, 0, nb, 7, 1);
		reference_step(rb, 0, nb, 7, 1);
		must(cudaDeviceSynchronize(), "synchronize");
		bad |= check("read-mostly data after a write", b, rb, nb);
		free(rb);
	}
	uvmemu_set_verify(bad ? UVMEMU_VERIFY_FAIL : UVMEMU_VERIFY_PASS);
	printf("multi-gpu-integrity: %d device%s, %llu MiB: %s\n", ngpus, ngpus > 1 ? "s" : "",
	       (unsigned long long)mib, bad ? "MISMATCH" : "every word matched");
	must(cudaFree(a), "free");
	must(cudaFree(b), "free");
	must(cudaFree(out), "free");
	free(ra);
	free(rout);
	return bad;
}
