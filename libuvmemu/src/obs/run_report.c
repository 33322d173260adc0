// SPDX-License-Identifier: MIT
/*
 * run_report.c - what an emulated run's report adds to the common one
 * (front/report.c): the time model as it was applied, the mechanisms, the
 * thrashing and reuse figures, placement, and notes where the model could
 * not be honoured. The emulator gathers the facts (emu/report.c); this file
 * only writes them.
 */
#include "run_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h" /* UVM_REALTIME_WHO */
#include "space.h" /* UVM_BLOCK_SHIFT: the read-only copies' size */
#include "timeline.h"
#include "units.h"

/* The model as it was applied: under the real clock, dilated figures;
 * under the model clock D divides compute time alone and they are as
 * given. */
struct model {
	double bandwidth, latency_us, fault_latency_us;
};

static void model_of(const struct uvm_run_facts *f, struct model *m)
{
	double scale = f->gpu ? 1 : f->dilation;

	m->bandwidth = f->link_unlimited ? 0 : f->link_bw / scale;
	m->latency_us = (double)f->link_latency_ns * scale / 1e3;
	m->fault_latency_us = (double)f->fault_latency_ns * scale / 1e3;
}

/* Round trips per block and thrashing per allocation (the adaptive-migration
 * paper's "pages thrashed" comparison). */
static void json_thrashing(const struct uvm_run_facts *f, struct uvm_json *j)
{
	char key[24];

	uvm_json_object(j, "round_trips");
	for (size_t k = 1; k < f->ntrips; k++) {
		if (!f->trips[k])
			continue;
		snprintf(key, sizeof(key), "%zu", k);
		uvm_json_u64(j, key, f->trips[k]);
	}
	uvm_json_close(j, '}');
	uvm_json_array(j, "allocations");
	for (size_t i = 0; i < f->nallocs; i++) {
		const struct uvm_report_alloc *a = &f->allocs[i];

		uvm_json_object(j, NULL);
		uvm_json_u64(j, "id", a->id);
		uvm_json_str(j, "name", a->name);
		uvm_json_u64(j, "bytes", a->bytes);
		uvm_json_u64(j, "thrashed_blocks", a->thrashed);
		uvm_json_u64(j, "distinct_blocks_thrashed", a->distinct);
		uvm_json_close(j, '}');
	}
	uvm_json_close(j, ']');
}

/* timeline.json: its size in events, and what its bound left out. */
static void timeline_json(struct uvm_trace *trace, struct uvm_json *j)
{
	struct uvm_tl_counts c;
	char why[640];

	if (!*uvm_trace_dir(trace))
		return;
	uvm_json_object(j, "timeline");
	if (uvm_trace_timeline(trace, &c, why, sizeof(why))) {
		uvm_json_u64(j, "events_per_process", c.events);
		uvm_json_u64(j, "dropped", c.dropped);
		uvm_json_u64(j, "worker_tracks", c.tracks_total);
		uvm_json_u64(j, "worker_tracks_shown", c.tracks_shown);
	} else {
		uvm_json_str(j, "error", why);
	}
	uvm_json_close(j, '}');
}

static void timeline_text(struct uvm_trace *trace, FILE *f)
{
	struct uvm_tl_counts c;
	char why[640];

	if (!*uvm_trace_dir(trace))
		return;
	if (!uvm_trace_timeline(trace, &c, why, sizeof(why))) {
		fprintf(f, "; no timeline.json: %s", why);
		return;
	}
	fprintf(f, "; timeline.json %llu events per time axis", (unsigned long long)c.events);
	if (c.dropped)
		fprintf(f,
			" (bounded by --trace-events: %llu records left out, %llu of %llu worker "
			"tracks shown)",
			(unsigned long long)c.dropped, (unsigned long long)c.tracks_shown,
			(unsigned long long)c.tracks_total);
}

/* What the access counters count, and what remote bytes stand for. */
static const char *access_counts(const struct uvm_run_facts *f)
{
	if (!f->counts_faults)
		return "gmmu accessors (per warp transaction)";
	return "far faults, and sampled faults on REMOTE blocks";
}

