// SPDX-License-Identifier: MIT
/*
 * main.c - ra: HPCC RandomAccess. A table of `size` 64-bit words, Table[i] = i,
 * takes 4 * size updates (HPCC's rule; --updates changes it)
 * Table[ran mod size] ^= ran from `streams` streams
 * of HPCC's generator (ra.h), one stream per GPU thread, in one kernel launch.
 * atomicXor makes every update land, so the result is exact. A second kernel,
 * the verification pass, reads the whole table once on the GPU and folds it
 * into per-thread XOR checksums: a read-only sweep, the phase where
 * zero-copy and threshold migration differ from migrating on first touch.
 * The CPU check replays the whole run as one sequential stream from x^1 into
 * a reference table, which also checks each thread's jump to its start, and
 * compares both the table and the GPU's checksum with it.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "ra.h"
#include "wl.h"

#define RA_DEFAULT_LOG2 22
#define RA_MAX_WORDS	(1ll << 40)

static void reference(uint64_t *ref, uint64_t size, uint64_t mask, uint64_t updates)
{
	uint64_t ran = 1;

	for (uint64_t i = 0; i < size; i++)
		ref[i] = i;
	for (uint64_t m = 0; m < updates; m++) {
		ran = ra_step(ran);
		ref[ra_index(ran, size, mask)] ^= ran;
	}
}

int main(int argc, char **argv)
{
	struct wl w;
	long long log2_size = 0, streams = 128, block = 1, updates = 0;
	bool update_only = false;
	const struct wl_opt opts[] = {
	    {"log2-size", WL_INT, &log2_size, 1, 40,
	     "table of 2^k words (default 22; --footprint sizes it to the byte)"},
	    {"streams", WL_INT, &streams, 1, 1 << 24,
	     "generator streams = GPU threads (default "
	     "128, HPCC's)"},
	    {"block", WL_INT, &block, 1, 1024, "threads per CTA (default 1: see README)"},
	    {"updates", WL_INT, &updates, 1, 1ll << 50,
	     "table updates (default 4 per table word, HPCC's rule)"},
	    {"update-only", WL_FLAG, &update_only, 0, 0,
	     "no verification pass on the GPU: the update kernel alone, as a random-access "
	     "microbenchmark (the CPU still checks the table word for word)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	struct ra_args a;
	struct ra_check_args c;
	const size_t sums_bytes = RA_CHECK_SLABS * RA_CHECK_THREADS * sizeof(uint64_t);
	size_t table_bytes;
	uint64_t *table, *ref, *sums, gpu_sum = 0, ref_sum = 0;
	bool pass;

	wl_init(&w, "ra", "HPCC RandomAccess: random XOR updates of a 64-bit table", argc, argv,
		opts);
	if (w.footprint && log2_size)
		wl_usage_error(&w, "give --footprint or --log2-size, not both");
	a.size = w.footprint ? w.footprint / sizeof(uint64_t)
			     : 1ull << (log2_size ? log2_size : RA_DEFAULT_LOG2);
	if (a.size < 1 || a.size > (uint64_t)RA_MAX_WORDS)
		wl_usage_error(&w, "--footprint gives %" PRIu64 " words; accepted 1 to %lld",
			       a.size, RA_MAX_WORDS);
	a.mask = (a.size & (a.size - 1)) == 0 ? a.size - 1 : 0;
	a.updates = updates ? (uint64_t)updates : 4 * a.size;
	a.streams = (uint64_t)streams;

	table_bytes = a.size * sizeof(uint64_t);
	/* No hint suits it (--mem advise): every word is read and written at
	 * random, by atomics. */
	table = wl_managed(&w, table_bytes, "table");
	sums = wl_managed(&w, sums_bytes, "checksums");
	a.table = wl_dev(&w, table);
	c = (struct ra_check_args){wl_dev(&w, table), wl_dev(&w, sums), a.size};
	wl_footprint(&w, table_bytes + sums_bytes);
	uvmemu_report_value("table_words", (double)a.size);
	uvmemu_report_value("updates", (double)a.updates);
	uvmemu_report_value("streams", (double)a.streams);
	for (uint64_t i = 0; i < a.size; i++)
		table[i] = i;

	uvmemu_roi_begin();
	wl_to_gpu(&w, table, table_bytes);
	wl_gpu_space(&w, sums, sums_bytes);
	WL_CHECK(
	    &w, emu_launch(
		    &ra_update,
		    emu_dim3((unsigned)((a.streams + (uint64_t)block - 1) / (uint64_t)block), 1, 1),
		    emu_dim3((unsigned)block, 1, 1), 0, &a));
	if (!update_only)
		WL_CHECK(&w, emu_launch(&ra_checksum, emu_dim3(RA_CHECK_SLABS, 1, 1),
					emu_dim3(RA_CHECK_THREADS, 1, 1), 0, &c));
	wl_to_host(&w, sums, sums_bytes);
	wl_to_host(&w, table, table_bytes);
	uvmemu_roi_end();
	/* Without the GPU's pass the CPU folds the GPU's table, so that the
	 * printed and written checksum is the same figure either way. */
	if (update_only)
		for (uint64_t i = 0; i < a.size; i++)
			gpu_sum ^= table[i];
	else
		for (size_t i = 0; i < RA_CHECK_SLABS * RA_CHECK_THREADS; i++)
			gpu_sum ^= sums[i];

	ref = malloc(a.size * sizeof(uint64_t));
	if (!ref) {
		fprintf(stderr, "ra: out of memory for the reference table\n");
		return 1;
	}
	reference(ref, a.size, a.mask, a.updates);
	for (uint64_t i = 0; i < a.size; i++)
		ref_sum ^= ref[i];
	pass = wl_check_u64(&w, "table", table, ref, a.size);
	if (gpu_sum != ref_sum) {
		fprintf(stderr, "ra: GPU checksum %#" PRIx64 ", expected %#" PRIx64 "\n", gpu_sum,
			ref_sum);
		pass = false;
	}
	wl_log(&w, "table checksum (XOR of the GPU's %s) %#" PRIx64,
	       update_only ? "table, on the CPU" : "per-thread sums", gpu_sum);
	wl_output_u64(&w, "table", table, a.size);
	wl_output_u64(&w, "checksum", &gpu_sum, 1);
	free(ref);
	wl_free(&w, sums);
	wl_free(&w, table);
	return wl_finish(&w, pass);
}
