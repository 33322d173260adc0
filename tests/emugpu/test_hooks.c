// SPDX-License-Identifier: MIT
/*
 * Description: emu-gpu calls the memory system's hooks as documented. Every
 * worker registers once with a distinct (device, SM, slot), on its device (its
 * thread's current device); kernel_begin comes when a kernel starts, in its
 * device's stream order, with its shape, and kernel_end after its last CTA
 * and before that device's next kernel_begin; each CTA is bracketed by
 * cta_begin/cta_end with its kernel's launch index; nothing calibrates unless
 * asked; a launch names the launching thread's current device, and runs on
 * that device's workers. The program defines the hooks itself, so the
 * executor's calls reach these wrappers first; they record the call and pass
 * it on to the runtime. Runs with UVMEMU_SMS=3, UVMEMU_CTAS_PER_SM=2 and
 * UVMEMU_GPUS=2.
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
#define DEVICES	 2

/* What one device's stream did. */
struct stream_seen {
	bool running;
	uint64_t running_index;
	unsigned begins, ends;
	struct uvmemu_launch launch[LAUNCHES];
	uint64_t index[LAUNCHES];
	unsigned cta_begun[LAUNCHES][MAX_CTAS], cta_ended[LAUNCHES][MAX_CTAS];
};

static struct {
	pthread_mutex_t lock;
	unsigned registered;
	bool slot_taken[DEVICES][3][2];
	unsigned bad_worker;
	struct stream_seen dev[DEVICES];
	unsigned out_of_order; /* hook calls that broke a stream's order */
	unsigned calibrations;
} seen = {.lock = PTHREAD_MUTEX_INITIALIZER};

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

const struct uvmemu_slot *uvmemu_worker_register(unsigned sm, unsigned slot)
{
	int dev = -1;

	cudaGetDevice(&dev);
	pthread_mutex_lock(&seen.lock);
	seen.registered++;
	if (dev < 0 || dev >= DEVICES || sm >= 3 || slot >= 2 || seen.slot_taken[dev][sm][slot])
		seen.bad_worker++;
	else
		seen.slot_taken[dev][sm][slot] = true;
	pthread_mutex_unlock(&seen.lock);
	return REAL(uvmemu_worker_register)(sm, slot);
}

uint64_t uvmemu_kernel_begin(const struct uvmemu_launch *launch)
{
	uint64_t index = REAL(uvmemu_kernel_begin)(launch);
	struct stream_seen *d;

	pthread_mutex_lock(&seen.lock);
	if (launch->device < 0 || launch->device >= DEVICES) {
		seen.out_of_order++;
		goto out;
	}
	d = &seen.dev[launch->device];
	if (d->running || d->begins >= LAUNCHES)
		seen.out_of_order++;
	else {
		d->launch[d->begins] = *launch;
		d->index[d->begins] = index;
	}
	d->running = true;
	d->running_index = index;
	d->begins++;
out:
	pthread_mutex_unlock(&seen.lock);
	return index;
}

/* The device whose running kernel is launch `index` (NULL: none). */
static struct stream_seen *running(uint64_t index)
{
	for (unsigned i = 0; i < DEVICES; i++)
		if (seen.dev[i].running && seen.dev[i].running_index == index)
			return &seen.dev[i];
	return NULL;
}

void uvmemu_kernel_end(uint64_t index)
{
	struct stream_seen *d;
	unsigned k;

	pthread_mutex_lock(&seen.lock);
	d = running(index);
	if (!d || d->begins - 1 >= LAUNCHES) {
		seen.out_of_order++;
	} else {
		k = d->begins - 1;
		/* Every CTA of the kernel has ended before the kernel does. */
		for (unsigned c = 0; c < MAX_CTAS; c++)
			if (d->cta_ended[k][c] != d->cta_begun[k][c])
				seen.out_of_order++;
		d->running = false;
		d->ends++;
	}
	pthread_mutex_unlock(&seen.lock);
	REAL(uvmemu_kernel_end)(index);
}