static const char *remote_bytes_source(const struct uvm_run_facts *f)
{
	if (!f->counts_faults)
		return "gmmu accessors: 32-byte sectors per warp";
	if (f->shared_frames)
		return "estimate: --remote-sample-bytes per sampled access";
	return UVM_BLOCK_SHIFT == 12 ? "read-only copies: 4 KB per block mapped"
				     : "read-only copies: 64 KB per block mapped";
}

/* The charge against the accessors' exact figures (--gmmu measure): the
 * estimate's error, where a GMMU build measured it. */
static double remote_error(const struct uvm_run_facts *f)
{
	return f->exact_bytes ? (double)f->st.remote_bytes / (double)f->exact_bytes - 1 : 0;
}

static void json_remote_exact(const struct uvm_run_facts *f, struct uvm_json *j)
{
	if (!f->remote_measured)
		return;
	uvm_json_object(j, "remote_exact");
	uvm_json_u64(j, "bytes", f->exact_bytes);
	uvm_json_u64(j, "xacts", f->exact_xacts);
	uvm_json_num(j, "bytes_error", remote_error(f));
	uvm_json_close(j, '}');
}

/* A share of the batches the model charges time for (a batch of sampled
 * faults alone that moved nothing costs none): overruns, late wakes. */
static double modelled_share(const struct uvm_stats *st, uint64_t n)
{
	return st->modelled_batches ? (double)n / (double)st->modelled_batches : 0;
}

/* CPC's data reuse rate: the mean over launches (as the paper averages
 * kernels) and over all touched blocks. */
