// SPDX-License-Identifier: MIT
/* link.c - interconnect presets and the per-direction token bucket. */
#include "link.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The presets of --link (links.def). */
static const struct {
	const char *name;
	double gbps;
	double latency_us;
} presets[] = {
#define UVMEMU_LINK(name, gbps, latency_us) {name, gbps, latency_us},
#define UVMEMU_LINK_CURVE(name, bytes, gbps)
#define UVMEMU_LINK_REMOTE(name, latency_ns, inflight)
#include "links.def"
#undef UVMEMU_LINK
#undef UVMEMU_LINK_CURVE
#undef UVMEMU_LINK_REMOTE
};

/* Their size-dependent bandwidths, point by point, in size order. */
static const struct {
	const char *name;
	double bytes, gbps;
} curves[] = {
#define UVMEMU_LINK(name, gbps, latency_us)
#define UVMEMU_LINK_CURVE(name, bytes, gbps) {name, bytes, gbps},
#define UVMEMU_LINK_REMOTE(name, latency_ns, inflight)
#include "links.def"
#undef UVMEMU_LINK
#undef UVMEMU_LINK_CURVE
#undef UVMEMU_LINK_REMOTE
};

/* Their remote accesses, where they differ from their transfers. */
static const struct {
	const char *name;
	uint64_t latency_ns;
	unsigned inflight;
} remotes[] = {
#define UVMEMU_LINK(name, gbps, latency_us)
#define UVMEMU_LINK_CURVE(name, bytes, gbps)
#define UVMEMU_LINK_REMOTE(name, latency_ns, inflight) {name, latency_ns, inflight},
#include "links.def"
#undef UVMEMU_LINK
#undef UVMEMU_LINK_CURVE
#undef UVMEMU_LINK_REMOTE
};

/* PCIe's outstanding read tags: remote transactions in flight at most,
 * unless a preset says otherwise. */
#define REMOTE_INFLIGHT 256

/* Link l as preset `name` says. */
static void init_preset(struct uvm_link *l, const char *name, const struct uvm_config *cfg)
{
	memset(l, 0, sizeof(*l));
	uvm_mutex_init(&l->lock, UVM_LOCK_LINK);
	snprintf(l->name, sizeof(l->name), "%.23s", name);
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(presets[i].name, name) == 0) {
			l->bandwidth = presets[i].gbps * 1e9;
			l->latency_ns = (uint64_t)(presets[i].latency_us * 1e3);
		}
	}
	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++)
		if (strcmp(curves[i].name, name) == 0 && l->ncurve < UVM_LINK_CURVE_POINTS)
			l->curve[l->ncurve++] =
			    (struct uvm_link_point){curves[i].bytes, curves[i].gbps * 1e9};
	l->unlimited = strcmp(name, "unlimited") == 0;
	l->inflight = REMOTE_INFLIGHT;
	l->remote_latency_ns = UINT64_MAX; /* the link's latency */
	for (size_t i = 0; i < sizeof(remotes) / sizeof(remotes[0]); i++) {
		if (strcmp(remotes[i].name, name) == 0) {
			l->remote_latency_ns = remotes[i].latency_ns;
			l->inflight = remotes[i].inflight;
		}
	}
	if (uvm_cfg_i(cfg, UVM_OPT_remote_inflight) > 0)
		l->inflight = (unsigned)uvm_cfg_i(cfg, UVM_OPT_remote_inflight);
}

void uvm_link_init_peer(struct uvm_link *l, const struct uvm_config *cfg)
{
	init_preset(l, uvm_cfg_s(cfg, UVM_OPT_peer_link), cfg);
}

void uvm_link_init(struct uvm_link *l, const struct uvm_config *cfg)
{
	double bw = uvm_cfg_d(cfg, UVM_OPT_link_bw);
	long long lat = uvm_cfg_i(cfg, UVM_OPT_link_latency);

	init_preset(l, uvm_cfg_s(cfg, UVM_OPT_link), cfg);
	/* Custom values override the preset; a custom bandwidth on the
	 * "unlimited" preset makes it a throttled link. */
	if (bw > 0) {
		l->bandwidth = bw;
		l->ncurve = 0; /* a flat rate given: the curve goes */
		l->unlimited = false;
		snprintf(l->name, sizeof(l->name), "custom");
	}
	if (lat >= 0) {
		l->latency_ns = (uint64_t)lat;
		if (!l->unlimited)
			snprintf(l->name, sizeof(l->name), "custom");
	}
	if (uvm_cfg_i(cfg, UVM_OPT_remote_latency) >= 0)
		l->remote_latency_ns = (uint64_t)uvm_cfg_i(cfg, UVM_OPT_remote_latency);
}