static void cta_hook(uint64_t index, unsigned cta, unsigned sm, bool begin)
{
	struct stream_seen *d;
	int dev = -1;
	unsigned k;

	/* The worker runs on its device: the kernel's. */
	cudaGetDevice(&dev);
	pthread_mutex_lock(&seen.lock);
	d = running(index);
	k = d ? d->begins - 1 : 0;
	if (!d || d != &seen.dev[dev < 0 || dev >= DEVICES ? 0 : dev] || k >= LAUNCHES ||
	    cta >= MAX_CTAS || sm >= 3 ||
	    (!begin && d->cta_begun[k][cta] != d->cta_ended[k][cta] + 1))
		seen.out_of_order++;
	else if (begin)
		d->cta_begun[k][cta]++;
	else
		d->cta_ended[k][cta]++;
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
	unsigned ctas = 0, total = 0, nth[DEVICES] = {0};
	bool index_seen[LAUNCHES] = {false};
	struct emu_info info;

	for (unsigned l = 0; l < LAUNCHES; l++) {
		dim3 grid = {1 + l % 4, 1 + l % 3, 1 + l % 5}, block = {1 + l, 2, 1};

		total += grid.x * grid.y * grid.z;
		assert_int_equal(cudaSetDevice(l % 3 == 1), cudaSuccess);
		assert_int_equal(emu_launch(l % 2 ? &other_kernel : &count_ctas, grid, block, l * 8,
					    &(struct count_args){&ctas}),
				 cudaSuccess);
	}
	/* A synchronize waits for its device's stream: both are waited for. */
	assert_int_equal(cudaSetDevice(1), cudaSuccess);
	assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
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
	/* Each device's pool started at its first launch. */
	assert_int_equal(got.registered, 12);
	assert_int_equal(got.bad_worker, 0);
	assert_int_equal(got.out_of_order, 0);
	assert_int_equal(got.dev[0].begins + got.dev[1].begins, LAUNCHES);
	assert_int_equal(got.dev[0].ends + got.dev[1].ends, LAUNCHES);
	assert_false(got.dev[0].running);
	assert_false(got.dev[1].running);
	assert_int_equal(got.calibrations, 0);
	for (unsigned l = 0; l < LAUNCHES; l++) {
		unsigned dev = l % 3 == 1, j = nth[dev]++;
		const struct uvmemu_launch *s = &got.dev[dev].launch[j];
		unsigned n = (1 + l % 4) * (1 + l % 3) * (1 + l % 5);

		/* A device's launches begin in the order they were made. */
		assert_string_equal(s->kernel, l % 2 ? "other_kernel" : "count_ctas");
		assert_int_equal(s->grid.x, 1 + l % 4);
		assert_int_equal(s->grid.y, 1 + l % 3);
		assert_int_equal(s->grid.z, 1 + l % 5);
		assert_int_equal(s->block.x, 1 + l);
		assert_int_equal(s->block.y, 2);
		assert_int_equal(s->block.z, 1);
		assert_int_equal(s->shared_bytes, l * 8);
		assert_int_equal(s->device, dev);
		/* The runtime numbers launches 0, 1, 2 ... as they begin: in
		 * order on each device. */
		assert_true(got.dev[dev].index[j] < LAUNCHES);
		assert_false(index_seen[got.dev[dev].index[j]]);
		index_seen[got.dev[dev].index[j]] = true;
		if (j > 0)
			assert_true(got.dev[dev].index[j] > got.dev[dev].index[j - 1]);
		for (unsigned c = 0; c < MAX_CTAS; c++) {
			assert_int_equal(got.dev[dev].cta_begun[j][c], c < n ? 1 : 0);
			assert_int_equal(got.dev[dev].cta_ended[j][c], c < n ? 1 : 0);
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
