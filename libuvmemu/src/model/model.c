// SPDX-License-Identifier: MIT
/* model.c - the modelled latencies, the dilation and the link's bookings. */
#include "model.h"

#include "clock.h"

#include <stdio.h>
#include <stdlib.h>

void uvm_model_init(struct uvm_model *m, const struct uvm_config *cfg)
{
	double d = uvm_cfg_d(cfg, UVM_OPT_dilation);

	m->computed = uvm_cfg_i(cfg, UVM_OPT_clock) == UVM_CLOCK_MODEL;
	uvm_link_init(&m->link, cfg);
	m->ngpus = (unsigned)uvm_cfg_i(cfg, UVM_OPT_gpus);
	m->peers = NULL;
	if (m->ngpus > 1) {
		size_t pairs = (size_t)m->ngpus * (m->ngpus - 1) / 2;

		m->peers = calloc(pairs, sizeof(*m->peers));
		if (!m->peers) {
			fprintf(stderr, "uvmemu: out of memory for the peer links\n");
			abort();
		}
		for (size_t i = 0; i < pairs; i++)
			uvm_link_init_peer(&m->peers[i], cfg);
	}
	/* 0 is --dilation auto: 1 until the executor calibrates. */
	atomic_init(&m->dilation, d > 0 ? d : 1.0);
	m->fixed_dilation = d != 0;
	m->fault_latency_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_fault_latency);
	m->cpu_fault_latency_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_cpu_fault_latency);
	m->launch_cost_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_launch_cost);
	m->uvmmu_latency_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_uvmmu_latency);
	m->sample_period_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_remote_sample_period);
	m->instant = m->fault_latency_ns == 0 && m->link.unlimited;
}

void uvm_model_destroy(struct uvm_model *m)
{
	uvm_link_destroy(&m->link);
	for (size_t i = 0; m->peers && i < (size_t)m->ngpus * (m->ngpus - 1) / 2; i++)
		uvm_link_destroy(&m->peers[i]);
	free(m->peers);
	m->peers = NULL;
}

unsigned uvm_model_peer_link(const struct uvm_model *m, unsigned from, unsigned to,
			     enum uvm_dir *dir)
{
	unsigned a = from < to ? from : to, b = from < to ? to : from;

	*dir = from < to ? UVM_H2D : UVM_D2H;
	/* Pairs in order (0,1), (0,2) .. (0,n-1), (1,2) ..: those before a's. */
	return a * m->ngpus - a * (a + 1) / 2 + (b - a - 1);
}

uint64_t uvm_model_transfer_peer(struct uvm_model *m, unsigned link, enum uvm_dir dir,
				 uint64_t bytes, uint64_t at)
{
	return uvm_link_book(&m->peers[link], dir, bytes, at,
			     m->computed ? 1 : uvm_model_dilation(m));
}

void uvm_model_book_peer(struct uvm_model *m, struct uvm_batch_time *bt, unsigned from, unsigned to,
			 uint64_t bytes)
{
	enum uvm_dir dir;
	unsigned link = uvm_model_peer_link(m, from, to, &dir);
	uint64_t now, end;

	if (m->computed) {
		bt->peer_bytes += bytes;
		bt->peer_xfers++;
		bt->peer_link = link;
		bt->peer_dir = dir;
		return;
	}
	now = uvm_now_ns();
	end = uvm_model_transfer_peer(m, link, dir, bytes,
				      bt->not_before > now ? bt->not_before : now);
	if (end > bt->end)
		bt->end = end;
}

/* A relaxed atomic: the value guards no other data. */
double uvm_model_dilation(const struct uvm_model *m)
{
	return atomic_load_explicit(&m->dilation, memory_order_relaxed);
}

double uvm_model_calibrate(struct uvm_model *m, double measured, double target)
{
	double d;

	if (m->fixed_dilation || measured <= 0)
		return uvm_model_dilation(m);
	d = target / measured;
	/* A machine faster than the target runs at the target's speed. */
	if (d < 1)
		d = 1;
	atomic_store_explicit(&m->dilation, d, memory_order_relaxed);
	return d;
}

/* Under the model clock latencies and bandwidths are the GPU's own. */
static double scale(const struct uvm_model *m)
{
	return m->computed ? 1 : uvm_model_dilation(m);
}

uint64_t uvm_model_scaled(const struct uvm_model *m, uint64_t ns)
{
	return (uint64_t)((double)ns * scale(m));
}

uint64_t uvm_model_busy_ns(const struct uvm_model *m, uint64_t bytes)
{
	return uvm_link_busy_ns(&m->link, bytes, scale(m));
}

uint64_t uvm_model_transfer(struct uvm_model *m, enum uvm_dir dir, uint64_t bytes, uint64_t at)
{
	return uvm_link_book(&m->link, dir, bytes, at, scale(m));
}

uint64_t uvm_model_transfer_remote(struct uvm_model *m, enum uvm_dir dir, uint64_t bytes,
				   uint64_t xacts, uint64_t at)
{
	return uvm_link_book_remote(&m->link, dir, bytes, xacts, at, scale(m));
}

void uvm_model_batch_begin(struct uvm_batch_time *bt, uint64_t t0)
{
	*bt = (struct uvm_batch_time){.t0 = t0, .end = t0};
}

void uvm_model_book(struct uvm_model *m, struct uvm_batch_time *bt, enum uvm_dir dir,
		    uint64_t bytes)
{
	uint64_t now, end;

	if (m->computed) {
		bt->xfer_bytes[dir] += bytes;
		bt->xfers[dir]++;
		return;
	}
	now = uvm_now_ns();
	end = uvm_model_transfer(m, dir, bytes, bt->not_before > now ? bt->not_before : now);

	if (dir == UVM_H2D) {
		bt->h2d_end = end;
		bt->h2d_bytes = bytes;
	}
	if (end > bt->end)
		bt->end = end;
}

uint64_t uvm_model_latency_end(const struct uvm_model *m, uint64_t t0, bool far)
{
	return far ? t0 + uvm_model_scaled(m, m->fault_latency_ns) : t0;
}

uint64_t uvm_model_uvmmu_end(const struct uvm_model *m, uint64_t t0)
{
	return t0 + uvm_model_scaled(m, m->uvmmu_latency_ns);
}

uint64_t uvm_model_critical(const struct uvm_model *m, uint64_t lat_end, uint64_t fetch_end,
			    uint64_t fetch_bytes)
{
	/* The 4 KB page: the unit a thread waits for, whatever the block. */
	const uint64_t page = 4096;
	uint64_t rest, crit;

	if (fetch_bytes == 0)
		return lat_end;
	rest = fetch_bytes > page ? fetch_bytes - page : 0;
	crit = fetch_end - uvm_model_busy_ns(m, rest);
	return crit > lat_end ? crit : lat_end;
}

uint64_t uvm_model_next_sample(const struct uvm_model *m, uint64_t now)
{
	return now + uvm_model_scaled(m, m->sample_period_ns);
}

uint64_t uvm_model_wait_until(uint64_t end)
{
	uint64_t now = uvm_now_ns();

	if (end <= now)
		return 0;
	uvm_wait_until(end);
	/* A wait a signal abandoned ends early: nothing late there. */
	now = uvm_now_ns();
	return now > end ? now - end : 0;
}
