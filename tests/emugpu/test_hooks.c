// SPDX-License-Identifier: MIT
/*
 * Description: emu-gpu calls the memory system's hooks as documented. Every
 * worker registers once with a distinct (SM, slot); kernel_begin comes when a
 * kernel starts, in stream order, with its shape, and kernel_end after its
 * last CTA and before the next kernel_begin; each CTA is bracketed by
 * cta_begin/cta_end with its kernel's launch index; nothing calibrates unless
 * asked; a launch names the launching thread's current device. The program
 * defines the hooks itself, so the executor's calls reach these wrappers
 * first; they record the call and pass it on to the runtime. Runs with
 * UVMEMU_SMS=3, UVMEMU_CTAS_PER_SM=2 and UVMEMU_GPUS=2.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emugpu.h"

#define LAUNCHES 40
#define MAX_CTAS 64

static struct {
	pthread_mutex_t lock;
	unsigned registered;
	bool slot_taken[3][2];
	unsigned bad_worker;
	bool running;
	uint64_t running_index;
	unsigned begins, ends;
	struct uvmemu_launch launch[LAUNCHES];
	uint64_t index[LAUNCHES];
	unsigned cta_begun[LAUNCHES][MAX_CTAS], cta_ended[LAUNCHES][MAX_CTAS];
	unsigned out_of_order; /* hook calls that broke the stream's order */
	unsigned calibrations;
} seen = {.lock = PTHREAD_MUTEX_INITIALIZER};

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

const struct uvmemu_slot *uvmemu_worker_register(unsigned sm, unsigned slot)
{
	pthread_mutex_lock(&seen.lock);
	seen.registered++;
	if (sm >= 3 || slot >= 2 || seen.slot_taken[sm][slot])
		seen.bad_worker++;
	else
		seen.slot_taken[sm][slot] = true;
	pthread_mutex_unlock(&seen.lock);
	return REAL(uvmemu_worker_register)(sm, slot);
}

uint64_t uvmemu_kernel_begin(const struct uvmemu_launch *launch)
{
	uint64_t index = REAL(uvmemu_kernel_begin)(launch);

	pthread_mutex_lock(&seen.lock);
	if (seen.running || seen.begins >= LAUNCHES)
		seen.out_of_order++;
	else {
		seen.launch[seen.begins] = *launch;
		seen.index[seen.begins] = index;
	}
	seen.running = true;
	seen.running_index = index;
	seen.begins++;
	pthread_mutex_unlock(&seen.lock);
	return index;
}

void uvmemu_kernel_end(uint64_t index)
{
	unsigned k;

	pthread_mutex_lock(&seen.lock);
	k = seen.begins - 1;
	if (!seen.running || seen.running_index != index || k >= LAUNCHES)
		seen.out_of_order++;
	else
		/* Every CTA of the kernel has ended before the kernel does. */
		for (unsigned c = 0; c < MAX_CTAS; c++)
			if (seen.cta_ended[k][c] != seen.cta_begun[k][c])
				seen.out_of_order++;
	seen.running = false;
	seen.ends++;
	pthread_mutex_unlock(&seen.lock);
	REAL(uvmemu_kernel_end)(index);
}

static void cta_hook(uint64_t index, unsigned cta, unsigned sm, bool begin)
{
	unsigned k;

	pthread_mutex_lock(&seen.lock);
	k = seen.begins - 1;
	if (!seen.running || seen.running_index != index || k >= LAUNCHES || cta >= MAX_CTAS ||
	    sm >= 3 || (!begin && seen.cta_begun[k][cta] != seen.cta_ended[k][cta] + 1))
		seen.out_of_order++;
	else if (begin)
		seen.cta_begun[k][cta]++;
	else
		seen.cta_ended[k][cta]++;
	pthread_mutex_unlock(&seen.lock);
}

void uvmemu_cta_begin(uint64_t index, unsigned cta, unsigned sm)
{
	cta_hook(index, cta, sm, true);
	REAL(uvmemu_cta_begin)(index, cta, sm);
}

void uvmemu_cta_end(uint64_t index, unsigned cta, unsigned sm)
{
	cta_hook(index, cta, sm, false);
	REAL(uvmemu_cta_end)(index, cta, sm);
}

void uvmemu_set_calibration(double measured, double target, const char *gpu)
{
	pthread_mutex_lock(&seen.lock);
	seen.calibrations++;
	pthread_mutex_unlock(&seen.lock);
	REAL(uvmemu_set_calibration)(measured, target, gpu);
}

struct count_args {
	unsigned *ctas;
};

EMU_KERNEL(count_ctas, struct count_args)
{
	atomicAdd(args->ctas, 1u);
}

EMU_KERNEL(other_kernel, struct count_args)
{
	atomicAdd(args->ctas, 1u);
}

static void test_hooks(void **state)
{
	static __typeof__(seen) got;
	unsigned ctas = 0, total = 0;
	struct emu_info info;

	for (unsigned l = 0; l < LAUNCHES; l++) {
		dim3 grid = {1 + l % 4, 1 + l % 3, 1 + l % 5}, block = {1 + l, 2, 1};

		total += grid.x * grid.y * grid.z;
		assert_int_equal(cudaSetDevice(l % 3 == 1), cudaSuccess);
		assert_int_equal(emu_launch(l % 2 ? &other_kernel : &count_ctas, grid, block, l * 8,
					    &(struct count_args){&ctas}),
				 cudaSuccess);
	}
	assert_int_equal(cudaSetDevice(0), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
	assert_int_equal(ctas, total);

	emu_get_info(&info);
	/* Check a copy: a failed assertion leaves the test at once, and must not
	 * leave the lock held while workers still call the hooks. */
	pthread_mutex_lock(&seen.lock);
	memcpy(&got, &seen, sizeof(got));
	pthread_mutex_unlock(&seen.lock);
	assert_int_equal(info.workers, 6);
	assert_int_equal(got.registered, 6);
	assert_int_equal(got.bad_worker, 0);
	assert_int_equal(got.out_of_order, 0);
	assert_int_equal(got.begins, LAUNCHES);
	assert_int_equal(got.ends, LAUNCHES);
	assert_false(got.running);
	assert_int_equal(got.calibrations, 0);
	for (unsigned l = 0; l < LAUNCHES; l++) {
		const struct uvmemu_launch *s = &got.launch[l];
		unsigned n = (1 + l % 4) * (1 + l % 3) * (1 + l % 5);

		assert_string_equal(s->kernel, l % 2 ? "other_kernel" : "count_ctas");
		assert_int_equal(s->grid.x, 1 + l % 4);
		assert_int_equal(s->grid.y, 1 + l % 3);
		assert_int_equal(s->grid.z, 1 + l % 5);
		assert_int_equal(s->block.x, 1 + l);
		assert_int_equal(s->block.y, 2);
		assert_int_equal(s->block.z, 1);
		assert_int_equal(s->shared_bytes, l * 8);
		assert_int_equal(s->device, l % 3 == 1);
		/* The runtime numbers launches 0, 1, 2 ... */
		assert_int_equal(got.index[l], l);
		for (unsigned c = 0; c < MAX_CTAS; c++) {
			assert_int_equal(got.cta_begun[l][c], c < n ? 1 : 0);
			assert_int_equal(got.cta_ended[l][c], c < n ? 1 : 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hooks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
