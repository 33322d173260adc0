// SPDX-License-Identifier: MIT
/*
 * calibrate.c - --dilation auto: how fast does emu-gpu stream memory?
 *
 * A triad (z = 3x + y on floats, STREAM's kernel) over ordinary memory - not
 * managed, so nothing faults or migrates - runs through the real worker pool,
 * CTAs of 256 threads as a GPU port would launch it. Bytes moved count as
 * STREAM counts them: two arrays read, one written. The best of a few timed
 * runs after a warm-up (which also takes the first-touch page faults) is the
 * measured bandwidth; the runtime sets the dilation to target / measured.
 * A bandwidth `uvmemu calibrate` saved for this machine and build (the
 * median of emugpu-calibrate's runs, tools/emugpu_calibrate.c) is used
 * instead of measuring, so that runs share one time scale.
 *
 * Each array is 32 MB, larger than the last-level cache of the machines this
 * runs on, so the figure is DRAM bandwidth rather than cache bandwidth, and a
 * run takes tens of milliseconds.
 *
 * A build that counts basic blocks (EMUGPU_COUNT_BLOCKS) also prices one:
 * the best run's CPU time (its wall time on each main worker, which is how
 * the model shares the machine out, model/gpu.c) over the blocks the triad
 * ran. A CTA's count is the same in every CTA and every run, so one CTA run
 * here, on the calling thread, gives it; it runs as under the model clock
 * (with a slot word), whose thread loops the counted programs run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "calibrate_kernel.h"
#include "executor.h"

#define CALIB_ELEMS   (8u << 20) /* floats per array */
#define CALIB_THREADS 256u
#define CALIB_RUNS    3

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One timed triad; returns seconds, or a negative value if it failed. */
static double run_once(unsigned dev, const struct calib_args *a)
{
	dim3 grid = {(unsigned)(a->n / CALIB_THREADS), 1, 1}, block = {CALIB_THREADS, 1, 1};
	double t0 = now_s();

	if (eg_submit(dev, &emu_calibration_triad, grid, block, 0, a, true) != cudaSuccess ||
	    eg_wait_idle(dev) != cudaSuccess)
		return -1;
	return now_s() - t0;
}

/* The basic blocks one CTA of the triad runs (0: the build does not count). */
static double blocks_per_cta(const struct calib_args *a)
{
	struct uvmemu_slot slot = {0};
	struct emu_cta cta = {.block_dim = {CALIB_THREADS, 1, 1},
			      .grid_dim = {(unsigned)(a->n / CALIB_THREADS), 1, 1},
			      .nthreads = CALIB_THREADS,
			      .slot = &slot};
	uint64_t before = uvmemu_blocks_run();

	emu_calibration_triad.fn(&cta, a);
	return (double)(uvmemu_blocks_run() - before);
}

double eg_measure_bandwidth(unsigned dev, double *block_ns)
{
	struct calib_args a = {.n = CALIB_ELEMS};
	float *x = malloc(CALIB_ELEMS * sizeof(float));
	float *y = malloc(CALIB_ELEMS * sizeof(float));
	float *z = malloc(CALIB_ELEMS * sizeof(float));
	double best = 0;

	*block_ns = 0;
	if (!x || !y || !z)
		goto out;
	for (uint32_t i = 0; i < CALIB_ELEMS; i++) {
		x[i] = (float)(i & 1023);
		y[i] = 1.0f;
	}
	a.x = x;
	a.y = y;
	a.z = z;
	for (int r = 0; r <= CALIB_RUNS; r++) {
		double t = run_once(dev, &a);

		if (t <= 0) {
			best = 0;
			goto out;
		}
		/* Run 0 is the warm-up. */
		if (r > 0 && (best == 0 || t < best))
			best = t;
	}
	if (best > 0) {
		double blocks = blocks_per_cta(&a) * (double)(a.n / CALIB_THREADS);

		if (blocks > 0)
			*block_ns = best * 1e9 * eg.dev[dev].nmain / blocks;
	}
out:
	free(x);
	free(y);
	free(z);
	return best > 0 ? 3.0 * sizeof(float) * CALIB_ELEMS / best : 0;
}

/*
 * The calibration kernel's code generation, part of the build id: bump it
 * when the kernel or the thread-loop expansion changes how fast the same
 * build runs it, so that figures saved before are not applied after. 2: the
 * triad's thread loop vectorizes (EMU_FOR_THREADS_BELOW, GCC's dynamic vector
 * cost model), which raised the measured bandwidth. 3: thread loops count x
 * in a signed int and a completion no longer wakes synchronize() unless the
 * stream is idle. 4: a kernel that does not fault is split into one share of
 * CTAs per main worker (tickets.h), so each core streams one contiguous part.
 */
#define CALIB_KERNEL_VERSION "4"

/*
 * What a saved calibration must match: the executor's speed depends on how
 * it was compiled (optimisation, sanitizers, accessors that count every
 * access), so a figure saved for one build says nothing about another.
 */
const char *eg_build_id(void)
{
	return EMUGPU_BUILD_TYPE "+k" CALIB_KERNEL_VERSION
#ifdef EMUGPU_GMMU
				 "+gmmu"
#endif
#ifdef EMUGPU_COUNT_BLOCKS
				 "+blocks"
#endif
#if defined(__SANITIZE_ADDRESS__)
				 "+asan"
#elif defined(__SANITIZE_THREAD__)
				 "+tsan"
#endif
	    ;
}

bool eg_calibrate_saved(const struct eg_config *cfg)
{
	double bw = uvmemu_calibration_saved(eg_build_id());

	if (bw <= 0)
		return false;
	uvmemu_set_calibration(bw, cfg->dev[0].gpu->bytes_per_s, cfg->dev[0].gpu->name);
	return true;
}

void eg_calibrate_measured(const struct eg_config *cfg, unsigned dev)
{
	double bw, block_ns = 0;

	bw = eg_measure_bandwidth(dev, &block_ns);
	uvmemu_set_block_cost(block_ns);
	if (bw <= 0) {
		/* The runtime keeps the dilation at 1 and says it was not calibrated. */
		fprintf(stderr, "emu-gpu: --dilation auto: the calibration kernel failed\n");
		return;
	}
	uvmemu_set_calibration(bw, cfg->dev[0].gpu->bytes_per_s, cfg->dev[0].gpu->name);
}
