// SPDX-License-Identifier: MIT
/*
 * emu_report.c - what an emulated run's report adds to the common one: the
 * time model as it was applied, placement, kernel features, and notes where
 * the model could not be honoured.
 */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h" /* UVM_REALTIME_WHO */
#include "emu.h"
#include "manager.h"
#include "timeline.h"
#include "units.h"

struct model {
	double dilation, bandwidth, latency_us, fault_latency_us;
	bool uvmmu; /* --fault-path uvmmu: fault_latency_us is --uvmmu-latency */
	double measured, target;
	char gpu[32];
	char source[384];
};

static void model_of(struct uvm_emu *e, struct model *m)
{
	struct uvm_session *s = e->session;

	m->dilation = uvm_link_dilation(&e->link);
	m->bandwidth = e->link.unlimited ? 0 : e->link.bandwidth / m->dilation;
	m->latency_us = (double)e->link.latency_ns * m->dilation / 1e3;
	m->uvmmu = uvm_cfg_i(&s->cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU;
	m->fault_latency_us =
	    (double)uvm_cfg_i(&s->cfg, m->uvmmu ? UVM_OPT_uvmmu_latency : UVM_OPT_fault_latency) *
	    m->dilation / 1e3;
	uvm_mutex_lock(&s->lock);
	m->measured = s->calib_measured;
	m->target = s->calib_target;
	snprintf(m->gpu, sizeof(m->gpu), "%s", s->calib_gpu);
	snprintf(m->source, sizeof(m->source), "%s", s->calib_source);
	uvm_mutex_unlock(&s->lock);
}

/* Round trips per block and thrashing per allocation (the adaptive-migration
 * paper's "pages thrashed" comparison). */
static void json_thrashing(struct uvm_emu *e, struct uvm_json *j)
{
	struct uvm_thrash_stats t;
	char key[16];

	uvm_driver_thrash_stats(e->driver, &t);
	uvm_json_object(j, "round_trips");
	for (int k = 1; k < UVM_MAX_TRIPS; k++) {
		if (!t.trips[k])
			continue;
		snprintf(key, sizeof(key), "%d", k);
		uvm_json_u64(j, key, t.trips[k]);
	}
	uvm_json_close(j, '}');
	uvm_json_array(j, "allocations");
	uvm_mutex_lock(&e->lock);
	for (size_t i = 0; i < e->nalloc_info; i++) {
		if (!e->alloc_info[i].bytes)
			continue;
		uvm_json_object(j, NULL);
		uvm_json_u64(j, "id", i);
		uvm_json_str(j, "name", e->alloc_info[i].name);
		uvm_json_u64(j, "bytes", e->alloc_info[i].bytes);
		uvm_json_u64(j, "thrashed_blocks", i < t.nalloc ? t.alloc[i].returns : 0);
		uvm_json_u64(j, "distinct_blocks_thrashed", i < t.nalloc ? t.alloc[i].blocks : 0);
		uvm_json_close(j, '}');
	}
	uvm_mutex_unlock(&e->lock);
	uvm_json_close(j, ']');
	free(t.alloc);
}

/* timeline.json: its size in events, and what its bound left out. */
static void timeline_json(struct uvm_emu *e, struct uvm_json *j)
{
	struct uvm_tl_counts c;
	char why[640];

	if (!*uvm_trace_dir(e->trace))
		return;
	uvm_json_object(j, "timeline");
	if (uvm_trace_timeline(e->trace, &c, why, sizeof(why))) {
		uvm_json_u64(j, "events_per_process", c.events);
		uvm_json_u64(j, "dropped", c.dropped);
		uvm_json_u64(j, "worker_tracks", c.tracks_total);
		uvm_json_u64(j, "worker_tracks_shown", c.tracks_shown);
	} else {
		uvm_json_str(j, "error", why);
	}
	uvm_json_close(j, '}');
}

static void timeline_text(struct uvm_emu *e, FILE *f)
{
	struct uvm_tl_counts c;
	char why[640];

	if (!*uvm_trace_dir(e->trace))
		return;
	if (!uvm_trace_timeline(e->trace, &c, why, sizeof(why))) {
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
static const char *access_counts(struct uvm_emu *e)
{
	if (!uvm_emu_counts_faults(e))
		return "gmmu accessors (per warp transaction)";
	return "far faults, and sampled faults on REMOTE blocks";
}

static const char *remote_bytes_source(struct uvm_emu *e)
{
	if (!uvm_emu_counts_faults(e))
		return "gmmu accessors: 32-byte sectors per warp";
	if (e->backend->shared_frames)
		return "estimate: --remote-sample-bytes per sampled access";
	return "read-only copies: 64 KB per block mapped";
}

/* A share of the batches the model charges time for (a batch of sampled
 * faults alone that moved nothing costs none): overruns, late wakes. */
static double modelled_share(const struct uvm_stats *st, uint64_t n)
{
	return st->modelled_batches ? (double)n / (double)st->modelled_batches : 0;
}

/* CPC's data reuse rate: the mean over launches (as the paper averages
 * kernels) and over all touched blocks. */
static void json_reuse(struct uvm_emu *e, struct uvm_json *j)
{
	uvm_mutex_lock(&e->lock);
	uvm_json_object(j, "data_reuse");
	uvm_json_str(j, "source", uvm_reuse_source_name(e->reuse.source));
	uvm_json_u64(j, "launches", e->reuse.launches);
	uvm_json_u64(j, "launches_measured", e->reuse.measured);
	uvm_json_num(j, "mean_rate",
		     e->reuse.measured ? e->reuse.rate_sum / (double)e->reuse.measured : -1);
	uvm_json_num(j, "overall_rate",
		     e->reuse.touched ? (double)e->reuse.reused / (double)e->reuse.touched : -1);
	uvm_json_close(j, '}');
	uvm_mutex_unlock(&e->lock);
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

static double map_touch_est_s(const struct uvm_emu *e, const struct uvm_stats *st)
{
	double extra = e->map_touch.first_us - e->map_touch.again_us;

	return e->map_touch.measured && extra > 0 ? (double)device_maps(st) * extra / 1e6 : 0;
}

void uvm_emu_report_json(void *ctx, struct uvm_json *j)
{
	struct uvm_emu *e = ctx;
	struct model m;
	struct uvm_stats st;
	char buf[384];

	model_of(e, &m);
	uvm_emu_stats(e, &st);
	uvm_json_str(j, "backend", e->backend->name);
	uvm_json_str(j, "backend_why", e->backend_why);
	uvm_json_str(j, "fault_path", m.uvmmu ? "uvmmu" : "driver");
	uvm_json_u64(j, "remote_blocks", uvm_driver_remote_blocks(e->driver));
	uvm_json_str(j, "access_counts", access_counts(e));
	uvm_json_str(j, "remote_bytes_source", remote_bytes_source(e));
	json_thrashing(e, j);
	uvm_objmgr_report_json(e->objmgr, j);
	json_reuse(e, j);
	uvm_json_object(j, "model");
	uvm_json_str(j, "link", e->link.name);
	uvm_json_num(j, "link_bandwidth_bytes_per_s", e->link.unlimited ? 0 : e->link.bandwidth);
	uvm_json_num(j, "link_latency_s", (double)e->link.latency_ns / 1e9);
	uvm_json_num(j, "dilation", m.dilation);
	uvm_json_num(j, "dilated_bandwidth_bytes_per_s", m.bandwidth);
	uvm_json_num(j, "dilated_link_latency_s", m.latency_us / 1e6);
	/* uvmmu: the hardware path's latency per migration, not per batch. */
	uvm_json_num(j, m.uvmmu ? "dilated_uvmmu_latency_s" : "dilated_fault_latency_s",
		     m.fault_latency_us / 1e6);
	if (m.measured > 0) {
		uvm_json_str(j, "calibration_source", m.source);
		uvm_json_str(j, "calibration_gpu", m.gpu);
		uvm_json_num(j, "calibration_measured_bytes_per_s", m.measured);
		uvm_json_num(j, "calibration_target_bytes_per_s", m.target);
	}
	uvm_json_u64(j, "overruns", st.model_overruns);
	uvm_json_num(j, "overrun_share", modelled_share(&st, st.model_overruns));
	uvm_json_u64(j, "late_wakes", st.late_wakes);
	uvm_json_num(j, "late_wake_share", modelled_share(&st, st.late_wakes));
	uvm_json_close(j, '}');
	uvm_json_object(j, "system");
	uvm_placement_describe(&e->place, buf, sizeof(buf));
	uvm_json_str(j, "placement", buf);
	uvm_json_i64(j, "device_node", e->place.device_node);
	uvm_json_i64(j, "host_node", e->place.host_node);
	uvm_uffd_features_str(&e->uffd, buf, sizeof(buf));
	uvm_json_str(j, "userfaultfd_features", buf);
	uvm_json_str(j, "userfaultfd_via", e->uffd.how);
	uvm_json_str(j, "fault_capture", uvm_uffd_capture_name(&e->uffd));
	uvm_json_str(j, "fault_capture_why", e->uffd.why);
	uvm_json_str(j, "zap", e->uffd.zap_why);
	uvm_json_str(j, "async_unmaps",
		     *uvm_driver_sync_reason(e->driver) ? uvm_driver_sync_reason(e->driver)
							: "io_uring");
	uvm_json_str(j, "driver_wait", uvm_driver_wait_how(e->driver));
	uvm_json_str(j, "driver_sched", uvm_driver_sched_how(e->driver));
	uvm_json_str(j, "capacity", e->capacity_note);
	uvm_json_num(j, "map_touch_first_us", e->map_touch.first_us);
	uvm_json_num(j, "map_touch_again_us", e->map_touch.again_us);
	uvm_map_touch_describe(&e->map_touch, buf, sizeof(buf));
	uvm_json_str(j, "map_touch", buf);
	uvm_json_u64(j, "map_touch_blocks", device_maps(&st));
	uvm_json_num(j, "map_touch_est_s", map_touch_est_s(e, &st));
	uvm_json_close(j, '}');
	if (e->trace) {
		uint64_t rows, dropped;

		uvm_trace_counts(e->trace, &rows, &dropped);
		uvm_json_object(j, "trace");
		uvm_json_str(j, "dir", uvm_trace_dir(e->trace));
		uvm_json_u64(j, "rows", rows);
		uvm_json_u64(j, "dropped", dropped);
		timeline_json(e, j);
		uvm_json_close(j, '}');
	}
}

void uvm_emu_report_text(void *ctx, FILE *f)
{
	struct uvm_emu *e = ctx;
	struct model m;
	struct uvm_stats st;
	char a[32], b[32], c[32], buf[384];

	model_of(e, &m);
	uvm_emu_stats(e, &st);
	fprintf(f,
		"  model   link %s %s (dilated %s), latency %s, %s %.1f us, "
		"dilation %g",
		e->link.name,
		e->link.unlimited ? "unthrottled"
				  : uvm_fmt_bandwidth(a, sizeof(a), e->link.bandwidth),
		e->link.unlimited ? "-" : uvm_fmt_bandwidth(b, sizeof(b), m.bandwidth),
		uvm_fmt_duration(c, sizeof(c), m.latency_us / 1e6),
		m.uvmmu ? "uvmmu latency" : "fault latency", m.fault_latency_us, m.dilation);
	if (m.measured > 0)
		fprintf(f, " (calibrated: %s measured, %s %s)",
			uvm_fmt_bandwidth(a, sizeof(a), m.measured), m.gpu,
			uvm_fmt_bandwidth(b, sizeof(b), m.target));
	fputc('\n', f);
	if (m.measured > 0 && *m.source)
		fprintf(f, "  calib   %s\n", m.source);
	fprintf(f, "  backend %s (%s)\n", e->backend->name, e->backend_why);
	fprintf(f,
		"  capture %s (%s): %llu faults by signal, %llu user-mode-only, %llu system "
		"calls wrapped\n",
		uvm_uffd_capture_name(&e->uffd), e->uffd.why, (unsigned long long)st.signal_faults,
		(unsigned long long)st.user_mode_faults, (unsigned long long)st.wrapped_syscalls);
	fprintf(f, "  zap     %s\n", e->uffd.zap_why);
	if (m.uvmmu)
		fprintf(f,
			"  path    uvmmu: %llu far faults resolved alone (critical page first); "
			"candidate queue %llu refills, %llu stalls\n",
			(unsigned long long)st.uvmmu_faults, (unsigned long long)st.cq_refills,
			(unsigned long long)st.cq_stalls);
	uvm_mutex_lock(&e->lock);
	if (e->reuse.measured)
		fprintf(f,
			"  reuse   %.1f%% of the blocks a launch touched were resident from before "
			"(mean of %llu launches; %s)\n",
			100 * e->reuse.rate_sum / (double)e->reuse.measured,
			(unsigned long long)e->reuse.measured,
			uvm_reuse_source_name(e->reuse.source));
	if (e->reuse.launches > e->reuse.measured)
		fprintf(f,
			"  reuse   unknown for %llu of %llu launches: they found data resident and "
			"nothing counted its use (--reuse-probes SIZE estimates it under the remap "
			"backend, at a real-time cost; a GMMU build counts it exactly)\n",
			(unsigned long long)(e->reuse.launches - e->reuse.measured),
			(unsigned long long)e->reuse.launches);
	uvm_mutex_unlock(&e->lock);
	if (st.model_overruns && st.batches)
		fprintf(f,
			"  note    the model could not be honoured in %llu of %llu %s (%.1f%%): "
			"real costs exceeded the modelled time at dilation %g (raise --dilation)\n",
			(unsigned long long)st.model_overruns,
			(unsigned long long)st.modelled_batches, m.uvmmu ? "migrations" : "batches",
			100 * modelled_share(&st, st.model_overruns), m.dilation);
	if (st.late_wakes && st.batches)
		fprintf(
		    f,
		    "  note    the driver woke late in %llu of %llu batches (%.1f%%, %.3f s): "
		    "the host's scheduler ran it past the model's deadline (time_s.late_wake)%s\n",
		    (unsigned long long)st.late_wakes, (unsigned long long)st.modelled_batches,
		    100 * modelled_share(&st, st.late_wakes), (double)st.ns.late_wake / 1e9,
		    uvm_driver_realtime(e->driver) ? ""
						   : "; a real-time driver wakes on time "
						     "(--driver-sched fifo: " UVM_REALTIME_WHO ")");
	if (*e->capacity_note)
		fprintf(f, "  device  %s\n", e->capacity_note);
	uvm_objmgr_report_text(e->objmgr, f);
	uvm_placement_describe(&e->place, buf, sizeof(buf));
	fprintf(f, "  system  %s\n", buf);
	if (*uvm_driver_sync_reason(e->driver))
		fprintf(f, "  note    %s\n", uvm_driver_sync_reason(e->driver));
	if (uvm_map_touch_describe(&e->map_touch, buf, sizeof(buf)))
		fprintf(f,
			"  note    this machine charges %s; this run mapped %llu blocks for the "
			"GPU: about %.3f s of its threads' time (system.map_touch_est_s)\n",
			buf, (unsigned long long)device_maps(&st), map_touch_est_s(e, &st));
	if (e->trace) {
		uint64_t rows, dropped;

		uvm_trace_counts(e->trace, &rows, &dropped);
		fprintf(f, "  trace   %s: %llu rows",
			*uvm_trace_dir(e->trace) ? uvm_trace_dir(e->trace) : "(access trace only)",
			(unsigned long long)rows);
		if (dropped)
			fprintf(f,
				"; the trace buffer was full and %llu records were DROPPED "
				"(the disk could not keep up)",
				(unsigned long long)dropped);
		timeline_text(e, f);
		fputc('\n', f);
	}
	if (uvm_emu_counts_faults(e))
		fprintf(
		    f, "  note    access counts are fault-based (far faults, and sampled faults on "
		       "REMOTE blocks; build emu-gpu with -DEMUGPU_GMMU=ON to count every warp "
		       "transaction)\n");
	if (st.remote_bytes && uvm_emu_counts_faults(e) && e->backend->shared_frames)
		fprintf(f, "  note    remote bytes are an estimate: %s\n", remote_bytes_source(e));
	if (e->uffd.user_mode_only || e->uffd.sig)
		fprintf(f,
			"  note    the %s capture does not see kernel-mode touches: system calls "
			"other than the wrapped ones fail with EFAULT on non-resident managed "
			"memory\n",
			uvm_uffd_capture_name(&e->uffd));
}
