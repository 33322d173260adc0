// SPDX-License-Identifier: MIT
/*
 * facts.c - an emulated run's report sections: the facts gathered from every
 * part at the end of the run (obs/run_report.h writes them), and the object
 * manager's own section.
 */
#include "emu_int.h"

#include <stdlib.h>

#include "run_report.h"

/* Everything the report writes, gathered once; free with facts_free. */
struct facts {
	struct uvm_run_facts f;
	struct uvm_thrash_stats thrash;
	struct uvm_report_alloc *allocs;
	struct uvm_alloc_info *info; /* a copy: its names outlive the lock */
	struct uvm_reuse_run reuse;
	struct uvm_gpu_figures gpu;
	struct uvm_report_gpu gpus[UVM_MAX_GPUS];
	struct uvm_report_peer *peers;
	char placement[384], features[384], calib_gpu[32], calib_source[384];
};

static void gather_allocations(struct uvm_emu *e, struct facts *x)
{
	size_t n = 0;

	uvm_mutex_lock(&e->lock);
	x->reuse = e->reuse_run;
	x->info = malloc((e->nalloc_info ? e->nalloc_info : 1) * sizeof(*x->info));
	x->allocs = malloc((e->nalloc_info ? e->nalloc_info : 1) * sizeof(*x->allocs));
	for (size_t i = 0; x->info && x->allocs && i < e->nalloc_info; i++) {
		const struct uvm_thrash_stats *t = &x->thrash;

		if (!e->alloc_info[i].bytes)
			continue;
		x->info[n] = e->alloc_info[i];
		x->allocs[n] = (struct uvm_report_alloc){
		    .id = i,
		    .name = x->info[n].name,
		    .bytes = x->info[n].bytes,
		    .thrashed = i < t->nalloc ? t->alloc[i].returns : 0,
		    .distinct = i < t->nalloc ? t->alloc[i].blocks : 0,
		};
		n++;
	}
	uvm_mutex_unlock(&e->lock);
	x->f.allocs = x->allocs;
	x->f.nallocs = x->allocs && x->info ? n : 0;
}

/* Several GPUs: each GPU's counts and pool peak, each peer link's bytes. */
static void gather_gpus(struct uvm_emu *e, struct facts *x)
{
	struct uvm_model *m = &e->model;
	size_t pairs = (size_t)m->ngpus * (m->ngpus - 1) / 2, i = 0;

	if (m->ngpus < 2)
		return;
	for (unsigned g = 0; g < m->ngpus && g < UVM_MAX_GPUS; g++) {
		struct uvm_pool p;

		uvm_per_gpu_counts(&e->per_gpu, g, &x->gpus[g].c);
		uvm_pool_snapshot(&e->pool[g], &p);
		x->gpus[g].peak_device_bytes = p.peak << UVM_BLOCK_SHIFT;
	}
	x->f.ngpus = m->ngpus;
	x->f.gpus = x->gpus;
	x->peers = calloc(pairs, sizeof(*x->peers));
	if (!x->peers)
		return;
	for (unsigned a = 0; a < m->ngpus; a++) {
		for (unsigned b = a + 1; b < m->ngpus; b++, i++) {
			enum uvm_dir dir;
			unsigned l = uvm_model_peer_link(m, a, b, &dir);
			uint64_t bytes[2];

			uvm_link_booked_bytes(&m->peers[l], bytes);
			x->peers[i] = (struct uvm_report_peer){
			    .a = a,
			    .b = b,
			    .link = m->peers[l].name,
			    .bytes_ab = bytes[dir],
			    .bytes_ba = bytes[!dir],
			};
		}
	}
	x->f.peers = x->peers;
	x->f.npeers = pairs;
}

