// SPDX-License-Identifier: MIT
/* report.c - the end-of-run text summary and JSON report. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "uvmemu.h" /* UVMEMU_BLOCK_SIZE: the unit blocks are counted in */

void uvm_stats_add(struct uvm_stats *dst, const struct uvm_stats *src)
{
#define UVMEMU_STAT(id, unit, help) dst->id += src->id;
#define UVMEMU_TIME(id, help)	    dst->ns.id += src->ns.id;
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
}

static const char *verify_name(int v)
{
	return v == UVMEMU_VERIFY_PASS ? "pass" : v == UVMEMU_VERIFY_FAIL ? "fail" : "none";
}

/* argv[0] of this process, from /proc (the report names what ran). */
static void program_name(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	if (n == 0)
		snprintf(buf, len, "?");
}

static void json_config(struct uvm_json *j, const struct uvm_config *cfg)
{
	uvm_json_object(j, "config");
	for (int i = 0; i < UVM_OPT_COUNT; i++) {
		const struct uvm_option_desc *d = &uvm_options[i];
		const struct uvm_optval *v = &cfg->v[i];

		switch (d->type) {
		case UVM_T_SIZE:
		case UVM_T_UINT:
		case UVM_T_INT:
			uvm_json_i64(j, d->id, v->i);
			break;
		case UVM_T_DURATION:
			if (v->i < 0)
				uvm_json_str(j, d->id, "preset");
			else
				uvm_json_num(j, d->id, (double)v->i / 1e9);
			break;
		case UVM_T_BANDWIDTH:
			if (v->d == 0)
				uvm_json_str(j, d->id, "preset");
			else
				uvm_json_num(j, d->id, v->d);
			break;
		case UVM_T_DOUBLE:
			uvm_json_num(j, d->id, v->d);
			break;
		case UVM_T_DILATION:
			if (v->d == 0)
				uvm_json_str(j, d->id, "auto");
			else
				uvm_json_num(j, d->id, v->d);
			break;
		case UVM_T_ENUM:
		case UVM_T_PATH:
			uvm_json_str(j, d->id, v->s);
			break;
		}
	}
	uvm_json_close(j, '}');
}

void uvm_report_json(const struct uvm_report *r, FILE *f)
{
	static const struct uvm_stats zero;
	const struct uvm_stats *st = r->stats ? r->stats : &zero;
	struct uvm_session *s = r->session;
	struct uvm_json j;
	char prog[512];

	program_name(prog, sizeof(prog));
	uvm_json_begin(&j, f);
	uvm_json_u64(&j, "schema", UVM_REPORT_SCHEMA);
	uvm_json_str(&j, "mode", r->mode);
	uvm_json_str(&j, "program", prog);
	uvm_json_str(&j, "verify", verify_name(atomic_load(&s->verify)));
	uvm_json_bool(&j, "usage_error", atomic_load(&s->usage_error));
	/* An interrupted run's counters cover the run up to the signal. */
	uvm_json_bool(&j, "interrupted", r->signal != 0);
	if (r->signal) {
		char sig[16];

		snprintf(sig, sizeof(sig), "SIG%s", sigabbrev_np(r->signal));
		uvm_json_str(&j, "signal", sig);
	}
	json_config(&j, &s->cfg);
	if (*uvm_cfg_s(&s->cfg, UVM_OPT_config)) {
		uvm_json_object(&j, "config_file");
		uvm_json_str(&j, "path", uvm_cfg_s(&s->cfg, UVM_OPT_config));
		uvm_json_str(&j, "contents", s->cfg.file_text);
		uvm_json_close(&j, '}');
	}
	uvm_json_u64(&j, "footprint_bytes", atomic_load(&s->footprint_peak));
	uvm_json_u64(&j, "device_mem_bytes", r->device_mem_bytes);
	/* The headline: the region of interest on the GPU's modelled clock;
	 * what follows, wall_s, roi_s, roi_cpu_s and time_s, is the emulator's
	 * cost on the host. */
	uvm_json_str(&j, "clock", !r->stats ? "none" : s->clock ? "model" : "real");
	if (s->clock) {
		uvm_json_num(&j, "gpu_s", uvm_session_gpu_s(s));
		uvm_json_str(&j, "gpu_s_covers", uvm_session_gpu_scope(s));
	}
	uvm_json_num(&j, "wall_s", uvm_session_wall_s(s));
	uvm_json_num(&j, "roi_s", uvm_session_roi_s(s, UVM_ROI_WALL));
	uvm_json_num(&j, "roi_cpu_s", uvm_session_roi_s(s, UVM_ROI_CPU));
	uvm_json_u64(&j, "kernels", atomic_load(&s->kernels));
#define UVMEMU_STAT(id, unit, help) uvm_json_u64(&j, #id, st->id);
#define UVMEMU_TIME(id, help)
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	uvm_json_object(&j, "time_s");
#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help) uvm_json_num(&j, #id, (double)st->ns.id / 1e9);
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	uvm_json_close(&j, '}');
	uvm_mutex_lock(&s->lock);
	uvm_json_object(&j, "workload");
	for (int i = 0; i < s->nvalues; i++)
		uvm_json_num(&j, s->values[i].key, s->values[i].value);
	uvm_json_close(&j, '}');
	uvm_mutex_unlock(&s->lock);
	if (r->json_extra)
		r->json_extra(r->ctx, &j);
	uvm_json_end(&j);
}

