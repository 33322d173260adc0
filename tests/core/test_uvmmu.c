// SPDX-License-Identifier: MIT
/*
 * Description: the UVMMU fault path (--fault-path uvmmu, uvmmu.h).
 * Critical page first, on the model's own timestamps (no wall time): the
 * faulting thread's wake-up is due when its 4 KB page's share of the 64 KB
 * transfer is done, before the block's modelled end; a thread that touches
 * another page of the block in flight is due only at that end, and one on
 * another block is not held back. A swap's write-back takes the other link
 * direction and does not delay the fetch. End to end, an oversubscribed
 * buffer read and written by several "GPU" threads through the path keeps
 * every byte, resolves its faults one by one and swaps. CPU faults are the
 * driver's, not UVMMU's: with --cpu-prefetch tree (what --fault-path uvmmu
 * implies) reading the buffer back brings blocks along with each fault;
 * with the GPU's prefetcher (none) every block faults alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "model.h"
#include "uvmmu.h"

#define T0     1000000000ull /* an arbitrary modelled time, ns */
#define DIL    10.0
#define LAT_NS 1300u
#define BLOCK  7u
#define DEV    0x7f0000000000ull

/* The model of a PCIe 3 link at dilation DIL. */
static void pcie3(struct uvm_model *m)
{
	memset(m, 0, sizeof(*m));
	uvm_mutex_init(&m->link.lock, UVM_LOCK_LINK);
	m->link.bandwidth = 16e9;
	m->link.latency_ns = 1000;
	m->fixed_dilation = true;
	atomic_init(&m->dilation, DIL);
}

static void test_critical_page_first(void **state)
{
	struct uvm_model l;
	struct uvm_uvmmu_sched s = {0};
	struct uvm_uvmmu_wake w[4];
	uintptr_t block = DEV + ((uintptr_t)BLOCK << UVM_BLOCK_SHIFT);
	uint64_t lat_end = T0 + (uint64_t)(LAT_NS * DIL), end, crit, other;

	(void)state;
	pcie3(&l);
	end = uvm_model_transfer(&l, UVM_H2D, UVM_BLOCK_SIZE, lat_end);
	crit = uvm_model_critical(&l, lat_end, end, UVM_BLOCK_SIZE);
	/* The page's share: after the latency and one page's transfer, a
	 * whole 60 KB earlier than the block. */
	assert_true(crit >= lat_end + uvm_model_busy_ns(&l, UVM_PAGE_SIZE));
	assert_int_equal(end - crit, uvm_model_busy_ns(&l, UVM_BLOCK_SIZE - UVM_PAGE_SIZE));
	assert_true(crit < end);

	/* Thread A faulted on page 2 of the block; thread B then touches page 5. */
	assert_int_equal(uvm_uvmmu_sched_migrated(&s, BLOCK, block + 2 * UVM_PAGE_SIZE, block, crit,
						  end, lat_end),
			 0);
	other = uvm_uvmmu_sched_other(&s, BLOCK, block, UVM_BLOCK_SIZE, T0 + 100);
	assert_int_equal(other, end);
	/* A thread on another block is not held back by this one. */
	assert_int_equal(
	    uvm_uvmmu_sched_other(&s, BLOCK + 1, block + UVM_BLOCK_SIZE, UVM_BLOCK_SIZE, T0 + 100),
	    T0 + 100);
	assert_int_equal(uvm_uvmmu_sched_pop(&s, T0 + 100, w, 4), 1);
	assert_int_equal(w[0].block, BLOCK + 1);

	assert_int_equal(uvm_uvmmu_sched_next(&s), crit);
	assert_int_equal(uvm_uvmmu_sched_pop(&s, crit - 1, w, 4), 0);
	/* At the critical page's time only A's page wakes. */
	assert_int_equal(uvm_uvmmu_sched_pop(&s, crit, w, 4), 1);
	assert_int_equal(w[0].addr, block + 2 * UVM_PAGE_SIZE);
	assert_int_equal(w[0].len, UVM_PAGE_SIZE);
	/* B (and the rest of the block) only at its end. */
	assert_int_equal(uvm_uvmmu_sched_pop(&s, end - 1, w, 4), 0);
	assert_int_equal(uvm_uvmmu_sched_pop(&s, end, w, 4), 2);
	assert_int_equal(w[0].at, end);
	assert_int_equal(w[1].at, end);
	assert_int_equal(s.n, 0);
	uvm_uvmmu_sched_destroy(&s);
	uvm_model_destroy(&l);
}

static void test_zero_fill_costs_the_latency(void **state)
{
	struct uvm_model l;

	(void)state;
	pcie3(&l);
	/* Nothing crosses the link: the hardware latency alone. */
	assert_int_equal(uvm_model_critical(&l, T0, 0, 0), T0);
	uvm_model_destroy(&l);
}

