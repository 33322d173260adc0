// SPDX-License-Identifier: MIT
/*
 * gpu.c - the target GPUs of --gpu: SM count (the default of --sms) and peak
 * DRAM bandwidth (what --dilation auto compares emu-gpu's own against), from
 * the table the runtime takes the option's choices from (uvmemu_gpus.def).
 */
#include <string.h>

#include "executor.h"

static const struct eg_gpu gpus[] = {
#define UVMEMU_GPU(name, sms, bytes_per_s) {name, sms, bytes_per_s},
#include "uvmemu_gpus.def"
#undef UVMEMU_GPU
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