uint64_t uvm_link_remote_latency_ns(const struct uvm_link *l)
{
	return l->remote_latency_ns == UINT64_MAX ? l->latency_ns : l->remote_latency_ns;
}

void uvm_link_destroy(struct uvm_link *l)
{
	uvm_mutex_destroy(&l->lock);
}

void uvm_link_observe(struct uvm_link *l, uvm_link_observer fn, void *ctx)
{
	uvm_mutex_lock(&l->lock);
	l->observer = fn;
	l->observer_ctx = ctx;
	uvm_mutex_unlock(&l->lock);
}

void uvm_link_booked_bytes(struct uvm_link *l, uint64_t out[2])
{
	uvm_mutex_lock(&l->lock);
	out[UVM_H2D] = l->bytes[UVM_H2D];
	out[UVM_D2H] = l->bytes[UVM_D2H];
	uvm_mutex_unlock(&l->lock);
}

double uvm_link_bandwidth(const struct uvm_link *l, uint64_t bytes)
{
	const struct uvm_link_point *c = l->curve;
	double x = bytes > 0 ? (double)bytes : 1;

	if (l->ncurve == 0)
		return l->bandwidth;
	if (x <= c[0].bytes)
		return c[0].bandwidth;
	for (unsigned i = 1; i < l->ncurve; i++) {
		if (x <= c[i].bytes) {
			double f = log(x / c[i - 1].bytes) / log(c[i].bytes / c[i - 1].bytes);

			return c[i - 1].bandwidth + f * (c[i].bandwidth - c[i - 1].bandwidth);
		}
	}
	return c[l->ncurve - 1].bandwidth;
}

/* Books `busy` ns of direction dir from `now` for `bytes`; returns when it
 * completes, a latency after. */
static uint64_t book_busy(struct uvm_link *l, enum uvm_dir dir, uint64_t bytes, uint64_t busy,
			  uint64_t latency_ns, uint64_t now, double scale)
{
	uint64_t start, done;

	uvm_mutex_lock(&l->lock);
	l->bytes[dir] += bytes;
	if (l->unlimited) {
		uvm_mutex_unlock(&l->lock);
		return now;
	}
	start = l->busy_until[dir] > now ? l->busy_until[dir] : now;
	l->busy_until[dir] = start + busy;
	done = start + busy + (uint64_t)((double)latency_ns * scale);
	if (l->observer)
		l->observer(l->observer_ctx, dir, bytes, start, start + busy);
	uvm_mutex_unlock(&l->lock);
	return done;
}

uint64_t uvm_link_book(struct uvm_link *l, enum uvm_dir dir, uint64_t bytes, uint64_t now,
		       double scale)
{
	return book_busy(l, dir, bytes, uvm_link_busy_ns(l, bytes, scale), l->latency_ns, now,
			 scale);
}

uint64_t uvm_link_busy_ns(const struct uvm_link *l, uint64_t bytes, double scale)
{
	if (l->unlimited)
		return 0;
	return (uint64_t)((double)bytes / uvm_link_bandwidth(l, bytes) * 1e9 * scale);
}

uint64_t uvm_link_remote_busy_ns(const struct uvm_link *l, uint64_t bytes, uint64_t xacts,
				 double scale)
{
	double moving, waiting;

	if (l->unlimited || bytes == 0)
		return 0;
	if (xacts == 0)
		xacts = 1;
	moving = (double)bytes / uvm_link_bandwidth(l, bytes / xacts) * 1e9;
	waiting =
	    (double)xacts * (double)uvm_link_remote_latency_ns(l) / (l->inflight ? l->inflight : 1);
	return (uint64_t)((moving > waiting ? moving : waiting) * scale);
}

uint64_t uvm_link_book_remote(struct uvm_link *l, enum uvm_dir dir, uint64_t bytes, uint64_t xacts,
			      uint64_t now, double scale)
{
	return book_busy(l, dir, bytes, uvm_link_remote_busy_ns(l, bytes, xacts, scale),
			 uvm_link_remote_latency_ns(l), now, scale);
}
