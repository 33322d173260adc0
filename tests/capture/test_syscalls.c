// SPDX-License-Identifier: MIT
/*
 * Description: under the captures that do not see kernel-mode touches
 * (mprotect, user-mode-only: UVMEMU_FAULT_CAPTURE), read/pread into managed
 * buffers resident on the device or never touched, and write/pwrite/writev
 * from device-resident ones, move exactly the bytes they would natively:
 * the runtime's wrappers (shim/syscalls.c) make the buffers resident on the
 * host for the call. Without them each call fails with EFAULT.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "uvmemu_cuda.h"

#define LEN (1u << 20) /* 16 blocks: some resident, some not */

static int fails;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "FAIL: " __VA_ARGS__);                                     \
			fputc('\n', stderr);                                                       \
			fails++;                                                                   \
		}                                                                                  \
	} while (0)

static uint8_t byte_at(size_t i, unsigned seed)
{
	return (uint8_t)((i * 2654435761u + seed) >> 7);
}

static uint8_t *managed(bool on_device, unsigned seed)
{
	uint8_t *p;

	if (cudaMallocManaged((void **)&p, LEN, cudaMemAttachGlobal) != cudaSuccess)
		exit(1);
	if (!on_device)
		return p; /* never touched */
	for (size_t i = 0; i < LEN; i++)
		p[i] = byte_at(i, seed);
	if (cudaMemPrefetchAsync(p, LEN, 0, 0) != cudaSuccess ||
	    cudaDeviceSynchronize() != cudaSuccess)
		exit(1);
	return p;
}

static int temp_file(unsigned seed)
{
	char path[] = "/tmp/uvmemu-syscalls-XXXXXX";
	uint8_t *plain = malloc(LEN);
	int fd = mkstemp(path);

	if (fd < 0 || !plain)
		exit(1);
	unlink(path);
	for (size_t i = 0; i < LEN; i++)
		plain[i] = byte_at(i, seed);
	if (write(fd, plain, LEN) != LEN)
		exit(1);
	free(plain);
	return fd;
}

static void expect_bytes(const uint8_t *p, unsigned seed, const char *what)
{
	size_t bad = 0;

	for (size_t i = 0; i < LEN; i++)
		bad += p[i] != byte_at(i, seed);
	CHECK(bad == 0, "%s: %zu of %u bytes differ", what, bad, LEN);
}

int main(void)
{
	int fd = temp_file(1), out = temp_file(0);
	uint8_t *dev = managed(true, 2), *fresh = managed(false, 0), *src = managed(true, 3);
	uint8_t *plain = malloc(LEN);
	struct iovec iov[2] = {{src, LEN / 2}, {src + LEN / 2, LEN / 2}};
	ssize_t n;

	n = pread(fd, dev, LEN, 0);
	CHECK(n == LEN, "pread into a device-resident buffer: %zd (%s)", n, strerror(errno));
	expect_bytes(dev, 1, "pread into a device-resident buffer");
	lseek(fd, 0, SEEK_SET);
	n = read(fd, fresh, LEN);
	CHECK(n == LEN, "read into a never-touched buffer: %zd (%s)", n, strerror(errno));
	expect_bytes(fresh, 1, "read into a never-touched buffer");

	n = pwrite(out, src, LEN, 0);
	CHECK(n == LEN, "pwrite from a device-resident buffer: %zd (%s)", n, strerror(errno));
	CHECK(pread(out, plain, LEN, 0) == LEN, "reading back");
	expect_bytes(plain, 3, "pwrite from a device-resident buffer");
	if (cudaMemPrefetchAsync(src, LEN, 0, 0) != cudaSuccess || cudaDeviceSynchronize())
		return 1;
	lseek(out, 0, SEEK_SET);
	n = write(out, src, LEN);
	CHECK(n == LEN, "write from a device-resident buffer: %zd (%s)", n, strerror(errno));
	CHECK(pread(out, plain, LEN, 0) == LEN, "reading back");
	expect_bytes(plain, 3, "write from a device-resident buffer");
	if (cudaMemPrefetchAsync(src, LEN, 0, 0) != cudaSuccess || cudaDeviceSynchronize())
		return 1;
	n = pwritev(out, iov, 2, 0);
	CHECK(n == LEN, "pwritev from a device-resident buffer: %zd (%s)", n, strerror(errno));
	CHECK(pread(out, plain, LEN, 0) == LEN, "reading back");
	expect_bytes(plain, 3, "pwritev from a device-resident buffer");

	cudaFree(dev);
	cudaFree(fresh);
	cudaFree(src);
	free(plain);
	if (!fails)
		printf("system calls on managed buffers: byte-exact\n");
	return fails ? 1 : 0;
}
