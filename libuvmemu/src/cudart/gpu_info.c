// SPDX-License-Identifier: MIT
/*
 * gpu_info.c - build/bin/cuda/gpu-info: what bench/gpu/validate needs to know
 * of this machine's GPU before it runs anything there, as key=value lines:
 * the device, its memory free and in all, the driver's and the runtime's
 * CUDA versions, whether it pages managed memory on demand, and whether
 * CUPTI's Unified Memory counters work. Exit 0 with a GPU; 3, with one line
 * saying why, without.
 */
#include <stdio.h>

#include "cudart.h"

int main(void)
{
	struct cudaDeviceProp p;
	size_t free_b = 0, total_b = 0;
	int n = 0, driver = 0, runtime = 0, concurrent = 0, pageable = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	if (e == cudaSuccess && n == 0)
		e = cudaErrorNoDevice;
	if (e == cudaSuccess)
		e = cudaGetDeviceProperties(&p, 0);
	if (e == cudaSuccess)
		e = cudaMemGetInfo(&free_b, &total_b);
	if (e != cudaSuccess) {
		printf("gpu=absent: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
		return 3;
	}
	cudaDriverGetVersion(&driver);
	cudaRuntimeGetVersion(&runtime);
	cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0);
	cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0);
	printf("gpu=%s\n", p.name);
	printf("devices=%d\n", n);
	printf("compute_capability=%d.%d\n", p.major, p.minor);
	printf("sms=%d\n", p.multiProcessorCount);
	printf("mem_total=%zu\nmem_free=%zu\n", total_b, free_b);
	printf("pci_bus_id=%04x:%02x:%02x.0\n", p.pciDomainID, p.pciBusID, p.pciDeviceID);
	printf("driver_cuda=%d.%d\nruntime_cuda=%d.%d\n", driver / 1000, driver % 1000 / 10,
	       runtime / 1000, runtime % 1000 / 10);
	/* On-demand paging of managed memory (Pascal and later, on Linux);
	 * without it managed memory moves whole at each launch. */
	printf("concurrent_managed_access=%d\npageable_memory_access=%d\n", concurrent, pageable);
	uvmc_attach();
	printf("cupti=%s\n", uvmc_run()->cupti_why ? uvmc_run()->cupti_why : uvmc_cupti_path());
	return 0;
}
