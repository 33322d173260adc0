// SPDX-License-Identifier: MIT
/*
 * Description: under --fault-capture mprotect a kernel's own invalid access
 * is still cudaErrorIllegalAddress (emu-gpu's SIGSEGV handler and the
 * capture's are chained: a fault in an open managed block is the capture's,
 * any other the kernel's), both outside the managed views and past an
 * allocation's end inside its slot; and the capture keeps serving kernels'
 * and the CPU's faults on managed data afterwards.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "emugpu.h"

#include "../reliability/peek.h"

static int fails;

static void expect(cudaError_t got, cudaError_t want, const char *what)
{
	if (got != want) {
		fprintf(stderr, "FAIL: %s: %s, expected %s\n", what, cudaGetErrorName(got),
			cudaGetErrorName(want));
		fails++;
	}
}

int main(void)
{
	static uint8_t out;
	uint8_t *p;

	if (cudaMallocManaged((void **)&p, 100, cudaMemAttachGlobal) != cudaSuccess)
		return 1;
	memset(p, 7, 100);
	expect(EMU_LAUNCH(peek, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0, p, 99, &out), cudaSuccess,
	       "launch");
	expect(cudaDeviceSynchronize(), cudaSuccess, "a managed read");
	if (out != 7)
		fails++;
	expect(EMU_LAUNCH(peek, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0, (const uint8_t *)64, 0,
			  &out),
	       cudaSuccess, "launch");
	expect(cudaDeviceSynchronize(), cudaErrorIllegalAddress, "a read of address 64");
	cudaGetLastError();
	expect(EMU_LAUNCH(peek, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0, p, 300000, &out),
	       cudaSuccess, "launch");
	expect(cudaDeviceSynchronize(), cudaErrorIllegalAddress, "a read past the allocation");
	cudaGetLastError();
	/* Back on the CPU (a fault through the capture), then the GPU again. */
	p[5] = 9;
	expect(EMU_LAUNCH(peek, emu_dim3(1, 1, 1), emu_dim3(32, 1, 1), 0, p, 5, &out), cudaSuccess,
	       "launch");
	expect(cudaDeviceSynchronize(), cudaSuccess, "a managed read after the faults");
	if (out != 9) {
		fprintf(stderr, "FAIL: read %u, expected 9\n", out);
		fails++;
	}
	expect(cudaFree(p), cudaSuccess, "cudaFree");
	if (!fails)
		printf("kernel faults under the mprotect capture: cudaErrorIllegalAddress\n");
	return fails ? 1 : 0;
}