static void test_swap_uses_both_directions(void **state)
{
	struct uvm_model l, alone;
	uint64_t lat_end = T0 + (uint64_t)(LAT_NS * DIL), wb, fetch, fetch_alone;

	(void)state;
	pcie3(&l);
	pcie3(&alone);
	/* The victim's write-back and the fetch are issued together. */
	wb = uvm_model_transfer(&l, UVM_D2H, UVM_BLOCK_SIZE, lat_end);
	fetch = uvm_model_transfer(&l, UVM_H2D, UVM_BLOCK_SIZE, lat_end);
	fetch_alone = uvm_model_transfer(&alone, UVM_H2D, UVM_BLOCK_SIZE, lat_end);
	assert_int_equal(fetch, fetch_alone);
	assert_int_equal(wb, fetch);
	uvm_model_destroy(&l);
	uvm_model_destroy(&alone);
}

#define BYTES	 (8u << 20)
#define NTHREADS 4

struct work {
	uint8_t *dev;
};

/* Each thread reads its quarter (checking what the host wrote) and writes it. */
static void gpu_pass(int index, void *arg)
{
	struct work *w = arg;
	size_t part = BYTES / NTHREADS, lo = (size_t)index * part;

	for (size_t i = lo; i < lo + part; i += 512) {
		assert_int_equal(w->dev[i], (uint8_t)(i >> 9));
		w->dev[i] = (uint8_t)((i >> 9) + 1);
	}
}

/* The host writes the buffer, the "GPU" threads check and rewrite it, and
 * the host checks it back; *on_gpu (if given): the counters before that. */
static void round_trip(struct th_emu *t, struct uvm_stats *on_gpu)
{
	uint8_t *host = th_managed(t, BYTES);
	struct work w;

	for (size_t i = 0; i < BYTES; i += 512)
		host[i] = (uint8_t)(i >> 9);
	w.dev = th_dev(t, host);
	th_parallel(NTHREADS, gpu_pass, &w);
	if (on_gpu)
		*on_gpu = th_stats(t);
	for (size_t i = 0; i < BYTES; i += 512)
		assert_int_equal(host[i], (uint8_t)((i >> 9) + 1));
}

/* Under either clock: the real clock waits for each migration's modelled
 * end, the model clock computes it. */
static void end_to_end(const char *clock)
{
	const char *const opts[] = {"fault-path=uvmmu",
				    "prefetch=none",
				    "evict=random",
				    "device-mem=6M",
				    "link=pcie3",
				    clock,
				    NULL};
	struct th_emu t;
	struct uvm_stats st;

	th_start(&t, opts);
	round_trip(&t, NULL);
	st = th_stats(&t);
	th_stop(&t);
	assert_true(st.uvmmu_faults >= BYTES / UVM_BLOCK_SIZE);
	assert_true(st.blocks_evicted > 0);
	assert_int_equal(st.blocks_prefetched, 0);
	assert_true(st.cq_refills >= 1); /* 96 frames: the first 64 are not enough */
	/* The real clock waits for every migration (the model clock's
	 * migrations are the GPU clock's, counted in its figures). */
	if (strcmp(clock, "clock=real") == 0)
		assert_int_equal(st.modelled_batches, st.uvmmu_faults);
}

static void test_end_to_end(void **state)
{
	(void)state;
	end_to_end("clock=model");
}

static void test_end_to_end_real_clock(void **state)
{
	(void)state;
	end_to_end("clock=real");
}

/* The blocks the host's read-back of a GPU-resident buffer faulted and
 * prefetched, with CPU faults served by `cpu_prefetch`. */
static void read_back(const char *cpu_prefetch, uint64_t *faults, uint64_t *prefetched)
{
	const char *const opts[] = {"fault-path=uvmmu", "prefetch=none",  cpu_prefetch,
				    "evict=random",	"device-mem=64M", NULL};
	struct th_emu t;
	struct uvm_stats on_gpu, back;

	th_start(&t, opts);
	round_trip(&t, &on_gpu);
	back = th_stats(&t);
	th_stop(&t);
	assert_int_equal(on_gpu.blocks_prefetched, 0); /* the GPU's side: none */
	*faults = back.cpu_faults - on_gpu.cpu_faults;
	*prefetched = back.blocks_cpu_prefetched - on_gpu.blocks_cpu_prefetched;
}

static void test_cpu_faults_keep_the_drivers_prefetcher(void **state)
{
	uint64_t faults, prefetched;

	(void)state;
	read_back("cpu-prefetch=tree", &faults, &prefetched);
	assert_true(prefetched > 0);
	assert_true(faults < BYTES / UVM_BLOCK_SIZE);
	read_back("cpu-prefetch=same", &faults, &prefetched);
	assert_int_equal(prefetched, 0);
	assert_int_equal(faults, BYTES / UVM_BLOCK_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_critical_page_first),
	    cmocka_unit_test(test_zero_fill_costs_the_latency),
	    cmocka_unit_test(test_swap_uses_both_directions),
	    cmocka_unit_test(test_end_to_end),
	    cmocka_unit_test(test_end_to_end_real_clock),
	    cmocka_unit_test(test_cpu_faults_keep_the_drivers_prefetcher),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