static double per(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

/* The modelled GPU: its batches as a GPU's buffer would have held them, and
 * where its time went (what a GPU-side profiler would show). */
static void json_gpu(const struct uvm_gpu_figures *g, struct uvm_json *j)
{
	uvm_json_object(j, "gpu");
	uvm_json_u64(j, "batches", g->batches);
	uvm_json_u64(j, "faults", g->faults);
	uvm_json_u64(j, "vablocks", g->vablocks);
	uvm_json_u64(j, "pages", g->pages);
	uvm_json_num(j, "faults_per_batch", per(g->faults, g->batches));
	uvm_json_num(j, "vablocks_per_batch", per(g->vablocks, g->batches));
	uvm_json_num(j, "faults_per_vablock", per(g->faults, g->vablocks));
	uvm_json_u64(j, "max_batch_faults", g->max_faults);
	uvm_json_u64(j, "free_faults", g->free_faults);
	uvm_json_u64(j, "late_hits", g->late_hits);
	uvm_json_u64(j, "late_joins", g->late_joins);
	uvm_json_u64(j, "kernels", g->kernels);
	uvm_json_num(j, "kernel_s", (double)g->kernel_ns / 1e9);
	uvm_json_num(j, "batch_s", (double)g->batch_ns / 1e9);
	uvm_json_num(j, "stall_s", (double)g->stall_ns / 1e9);
	uvm_json_num(j, "compute_s", (double)g->compute_ns / 1e9);
	uvm_json_u64(j, "bytes_h2d", g->bytes_h2d);
	uvm_json_u64(j, "bytes_d2h", g->bytes_d2h);
	uvm_json_u64(j, "remote_bytes", g->remote_bytes);
	uvm_json_num(j, "remote_stall_s", (double)g->remote_stall_ns / 1e9);
	uvm_json_u64(j, "horizon_waits", g->horizon_waits);
	uvm_json_u64(j, "unmodelled_faults", g->unmodelled_faults);
	uvm_json_u64(j, "host_fault_batches", g->host_faults);
	uvm_json_u64(j, "host_fault_bytes", g->host_fault_bytes);
	uvm_json_num(j, "host_fault_s", (double)g->host_fault_ns / 1e9);
	uvm_json_close(j, '}');
}

static void text_gpu(const struct uvm_gpu_figures *g, FILE *f)
{
	char a[32], b[32], c[32], d[32];

	fprintf(f,
		"  gpu     %llu kernels, %s; %llu batches (%.1f faults, %.1f vablocks each, "
		"%.1f faults per vablock), %s in batches; slots computed %s, stalled %s\n",
		(unsigned long long)g->kernels,
		uvm_fmt_duration(a, sizeof(a), (double)g->kernel_ns / 1e9),
		(unsigned long long)g->batches, per(g->faults, g->batches),
		per(g->vablocks, g->batches), per(g->faults, g->vablocks),
		uvm_fmt_duration(b, sizeof(b), (double)g->batch_ns / 1e9),
		uvm_fmt_duration(c, sizeof(c), (double)g->compute_ns / 1e9),
		uvm_fmt_duration(d, sizeof(d), (double)g->stall_ns / 1e9));
	if (g->remote_bytes)
		fprintf(f,
			"  gpu     remote (zero-copy) %s booked on the link; slots stalled %s for "
			"it\n",
			uvm_fmt_size(a, sizeof(a), g->remote_bytes),
			uvm_fmt_duration(b, sizeof(b), (double)g->remote_stall_ns / 1e9));
	if (g->unmodelled_faults)
		fprintf(f,
			"  note    %llu far faults came from threads in no modelled hand-out (an "
			"executor that does not register its workers, or code outside a kernel): "
			"the GPU's time leaves them out (--clock real waits for them)\n",
			(unsigned long long)g->unmodelled_faults);
	if (g->host_faults)
		fprintf(
		    f,
		    "  host    %llu batches of CPU faults cost it %s (modelled; they moved %s)\n",
		    (unsigned long long)g->host_faults,
		    uvm_fmt_duration(b, sizeof(b), (double)g->host_fault_ns / 1e9),
		    uvm_fmt_size(a, sizeof(a), g->host_fault_bytes));
}

/* GPU g's share of the model clock's figures (NULL: none, the real clock). */
static const struct uvm_gpu_dev_figures *modelled_gpu(const struct uvm_run_facts *f, unsigned g)
{
	return f->gpu && g < f->gpu->ndev ? &f->gpu->dev[g] : NULL;
}

/* Several GPUs: each GPU's faults, copies and peak (and under the model
 * clock its kernels, batches and stream's end), each peer link's bytes each
 * way. */
static void json_gpus(const struct uvm_run_facts *f, struct uvm_json *j)
{
	uvm_json_array(j, "gpus");
	for (unsigned g = 0; g < f->ngpus; g++) {
		const struct uvm_report_gpu *r = &f->gpus[g];
		const struct uvm_gpu_dev_figures *m = modelled_gpu(f, g);

		uvm_json_object(j, NULL);
		uvm_json_u64(j, "gpu", g);
		if (m) {
			uvm_json_u64(j, "kernels", m->kernels);
			uvm_json_num(j, "kernel_s", (double)m->kernel_ns / 1e9);
			uvm_json_u64(j, "batches", m->batches);
			uvm_json_u64(j, "batch_faults", m->faults);
			uvm_json_num(j, "batch_s", (double)m->batch_ns / 1e9);
			uvm_json_num(j, "stream_end_s", (double)m->stream_end_ns / 1e9);
		}
		uvm_json_u64(j, "far_faults", r->c.far_faults);
		uvm_json_u64(j, "blocks_in", r->c.blocks_in);
		uvm_json_u64(j, "blocks_out", r->c.blocks_out);
		uvm_json_u64(j, "evicted_to_host", r->c.evicted_to_host);
		uvm_json_u64(j, "evicted_to_peer", r->c.evicted_to_peer);
		uvm_json_u64(j, "peer_mapped", r->c.peer_mapped);
		uvm_json_u64(j, "peak_device_bytes", r->peak_device_bytes);
		uvm_json_close(j, '}');
	}
	uvm_json_close(j, ']');
	uvm_json_array(j, "peer_links");
	for (size_t i = 0; i < f->npeers; i++) {
		const struct uvm_report_peer *p = &f->peers[i];

		uvm_json_object(j, NULL);
		uvm_json_u64(j, "a", p->a);
		uvm_json_u64(j, "b", p->b);
		uvm_json_str(j, "link", p->link);
		uvm_json_u64(j, "bytes_a_to_b", p->bytes_ab);
		uvm_json_u64(j, "bytes_b_to_a", p->bytes_ba);
		uvm_json_close(j, '}');
	}
	uvm_json_close(j, ']');
}

static void text_gpus(const struct uvm_run_facts *f, FILE *out)
{
	char a[32], b[32], c[32];

	for (unsigned g = 0; g < f->ngpus; g++) {
		const struct uvm_report_gpu *r = &f->gpus[g];
		const struct uvm_gpu_dev_figures *m = modelled_gpu(f, g);

		fprintf(
		    out,
		    "  gpu %-3u %llu far faults; %llu blocks in, %llu out (evicted: %llu to the "
		    "host, %llu to a peer); peak %s\n",
		    g, (unsigned long long)r->c.far_faults, (unsigned long long)r->c.blocks_in,
		    (unsigned long long)r->c.blocks_out, (unsigned long long)r->c.evicted_to_host,
		    (unsigned long long)r->c.evicted_to_peer,
		    uvm_fmt_size(a, sizeof(a), r->peak_device_bytes));
		if (m)
			fprintf(
			    out,
			    "  gpu %-3u %llu kernels, %s; %llu batches, %s; stream ends at %s\n", g,
			    (unsigned long long)m->kernels,
			    uvm_fmt_duration(a, sizeof(a), (double)m->kernel_ns / 1e9),
			    (unsigned long long)m->batches,
			    uvm_fmt_duration(b, sizeof(b), (double)m->batch_ns / 1e9),
			    uvm_fmt_duration(c, sizeof(c), (double)m->stream_end_ns / 1e9));
		if (r->c.peer_mapped)
			fprintf(out, "  gpu %-3u %llu blocks mapped from a peer GPU\n", g,
				(unsigned long long)r->c.peer_mapped);
	}
	for (size_t i = 0; i < f->npeers; i++) {
		const struct uvm_report_peer *p = &f->peers[i];

		if (p->bytes_ab || p->bytes_ba)
			fprintf(out, "  peer    %u<->%u %s: %s %u->%u, %s %u->%u\n", p->a, p->b,
				p->link, uvm_fmt_size(a, sizeof(a), p->bytes_ab), p->a, p->b,
				uvm_fmt_size(b, sizeof(b), p->bytes_ba), p->b, p->a);
	}
}

static void json_reuse(const struct uvm_reuse_run *r, struct uvm_json *j)
{
	uvm_json_object(j, "data_reuse");
	uvm_json_str(j, "source", uvm_reuse_source_name(r->source));
	uvm_json_u64(j, "launches", r->launches);
	uvm_json_u64(j, "launches_measured", r->measured);
	/* Unknown is null, as everywhere in the report (NAN writes null). */
	uvm_json_num(j, "mean_rate", r->measured ? r->rate_sum / (double)r->measured : NAN);
	uvm_json_num(j, "overall_rate", r->touched ? (double)r->reused / (double)r->touched : NAN);
	uvm_json_close(j, '}');
}

/* Blocks the run mapped into the device view (migrated, zero-filled, mapped
 * remotely, mapped again after a sample, duplicated). The first touch of
 * each pays the machine's map-touch cost, so blocks times that cost
 * estimates what the machine, not the emulator, took of the run's time. */
static uint64_t device_maps(const struct uvm_stats *st)
{
	return st->blocks_h2d + st->blocks_zero_filled + st->blocks_remote + st->remote_samples +
	       st->blocks_duplicated;
}

static double map_touch_est_s(const struct uvm_map_touch *mt, const struct uvm_stats *st)
{
	double extra = mt->first_us - mt->again_us;

	return mt->measured && extra > 0 ? (double)device_maps(st) * extra / 1e6 : 0;
}

void uvm_obs_report_json(const struct uvm_run_facts *f, struct uvm_json *j)
{
	const struct uvm_stats st = f->st;
	struct model m;
	char buf[384];

	model_of(f, &m);
	uvm_json_str(j, "backend", f->backend);
	uvm_json_str(j, "backend_why", f->backend_why);
	uvm_json_str(j, "fault_path", f->uvmmu ? "uvmmu" : "driver");
	uvm_json_u64(j, "remote_blocks", f->remote_blocks);
	uvm_json_str(j, "access_counts", access_counts(f));
	uvm_json_str(j, "remote_bytes_source", remote_bytes_source(f));
	json_remote_exact(f, j);
	json_thrashing(f, j);
	json_reuse(f->reuse, j);
	if (f->gpu)
		json_gpu(f->gpu, j);
	if (f->ngpus > 1)
		json_gpus(f, j);
	uvm_json_object(j, "model");
	uvm_json_str(j, "link", f->link);
	uvm_json_num(j, "link_bandwidth_bytes_per_s", f->link_unlimited ? 0 : f->link_bw);
	uvm_json_num(j, "link_latency_s", (double)f->link_latency_ns / 1e9);
	uvm_json_num(j, "dilation", f->dilation);
	/* dilated_*: the figures as applied (the model clock applies them
	 * undilated: D divides the executor's compute time instead). */
	uvm_json_str(j, "dilation_divides", f->gpu ? "compute time" : "bandwidths (x latencies)");
	if (f->gpu) {
		/* What a CTA's compute time was measured by (--compute). */
		uvm_json_str(j, "compute", f->block_ns > 0 ? "blocks" : "cpu");
		uvm_json_num(j, "block_ns", f->block_ns);
	}
	uvm_json_num(j, "dilated_bandwidth_bytes_per_s", m.bandwidth);
	uvm_json_num(j, "dilated_link_latency_s", m.latency_us / 1e6);
	/* uvmmu: the hardware path's latency per migration, not per batch. */
	uvm_json_num(j, f->uvmmu ? "dilated_uvmmu_latency_s" : "dilated_fault_latency_s",
		     m.fault_latency_us / 1e6);
	if (f->calib_measured > 0) {
		uvm_json_str(j, "calibration_source", f->calib_source);
		uvm_json_str(j, "calibration_gpu", f->calib_gpu);
		uvm_json_num(j, "calibration_measured_bytes_per_s", f->calib_measured);
		uvm_json_num(j, "calibration_target_bytes_per_s", f->calib_target);
	}
	uvm_json_u64(j, "overruns", st.model_overruns);
	uvm_json_num(j, "overrun_share", modelled_share(&st, st.model_overruns));
	uvm_json_u64(j, "late_wakes", st.late_wakes);
	uvm_json_num(j, "late_wake_share", modelled_share(&st, st.late_wakes));
	uvm_json_close(j, '}');
	uvm_json_object(j, "system");
	uvm_json_str(j, "placement", f->placement);
	uvm_json_i64(j, "device_node", f->device_node);
	uvm_json_i64(j, "host_node", f->host_node);
	uvm_json_str(j, "userfaultfd_features", f->uffd_features);
	uvm_json_str(j, "userfaultfd_via", f->uffd_via);
	uvm_json_str(j, "fault_capture", f->capture);
	uvm_json_str(j, "fault_capture_why", f->capture_why);
	uvm_json_str(j, "zap", f->zap);
	uvm_json_str(j, "async_unmaps", *f->sync_reason ? f->sync_reason : "io_uring");
	uvm_json_str(j, "driver_wait", f->driver_wait);
	uvm_json_str(j, "driver_sched", f->driver_sched);
	uvm_json_str(j, "capacity", f->capacity_note);
	uvm_json_num(j, "map_touch_first_us", f->map_touch->first_us);
	uvm_json_num(j, "map_touch_again_us", f->map_touch->again_us);
	uvm_map_touch_describe(f->map_touch, buf, sizeof(buf));
	uvm_json_str(j, "map_touch", buf);
	uvm_json_u64(j, "map_touch_blocks", device_maps(&st));
	uvm_json_num(j, "map_touch_est_s", map_touch_est_s(f->map_touch, &st));
	if (f->fault_cost) {
		uvm_json_num(j, "fault_cpu_us", f->fault_cost->us);
		uvm_json_str(j, "fault_cpu", f->fault_cost->how);
	}
	uvm_json_close(j, '}');
	if (f->trace) {
		uint64_t rows, dropped;

		uvm_trace_counts(f->trace, &rows, &dropped);
		uvm_json_object(j, "trace");
		uvm_json_str(j, "dir", uvm_trace_dir(f->trace));
		uvm_json_u64(j, "rows", rows);
		uvm_json_u64(j, "dropped", dropped);
		timeline_json(f->trace, j);
		uvm_json_close(j, '}');
	}
}

void uvm_obs_report_text(const struct uvm_run_facts *r, FILE *f)
{
	const struct uvm_stats st = r->st;
	const struct uvm_reuse_run *reuse = r->reuse;
	struct model m;
	char a[32], b[32], c[32], buf[384];

	model_of(r, &m);
	if (r->gpu)
		text_gpu(r->gpu, f);
	if (r->ngpus > 1)
		text_gpus(r, f);
	fprintf(f,
		"  model   link %s %s (%s %s), latency %s, %s %.1f us, "
		"dilation %g%s",
		r->link,
		r->link_unlimited ? "unthrottled" : uvm_fmt_bandwidth(a, sizeof(a), r->link_bw),
		r->gpu ? "applied" : "dilated",
		r->link_unlimited ? "-" : uvm_fmt_bandwidth(b, sizeof(b), m.bandwidth),
		uvm_fmt_duration(c, sizeof(c), m.latency_us / 1e6),
		r->uvmmu ? "uvmmu latency" : "fault latency", m.fault_latency_us, r->dilation,
		!r->gpu		  ? ""
		: r->block_ns > 0 ? " (divides compute: basic blocks counted"
				  : " (divides compute: CPU time");
	if (r->gpu && r->block_ns > 0)
		fprintf(f, ", %.3g ns each)", r->block_ns);
	else if (r->gpu)
		fputc(')', f);
	if (r->calib_measured > 0)
		fprintf(f, " (calibrated: %s measured, %s %s)",
			uvm_fmt_bandwidth(a, sizeof(a), r->calib_measured), r->calib_gpu,
			uvm_fmt_bandwidth(b, sizeof(b), r->calib_target));
	fputc('\n', f);
	if (r->calib_measured > 0 && *r->calib_source)
		fprintf(f, "  calib   %s\n", r->calib_source);
	fprintf(f, "  backend %s (%s)\n", r->backend, r->backend_why);
	fprintf(f,
		"  capture %s (%s): %llu faults by signal, %llu user-mode-only, %llu system "
		"calls wrapped\n",
		r->capture, r->capture_why, (unsigned long long)st.signal_faults,
		(unsigned long long)st.user_mode_faults, (unsigned long long)st.wrapped_syscalls);
	fprintf(f, "  zap     %s\n", r->zap);
	if (r->uvmmu)
		fprintf(f,
			"  path    uvmmu: %llu far faults resolved alone (critical page first); "
			"candidate queue %llu refills, %llu stalls\n",
			(unsigned long long)st.uvmmu_faults, (unsigned long long)st.cq_refills,
			(unsigned long long)st.cq_stalls);
	if (reuse->measured)
		fprintf(f,
			"  reuse   %.1f%% of the blocks a launch touched were resident from before "
			"(mean of %llu launches; %s)\n",
			100 * reuse->rate_sum / (double)reuse->measured,
			(unsigned long long)reuse->measured, uvm_reuse_source_name(reuse->source));
	if (reuse->launches > reuse->measured)
		fprintf(f,
			"  reuse   unknown for %llu of %llu launches: they found data resident and "
			"nothing counted its use (--reuse-probes SIZE estimates it under the remap "
			"backend, at a real-time cost; a GMMU build counts it exactly)\n",
			(unsigned long long)(reuse->launches - reuse->measured),
			(unsigned long long)reuse->launches);
	if (st.model_overruns && st.batches)
		fprintf(f,
			"  note    the model could not be honoured in %llu of %llu %s (%.1f%%): "
			"real costs exceeded the modelled time at dilation %g (raise --dilation)\n",
			(unsigned long long)st.model_overruns,
			(unsigned long long)st.modelled_batches, r->uvmmu ? "migrations" : "batches",
			100 * modelled_share(&st, st.model_overruns), r->dilation);
	if (st.late_wakes && st.batches)
		fprintf(
		    f,
		    "  note    the driver woke late in %llu of %llu batches (%.1f%%, %.3f s): "
		    "the host's scheduler ran it past the model's deadline (time_s.late_wake)%s\n",
		    (unsigned long long)st.late_wakes, (unsigned long long)st.modelled_batches,
		    100 * modelled_share(&st, st.late_wakes), (double)st.ns.late_wake / 1e9,
		    r->driver_realtime ? ""
				       : "; a real-time driver wakes on time "
					 "(--driver-sched fifo: " UVM_REALTIME_WHO ")");
	if (*r->capacity_note)
		fprintf(f, "  device  %s\n", r->capacity_note);
	fprintf(f, "  system  %s\n", r->placement);
	if (*r->sync_reason)
		fprintf(f, "  note    %s\n", r->sync_reason);
	if (uvm_map_touch_describe(r->map_touch, buf, sizeof(buf)))
		fprintf(f,
			"  note    this machine charges %s; this run mapped %llu blocks for the "
			"GPU: about %.3f s of its threads' time (system.map_touch_est_s)\n",
			buf, (unsigned long long)device_maps(&st), map_touch_est_s(r->map_touch, &st));
	if (r->trace) {
		uint64_t rows, dropped;

		uvm_trace_counts(r->trace, &rows, &dropped);
		fprintf(f, "  trace   %s: %llu rows",
			*uvm_trace_dir(r->trace) ? uvm_trace_dir(r->trace) : "(access trace only)",
			(unsigned long long)rows);
		if (dropped)
			fprintf(f,
				"; the trace buffer was full and %llu records were DROPPED "
				"(the disk could not keep up)",
				(unsigned long long)dropped);
		timeline_text(r->trace, f);
		fputc('\n', f);
	}
	if (r->counts_faults)
		fprintf(
		    f,
		    "  note    access counts are fault-based (far faults, and sampled faults on "
		    "REMOTE blocks; %s to count every warp transaction)\n",
		    r->remote_measured ? "--gmmu count" : "build emu-gpu with -DEMUGPU_GMMU=ON");
	/* A reader comparing two such runs must know they are samples: the
	 * difference may be the machine's, not the configuration's. */
	if (r->gpu && r->block_ns <= 0)
		fprintf(f,
			"  note    compute is CPU time: gpu_s and the batches move with the host's "
			"load and scheduling, so one run is one sample (bench/repeat measures the "
			"spread; counted compute repeats exactly: %s)\n",
			r->counted ? "this program counts its basic blocks, and --dilation auto "
				     "prices them"
				   : "--compute blocks in a build with -DEMUGPU_COUNT_BLOCKS=ON");
	if (st.remote_bytes && r->counts_faults && r->shared_frames)
		fprintf(f, "  note    remote bytes are an estimate: %s\n", remote_bytes_source(r));
	if (r->remote_measured)
		fprintf(f,
			"  remote  charged %s in %llu transactions; GMMU accessors measured %s in "
			"%llu (--gmmu measure): the charge is off by %+.1f%%\n",
			uvm_fmt_size(a, sizeof(a), st.remote_bytes),
			(unsigned long long)st.remote_xacts,
			uvm_fmt_size(b, sizeof(b), r->exact_bytes),
			(unsigned long long)r->exact_xacts, 100 * remote_error(r));
	if (r->capture_blind)
		fprintf(f,
			"  note    the %s capture does not see kernel-mode touches: system calls "
			"other than the wrapped ones fail with EFAULT on non-resident managed "
			"memory\n",
			r->capture);
}
