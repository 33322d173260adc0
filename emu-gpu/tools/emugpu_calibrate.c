// SPDX-License-Identifier: MIT
/*
 * emugpu_calibrate.c - emugpu-calibrate: one measurement of the executor's
 * streaming bandwidth, for `uvmemu calibrate` (which runs it in fresh
 * processes and saves the median). It runs natively on plain memory and
 * prints, one per line:
 *   build STRING          the build a saved figure is valid for
 *   bytes_per_s NUMBER    this run's measurement
 *   block_ns NUMBER       CPU ns per basic block of the kernel (builds that
 *                         count blocks: EMUGPU_COUNT_BLOCKS)
 *   gpu NAME NUMBER       each --gpu preset's bandwidth
 * It is linked with the executor's objects, not libemugpu.so, because the
 * measurement is the executor's own and not part of its public interface.
 */
#include <stdio.h>
#include <string.h>

#include "executor.h"

int main(int argc, char **argv)
{
	cudaError_t err;
	double bw, block_ns;

	if (argc > 1) {
		fprintf(stderr,
			"emugpu-calibrate: unexpected argument '%s' (it takes none; "
			"uvmemu calibrate runs it)\n",
			argv[1]);
		return 2;
	}
	err = eg_pool_start(0);
	if (err != cudaSuccess) {
		fprintf(stderr, "emugpu-calibrate: the executor did not start (error %d)\n",
			(int)err);
		return 1;
	}
	printf("build %s\n", eg_build_id());
	bw = eg_measure_bandwidth(0, &block_ns);
	if (bw <= 0) {
		fprintf(stderr, "emugpu-calibrate: the calibration kernel failed\n");
		return 1;
	}
	printf("bytes_per_s %.0f\n", bw);
	if (block_ns > 0)
		printf("block_ns %.4g\n", block_ns);
	for (size_t i = 0; eg_gpu_at(i); i++)
		printf("gpu %s %.0f\n", eg_gpu_at(i)->name, eg_gpu_at(i)->bytes_per_s);
	return 0;
}