/* The stages timed inside service (stats.def says "part of service"). */
static bool service_part(const char *stage)
{
	return strcmp(stage, "policy") == 0 || strcmp(stage, "unmap") == 0 ||
	       strcmp(stage, "copy") == 0 || strcmp(stage, "map") == 0;
}

/* The device views' share of unmap and map (stats.def: "part of unmap",
 * "part of map"): shown inside their stage, never added to the busy time a
 * second time. */
static const char *gpu_view_part_of(const char *stage)
{
	if (strcmp(stage, "gpu_unmap") == 0)
		return "unmap";
	if (strcmp(stage, "gpu_map") == 0)
		return "map";
	return NULL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

void uvm_report_text(const struct uvm_report *r, FILE *f)
{
	static const struct uvm_stats zero;
	const struct uvm_stats *st = r->stats ? r->stats : &zero;
	struct uvm_session *s = r->session;
	char a[32], b[32], c[32], d[32], prog[512];
	const struct {
		const char *name;
		uint64_t ns;
	} stage[] = {
#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help) {#id, st->ns.id},
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	};
	const size_t n = sizeof(stage) / sizeof(stage[0]);
	uint64_t busy = 0;

	program_name(prog, sizeof(prog));
	if (s->clock) {
		char g[32];

		fprintf(
		    f,
		    "uvmemu: %s (%s%s%s, model clock): verify %s, gpu %s%s; emulator's cost: "
		    "wall %s, roi %s (CPU %s); %llu kernels\n",
		    prog, r->mode, r->signal ? ", interrupted by SIG" : "",
		    r->signal ? sigabbrev_np(r->signal) : "", verify_name(atomic_load(&s->verify)),
		    uvm_fmt_duration(g, sizeof(g), uvm_session_gpu_s(s)),
		    strcmp(uvm_session_gpu_scope(s), "run") == 0 ? " (the whole run: no roi)" : "",
		    uvm_fmt_duration(a, sizeof(a), uvm_session_wall_s(s)),
		    uvm_fmt_duration(b, sizeof(b), uvm_session_roi_s(s, UVM_ROI_WALL)),
		    uvm_fmt_duration(d, sizeof(d), uvm_session_roi_s(s, UVM_ROI_CPU)),
		    (unsigned long long)atomic_load(&s->kernels));
	} else {
		fprintf(
		    f, "uvmemu: %s (%s%s%s%s): verify %s, wall %s, roi %s (CPU %s), %llu kernels\n",
		    prog, r->mode, r->stats ? ", real clock" : "",
		    r->signal ? ", interrupted by SIG" : "",
		    r->signal ? sigabbrev_np(r->signal) : "", verify_name(atomic_load(&s->verify)),
		    uvm_fmt_duration(a, sizeof(a), uvm_session_wall_s(s)),
		    uvm_fmt_duration(b, sizeof(b), uvm_session_roi_s(s, UVM_ROI_WALL)),
		    uvm_fmt_duration(d, sizeof(d), uvm_session_roi_s(s, UVM_ROI_CPU)),
		    (unsigned long long)atomic_load(&s->kernels));
	}
	if (!r->stats)
		return; /* natively there is nothing more to say */
	fprintf(f, "  memory  footprint %s, device %s, peak on device %s\n",
		uvm_fmt_size(a, sizeof(a), atomic_load(&s->footprint_peak)),
		r->device_mem_bytes ? uvm_fmt_size(b, sizeof(b), r->device_mem_bytes) : "unlimited",
		uvm_fmt_size(c, sizeof(c), st->peak_device_bytes));
	fprintf(f,
		"  faults  gpu %llu, cpu %llu, batches %llu (%.1f faults/batch), duplicates %llu\n",
		(unsigned long long)st->gpu_faults, (unsigned long long)st->cpu_faults,
		(unsigned long long)st->batches,
		st->batches ? (double)(st->gpu_faults + st->cpu_faults) / (double)st->batches : 0.0,
		(unsigned long long)st->duplicate_faults);
	fprintf(
	    f,
	    "  moved   h2d %s (%llu blocks of %u KB, %llu prefetched), d2h %s, zero-filled %llu "
	    "blocks, remote %s\n",
	    uvm_fmt_size(a, sizeof(a), st->bytes_h2d), (unsigned long long)st->blocks_h2d,
	    UVMEMU_BLOCK_SIZE >> 10, (unsigned long long)st->blocks_prefetched,
	    uvm_fmt_size(b, sizeof(b), st->bytes_d2h), (unsigned long long)st->blocks_zero_filled,
	    uvm_fmt_size(c, sizeof(c), st->remote_bytes));
	fprintf(f, "  evicted %llu blocks in %llu victims, thrashed %llu blocks\n",
		(unsigned long long)st->blocks_evicted, (unsigned long long)st->vablocks_evicted,
		(unsigned long long)st->thrashed_blocks);
	for (size_t i = 0; i < n; i++)
		if (!service_part(stage[i].name) && !gpu_view_part_of(stage[i].name))
			busy += stage[i].ns;
	/* Stages add up to 100%; service's parts are shown inside it, and the
	 * device views' share inside unmap and map, as shares of the same
	 * whole. */
	fprintf(f, "  driver  %s busy:", uvm_fmt_duration(a, sizeof(a), (double)busy / 1e9));
	for (size_t i = 0; i < n; i++) {
		if (service_part(stage[i].name) || gpu_view_part_of(stage[i].name))
			continue;
		fprintf(f, " %s %.0f%%", stage[i].name, pct(stage[i].ns, busy));
		if (strcmp(stage[i].name, "service") != 0)
			continue;
		for (size_t k = 0, parts = 0; k < n; k++) {
			if (!service_part(stage[k].name))
				continue;
			fprintf(f, "%s%s %.0f%%", parts++ ? ", " : " (", stage[k].name,
				pct(stage[k].ns, busy));
			for (size_t v = 0; v < n; v++) {
				const char *of = gpu_view_part_of(stage[v].name);

				if (of && strcmp(of, stage[k].name) == 0 && stage[v].ns)
					fprintf(f, " [device view %.0f%%]", pct(stage[v].ns, busy));
			}
		}
		fputc(')', f);
	}
	fputc('\n', f);
	if (r->text_extra)
		r->text_extra(r->ctx, f);
}

/* The run's exit status must say so too (uvm_report_watch_exit). */
static void report_failure(struct uvm_session *s, const char *path)
{
	fprintf(stderr, "uvmemu: cannot write report %s: %s\n", path, strerror(errno));
	atomic_store(&s->report_failed, true);
}

void uvm_report_emit(const struct uvm_report *r)
{
	const struct uvm_config *cfg = &r->session->cfg;
	const char *path = uvm_cfg_s(cfg, UVM_OPT_report);
	bool bad;
	FILE *f;

	/* After a usage error the program's one line says it all, and after
	 * its usage text that text. */
	if (uvm_cfg_i(cfg, UVM_OPT_summary) == UVM_SUMMARY_ON &&
	    !atomic_load(&r->session->usage_error) && !atomic_load(&r->session->usage_shown))
		uvm_report_text(r, stderr);
	if (!*path)
		return;
	f = fopen(path, "w");
	if (!f) {
		report_failure(r->session, path);
		return;
	}
	uvm_report_json(r, f);
	bad = ferror(f);
	if (fclose(f) || bad)
		report_failure(r->session, path);
}

/*
 * Runs after the library destructors that write the report at exit: a
 * handler registered before main() runs after those registered later, the
 * dynamic loader's destructor pass among them. Only the exit status is
 * changed, and only from success.
 */
static void exit_status(int status, void *arg)
{
	struct uvm_session *s = arg;

	if (status == 0 && atomic_load(&s->report_failed)) {
		fflush(NULL);
		_exit(1);
	}
}

void uvm_report_watch_exit(struct uvm_session *s)
{
	on_exit(exit_status, s);
}
