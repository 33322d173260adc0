// SPDX-License-Identifier: MIT
/*
 * Description: the timeline builder. Hand-made records give exact slices:
 * stages laid end to end from the batch's start, a fault stall from its
 * batch's start to its replay, a deferred fault's two stalls merged into one,
 * a stall that begins before its CTA clamped into it, modelled time as real
 * time / D less the part of a batch past its modelled end, transfers on
 * their link's track. Past the budget, worker tracks are thinned whole:
 * what is shown of a worker is all of it. Under the model clock, process 2
 * is the model's records as they are: batches, bookings, slots' stalls and
 * kernels at their modelled times, overlapping batches on lanes, and
 * process 1 keeps the real records. A live emulator instance traced from
 * many threads at once (faults, CTA boundaries, link bookings; the
 * sanitizer builds run it) writes a timeline with its batches and CTAs,
 * under either clock: under the model clock, a batch slice in modelled time
 * per row of gpu_batches.csv.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"
#include "timeline.h"
#include "trace_files.h"

/* The timeline as a string (the caller frees it). */
static char *write_out(struct uvm_timeline *tl)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(uvm_timeline_write(tl, f, "test", err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

/* The event of process pid, track tid, named name, starting at ts ("1.000"). */
static const char *find(const char *json, int pid, int tid, const char *ts, const char *name)
{
	char head[128], tail[128];

	snprintf(head, sizeof(head), "\"pid\":%d,\"tid\":%d,\"ts\":%s,", pid, tid, ts);
	snprintf(tail, sizeof(tail), "\"name\":\"%s\"", name);
	for (const char *p = json; (p = strstr(p, head)); p++) {
		const char *end = strchr(p, '\n');

		if (!end || (strstr(p, tail) && strstr(p, tail) < end))
			return p;
	}
	return NULL;
}

static void assert_event(const char *json, int pid, int tid, const char *ts, const char *name,
			 const char *dur)
{
	const char *e = find(json, pid, tid, ts, name);
	char want[64];

	if (!e)
		fail_msg("no event '%s' at %s us on pid %d tid %d", name, ts, pid, tid);
	snprintf(want, sizeof(want), "\"dur\":%s,", dur);
	if (strncmp(strstr(e, "\"dur\":"), want, strlen(want)) != 0)
		fail_msg("'%s' at %s us: %.40s, expected %s", name, ts, strstr(e, "\"dur\":"),
			 want);
}

static struct uvm_tl_batch batch(uint64_t seq, uint64_t start, uint64_t model_end)
{
	struct uvm_tl_batch b = {
	    .seq = seq, .start_ns = start, .model_end_ns = model_end, .dilation = 2};

	b.st.gpu_faults = 2;
	b.st.batches = 1;
	b.st.ns.fetch = 10;
	b.st.ns.preprocess = 5;
	b.st.ns.service = 100;
	b.st.ns.policy = 10;
	b.st.ns.unmap = 20;
	b.st.ns.copy = 30;
	b.st.ns.map = 5;
	b.st.ns.fault_latency = 40;
	b.st.ns.throttle = 20;
	b.st.ns.replay = 7;
	b.st.ns.tracker_wait = 3;
	b.device_bytes = 65536;
	return b;
}

static void fault(struct uvm_timeline *tl, uint32_t tid, int sm, uint64_t t, int outcome)
{
	struct uvm_trace_fault f = {.t_ns = t,
				    .page = 0x10000,
				    .tid = tid,
				    .sm = sm,
				    .count = 1,
				    .gpu = 1,
				    .outcome = (uint8_t)outcome};

	uvm_timeline_fault(tl, &f);
}

static void test_layout_and_modelled_time(void **state)
{
	struct uvm_timeline *tl = uvm_timeline_new(100000);
	struct uvm_tl_batch b1 = batch(1, 1000000, 1060000), b2 = batch(2, 3000000, 3060000);
	struct uvm_tl_kernel k = {.launch = 0, .begin_ns = 800000, .end_ns = 6000000, .name = "k"};
	struct uvm_tl_counts c;
	char *json;

	/* Stage times in microseconds here: x 1000. */
	for (struct uvm_tl_batch *b = &b1; b; b = b == &b1 ? &b2 : NULL) {
		uint64_t *ns = (uint64_t *)&b->st.ns;

		for (size_t i = 0; i < sizeof(b->st.ns) / sizeof(*ns); i++)
			ns[i] *= 1000;
	}
	/* Worker 100: a CTA and a stall in batch 1. Worker 101: deferred in
	 * batch 1, serviced in batch 2. Worker 102: its CTA began after its
	 * batch did (the driver had woken already). */
	uvm_timeline_cta(tl, 100, 0, 0, 7, true, 900000);
	uvm_timeline_cta(tl, 101, 1, 0, 8, true, 950000);
	uvm_timeline_cta(tl, 102, 2, 0, 9, true, 1001000);
	fault(tl, 100, 0, 1000000, UVM_OUT_MIGRATED);
	fault(tl, 101, 1, 1000000, UVM_OUT_DEFERRED);
	fault(tl, 102, 2, 1000000, UVM_OUT_MIGRATED);
	uvm_timeline_transfer(tl, 0, 65536, 1010000, 1050000);
	uvm_timeline_batch(tl, &b1);
	uvm_timeline_cta(tl, 100, 0, 0, 7, false, 2000000);
	uvm_timeline_cta(tl, 102, 2, 0, 9, false, 2500000);
	fault(tl, 101, 1, 3000000, UVM_OUT_MIGRATED);
	uvm_timeline_batch(tl, &b2);
	uvm_timeline_cta(tl, 101, 1, 0, 8, false, 5000000);
	uvm_timeline_kernel(tl, &k);
	json = write_out(tl);

	/* Real time. Tracks: 1 driver, 2 host to device, then threads from 10
	 * in order of appearance. The batch: fetch 10, preprocess 5, service
	 * 100 (its parts from its start), fault latency 40, throttle 20,
	 * replay 7, tracker wait 3: 185 us. */
	assert_event(json, 1, 1, "1000.000", "batch", "185.000");
	assert_event(json, 1, 1, "1000.000", "fetch", "10.000");
	assert_event(json, 1, 1, "1015.000", "service", "100.000");
	assert_event(json, 1, 1, "1015.000", "policy", "10.000");
	assert_event(json, 1, 1, "1075.000", "map", "5.000");
	assert_event(json, 1, 1, "1115.000", "fault latency", "40.000");
	assert_event(json, 1, 1, "1175.000", "replay", "7.000");
	/* Stalls end where the replay begins: 175 us after the batch's start. */
	assert_event(json, 1, 10, "900.000", "k", "1100.000");
	assert_event(json, 1, 10, "1000.000", "far fault", "175.000");
	assert_event(json, 1, 11, "1000.000", "far fault", "2175.000"); /* merged */
	assert_non_null(strstr(json, "\"batches\":2"));
	assert_event(json, 1, 12, "1001.000", "far fault", "174.000"); /* clamped */
	assert_event(json, 1, 2, "1010.000", "host to device", "40.000");
	/* Modelled time: batch 1 is cut at its modelled end (60 us in), the
	 * rest, 125 us, takes none; then everything / 2. */
	assert_event(json, 2, 1, "500.000", "batch", "30.000");
	assert_event(json, 2, 1, "500.000", "fetch", "5.000");
	assert_event(json, 2, 1, "507.500", "service", "22.500");
	assert_event(json, 2, 2, "505.000", "host to device", "20.000");
	assert_event(json, 2, 1, "1437.500", "batch", "30.000"); /* (3000 - 125) / 2 */
	assert_event(json, 2, 10, "450.000", "k", "487.500");	 /* (900..2000, less 125) / 2 */
	/* Kernels and counters, both processes. */
	assert_int_equal(tf_occurrences(json, "\"ph\":\"b\""), 2);
	assert_int_equal(tf_occurrences(json, "\"name\":\"device memory in use\""), 4);
	assert_int_equal(tf_occurrences(json, "\"name\":\"faults per batch\""), 4);
	uvm_timeline_counts(tl, &c);
	assert_int_equal(c.dropped, 0);
	assert_int_equal(c.tracks_total, 3);
	assert_int_equal(c.tracks_shown, 3);
	free(json);
	uvm_timeline_free(tl);
}

static void gpu_batch(struct uvm_timeline *tl, uint64_t seq, uint64_t start, uint64_t end,
		      uint32_t faults)
{
	struct uvm_gpu_batch b = {.seq = seq,
				  .start_ns = start,
				  .end_ns = end,
				  .faults = faults,
				  .vablocks = 1,
				  .pages = faults,
				  .h2d_bytes = 65536u * faults};

	uvm_timeline_gpu_batch(tl, &b);
}

static void test_model_clock_process(void **state)
{
	struct uvm_timeline *tl = uvm_timeline_new(100000);
	struct uvm_tl_batch real = batch(1, 1000000, 1060000);
	struct uvm_tl_kernel k0 = {.launch = 0,
				   .begin_ns = 800000,
				   .end_ns = 6000000,
				   .modelled = true,
				   .model_begin_ns = 90000,
				   .model_end_ns = 250000,
				   .name = "k"},
			     k1 = {.launch = 1,
				   .begin_ns = 6100000,
				   .end_ns = 6200000,
				   .modelled = true,
				   .model_begin_ns = 90000, /* untimed: an earlier begin */
				   .model_end_ns = 90000,
				   .name = "k1"};
	char *json;

	(void)state;
	uvm_timeline_model_clock(tl);
	uvm_timeline_batch(tl, &real);
	uvm_timeline_cta(tl, 100, 0, 0, 7, true, 900000);
	uvm_timeline_cta(tl, 100, 0, 0, 7, false, 2000000);
	/* Batches 1 and 2 back to back; 3 overlaps 2 (UVMMU's faults do). */
	gpu_batch(tl, 1, 100000, 145000, 3);
	gpu_batch(tl, 2, 145000, 200000, 2);
	gpu_batch(tl, 3, 150000, 170000, 1);
	/* 64 KB at 16 GB/s: 4.096 us. */
	uvm_timeline_gpu_transfer(tl, 0, 65536, 100000, 104096);
	uvm_timeline_gpu_transfer(tl, 1, 65536, 146000, 150096);
	uvm_timeline_gpu_stall(tl, 3, 110000, 145000);
	uvm_timeline_gpu_stall(tl, 3, 150000, 200000);
	uvm_timeline_gpu_stall(tl, 5, 120000, 170000);
	uvm_timeline_kernel(tl, &k0);
	uvm_timeline_kernel(tl, &k1);
	json = write_out(tl);

	/* Modelled time: the model's records as they are, nothing cut. */
	assert_event(json, 2, 1, "100.000", "batch", "45.000");
	assert_event(json, 2, 1, "145.000", "batch", "55.000");
	assert_event(json, 2, (1 << 20) + 1, "150.000", "batch", "20.000"); /* the second lane */
	assert_non_null(
	    strstr(json, "\"args\":{\"seq\":1,\"gpu\":0,\"faults\":3,\"vablocks\":1,\"pages\":3,"
			 "\"h2d_bytes\":196608,\"d2h_bytes\":0}"));
	assert_non_null(strstr(json, "overlapping (lane 2)"));
	assert_event(json, 2, 2, "100.000", "host to device", "4.096");
	assert_event(json, 2, 3, "146.000", "device to host", "4.096");
	assert_event(json, 2, 13, "110.000", "far-fault stall", "35.000"); /* slot 3 */
	assert_event(json, 2, 13, "150.000", "far-fault stall", "50.000");
	assert_event(json, 2, 15, "120.000", "far-fault stall", "50.000"); /* slot 5 */
	assert_non_null(strstr(json, "\"name\":\"CTA slot 5: far-fault stalls\""));
	/* Kernels at their modelled begin and end; the untimed one after. */
	assert_non_null(find(json, 2, 0, "90.000", "k"));
	assert_non_null(find(json, 2, 0, "250.000", "k1"));
	/* No stages, CTAs or device memory in modelled time: they are real. */
	assert_int_equal(tf_occurrences(json, "\"pid\":2,\"tid\":1,"),
			 2 + 2); /* 2 names, 2 slices */
	assert_int_equal(tf_occurrences(json, "\"cat\":\"cta\""), 1);
	assert_int_equal(tf_occurrences(json, "\"name\":\"device memory in use\""), 1);
	assert_int_equal(tf_occurrences(json, "\"name\":\"faults per batch\""), 1 + 3);
	/* Real time as under the real clock: the batch's stages (ns here) from
	 * its start. */
	assert_event(json, 1, 1, "1000.000", "batch", "0.185");
	assert_event(json, 1, 10, "900.000", "k", "1100.000");
	assert_non_null(strstr(json, "\"clock\":\"model\",\"modelled_time\":\"process 2: the model "
				     "clock's own records"));
	free(json);
	uvm_timeline_free(tl);
}

static void test_thinning_keeps_whole_tracks(void **state)
{
	/* 1000 events: 313 for threads; 64 workers of 100 CTAs each. */
	struct uvm_timeline *tl = uvm_timeline_new(1000);
	struct uvm_tl_counts c;
	char *json;

	for (uint64_t i = 0; i < 100; i++)
		for (uint32_t w = 0; w < 64; w++) {
			uvm_timeline_cta(tl, 1000 + w, (int)w / 4, 0, (uint32_t)(64 * i + w), true,
					 1000 * (2 * i));
			uvm_timeline_cta(tl, 1000 + w, (int)w / 4, 0, (uint32_t)(64 * i + w), false,
					 1000 * (2 * i + 1));
		}
	json = write_out(tl);
	uvm_timeline_counts(tl, &c);
	assert_int_equal(c.tracks_total, 64);
	assert_int_equal(c.tracks_shown, 2); /* 3 would not fit, 2 do: workers 0 and 32 */
	assert_int_equal(tf_occurrences(json, "\"cat\":\"cta\""), 2 * 200);
	assert_int_equal(c.dropped, 6400 - 200);
	assert_true(c.events <= 1000);
	free(json);
	uvm_timeline_free(tl);
}

struct live {
	struct th_emu t;
	uint8_t *dev;
	size_t bytes;
};

/* Worker `index`'s CTAs, each a touch of one block. */
static void gpu_thread_touch(struct live *l, int index)
{
	unsigned sum = 0;

	for (size_t off = (size_t)index << 16, cta = 0; off < l->bytes; off += 8 << 16, cta++) {
		uvm_emu_cta(l->t.e, 0, (unsigned)(cta * 8 + (size_t)index), (unsigned)index, true);
		sum += l->dev[off];
		uvm_emu_cta(l->t.e, 0, (unsigned)(cta * 8 + (size_t)index), (unsigned)index, false);
	}
	assert_int_equal(sum, 0); /* never written: zero-filled */
}

static void gpu_thread(int index, void *arg)
{
	struct live *l = arg;

	uvm_emu_worker_register(l->t.e, (unsigned)index);
	gpu_thread_touch(l, index);
}

/* The run's file `name` in dir as a string (the caller frees it). */
static void test_live_run_from_many_threads(void **state)
{
	char dir[] = "/tmp/uvmemu-timeline-XXXXXX", opt[64];
	const char *opts[] = {opt,	    "clock=real",	  "device-mem=4M",
			      "link-bw=8G", "fault-latency=10us", NULL};
	struct uvmemu_launch launch = {.kernel = "touch", .grid = {8, 1, 1}, .block = {1, 1, 1}};
	struct live l = {.bytes = 16u << 20};
	char *json;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(opt, sizeof(opt), "trace=%s", dir);
	th_start(&l.t, opts);
	l.dev = th_dev(&l.t, th_managed(&l.t, l.bytes));
	assert_int_equal(uvm_emu_kernel_begin(l.t.e, 0, &launch), 0);
	th_parallel(8, gpu_thread, &l);
	uvm_emu_kernel_end(l.t.e, 0);
	th_stop(&l.t); /* writes the timeline */
	json = tf_slurp(dir, "timeline.json");
	assert_true(tf_occurrences(json, "\"cat\":\"driver\",\"name\":\"batch\"") > 0);
	assert_int_equal(tf_occurrences(json, "\"cat\":\"cta\""), 2 * 256);
	assert_true(tf_occurrences(json, "\"name\":\"host to device\"") +
			tf_occurrences(json, "\"name\":\"device to host\"") >
		    0);
	assert_non_null(
	    strstr(json, "\"dropped\":{\"batch\":0,\"kernel\":0,\"transfer\":0,\"thread\":0}"));
	assert_null(strstr(json, "\"clock\":\"model\""));
	free(json);
	tf_remove(dir);
}

/* A worker of a modelled kernel: one hand-out of 32 CTAs, each touching a
 * block; its faults are waited for, in modelled time, at its end. */
static void model_thread(int index, void *arg)
{
	struct live *l = arg;

	uvm_emu_worker_register(l->t.e, (unsigned)index);
	uvm_emu_run(l->t.e, 32, true);
	gpu_thread_touch(l, index);
	uvm_emu_run(l->t.e, 32, false);
}

static void test_live_run_model_clock(void **state)
{
	char dir[] = "/tmp/uvmemu-timeline-XXXXXX", opt[64];
	const char *opts[] = {opt,	    "clock=model",	  "device-mem=4M",
			      "link-bw=8G", "fault-latency=10us", NULL};
	struct uvmemu_launch launch = {
	    .kernel = "touch", .grid = {256, 1, 1}, .block = {1, 1, 1}, .slots = 8, .cores = 2};
	struct live l = {.bytes = 16u << 20};
	char *json, *rows;
	uint8_t *host;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(opt, sizeof(opt), "trace=%s", dir);
	th_start(&l.t, opts);
	/* Written on the host first: every GPU touch migrates its block, so
	 * the link is booked host to device. */
	host = th_managed(&l.t, l.bytes);
	memset(host, 0, l.bytes);
	l.dev = th_dev(&l.t, host);
	assert_int_equal(uvm_emu_kernel_begin(l.t.e, 0, &launch), 0);
	th_parallel(8, model_thread, &l);
	uvm_emu_kernel_end(l.t.e, 0);
	th_stop(&l.t);
	json = tf_slurp(dir, "timeline.json");
	rows = tf_slurp(dir, "gpu_batches.csv");
	assert_non_null(strstr(json, "\"clock\":\"model\""));
	/* One modelled batch slice per row (less the header), and some. */
	assert_true(tf_occurrences(rows, "\n") > 1);
	assert_int_equal(tf_occurrences(json, "\"pid\":2,\"tid\":1,") - 2,
			 tf_occurrences(rows, "\n") - 1);
	assert_int_equal(tf_occurrences(json, "\"cat\":\"cta\""), 256);	   /* in real time only */
	assert_true(tf_occurrences(json, "\"pid\":2,\"tid\":2,") > 2);	   /* modelled bookings */
	assert_int_equal(tf_occurrences(json, "\"pid\":1,\"tid\":2,"), 2); /* none real: names */
	assert_non_null(strstr(json, "\"gpu_batch\":0,\"gpu_transfer\":0,\"gpu_stall\":0}"));
	free(rows);
	free(json);
	tf_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout_and_modelled_time),
	    cmocka_unit_test(test_model_clock_process),
	    cmocka_unit_test(test_thinning_keeps_whole_tracks),
	    cmocka_unit_test(test_live_run_from_many_threads),
	    cmocka_unit_test(test_live_run_model_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