static void gather(struct uvm_emu *e, struct facts *x)
{
	const struct uvm_config *cfg = &e->session->cfg;
	struct uvm_session *s = e->session;
	bool uvmmu = uvm_cfg_i(cfg, UVM_OPT_fault_path) == UVM_FAULT_PATH_UVMMU;

	uvm_driver_thrash_stats(e->driver, &x->thrash);
	gather_allocations(e, x);
	uvm_mutex_lock(&s->lock);
	x->f.calib_measured = s->calib_measured;
	x->f.calib_target = s->calib_target;
	snprintf(x->calib_gpu, sizeof(x->calib_gpu), "%s", s->calib_gpu);
	snprintf(x->calib_source, sizeof(x->calib_source), "%s", s->calib_source);
	uvm_mutex_unlock(&s->lock);
	uvm_placement_describe(&e->place, x->placement, sizeof(x->placement));
	uvm_uffd_features_str(&e->uffd, x->features, sizeof(x->features));
	uvm_emu_stats(e, &x->f.st);
	x->f.link = e->model.link.name;
	x->f.link_bw = e->model.link.bandwidth;
	x->f.link_latency_ns = e->model.link.latency_ns;
	x->f.link_unlimited = e->model.link.unlimited;
	x->f.dilation = uvm_model_dilation(&e->model);
	x->f.block_ns = e->gpu ? uvm_gpu_block_cost(e->gpu) : 0;
	x->f.counted = uvm_emu_counts_blocks(e);
	x->f.uvmmu = uvmmu;
	x->f.fault_latency_ns = uvmmu ? e->model.uvmmu_latency_ns : e->model.fault_latency_ns;
	x->f.calib_gpu = x->calib_gpu;
	x->f.calib_source = x->calib_source;
	x->f.backend = e->backend->name;
	x->f.backend_why = e->backend_why;
	x->f.shared_frames = e->backend->shared_frames;
	x->f.capture = uvm_uffd_capture_name(&e->uffd);
	x->f.capture_why = e->uffd.why;
	x->f.uffd_via = e->uffd.how;
	x->f.uffd_features = x->features;
	x->f.zap = e->uffd.zap_why;
	x->f.capture_blind = e->uffd.user_mode_only || e->uffd.sig;
	x->f.sync_reason = uvm_driver_sync_reason(e->driver);
	x->f.driver_wait = uvm_driver_wait_how(e->driver);
	x->f.driver_sched = uvm_driver_sched_how(e->driver);
	x->f.driver_realtime = uvm_driver_realtime(e->driver);
	x->f.placement = x->placement;
	x->f.device_node = e->place.device_node;
	x->f.host_node = e->place.host_node;
	x->f.capacity_note = e->capacity_note;
	x->f.counts_faults = uvm_emu_counts_faults(e);
	x->f.remote_measured = uvm_emu_remote_measured(e, &x->f.exact_bytes, &x->f.exact_xacts);
	x->f.remote_blocks = uvm_driver_remote_blocks(e->driver);
	x->f.trips = x->thrash.trips;
	x->f.ntrips = UVM_MAX_TRIPS;
	x->f.map_touch = &e->map_touch;
	x->f.fault_cost = e->gpu ? &e->fault_cost : NULL;
	x->f.reuse = &x->reuse;
	x->f.trace = e->trace;
	gather_gpus(e, x);
	if (e->gpu) {
		uvm_gpu_figures(e->gpu, &x->gpu);
		x->f.gpu = &x->gpu;
	}
}

static void facts_free(struct facts *x)
{
	free(x->thrash.alloc);
	free(x->allocs);
	free(x->info);
	free(x->peers);
}

void uvm_emu_report_json(void *ctx, struct uvm_json *j)
{
	struct uvm_emu *e = ctx;
	struct facts x = {0};

	gather(e, &x);
	uvm_obs_report_json(&x.f, j);
	uvm_objmgr_report_json(e->objmgr, j);
	facts_free(&x);
}

void uvm_emu_report_text(void *ctx, FILE *f)
{
	struct uvm_emu *e = ctx;
	struct facts x = {0};

	gather(e, &x);
	uvm_obs_report_text(&x.f, f);
	uvm_objmgr_report_text(e->objmgr, f);
	facts_free(&x);
}
