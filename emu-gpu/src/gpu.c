// SPDX-License-Identifier: MIT
/*
 * gpu.c - the target GPUs of --gpu: SM count (the default of --sms) and peak
 * DRAM bandwidth (what --dilation auto compares emu-gpu's own against).
 *
 * Published figures (decimal GB/s, as vendors quote them):
 *   gtx1080ti  28 SMs (3584 CUDA cores / 128 per Pascal SM), 484 GB/s:
 *              11 Gb/s GDDR5X on a 352-bit bus (NVIDIA GeForce GTX 1080 Ti
 *              specifications page).
 *   v100       80 SMs, 900 GB/s HBM2 (NVIDIA Tesla V100 datasheet and Volta
 *              architecture whitepaper, SXM2 16/32 GB).
 *   a100       108 SMs, 1555 GB/s HBM2 (NVIDIA A100 Tensor Core GPU
 *              architecture whitepaper, A100 40 GB; the 80 GB parts quote
 *              1935-2039 GB/s).
 *   h100       132 SMs, 3350 GB/s HBM3 (NVIDIA H100 datasheet and Hopper
 *              architecture whitepaper, H100 SXM5 80 GB; the PCIe card has
 *              114 SMs and 2000 GB/s).
 */
#include <string.h>

#include "executor.h"

static const struct eg_gpu gpus[] = {
    {"gtx1080ti", 28, 484e9},
    {"v100", 80, 900e9},
    {"a100", 108, 1555e9},
    {"h100", 132, 3350e9},
};

const struct eg_gpu *eg_gpu_find(const char *name)
{
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++)
		if (strcmp(gpus[i].name, name) == 0)
			return &gpus[i];
	return NULL;
}

const struct eg_gpu *eg_gpu_at(size_t i)
{
	return i < sizeof(gpus) / sizeof(gpus[0]) ? &gpus[i] : NULL;
}
