/* SPDX-License-Identifier: MIT */
/*
 * link.h - the modelled interconnect (model.h owns it and its time).
 *
 * Each direction is a token bucket without burst: a transfer of n bytes
 * starts when the direction is free (or at its issue time), occupies it
 * n / bandwidth, and completes a latency later. The model passes a scale:
 * under the real clock the dilation D, which multiplies every latency and
 * divides every bandwidth. `unlimited` books nothing: transfers complete
 * when they are issued.
 */
#ifndef UVM_LINK_H
#define UVM_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "lock_order.h"

enum uvm_dir { UVM_H2D = 0, UVM_D2H = 1 };

/* Told of each transfer booked: when it starts and when it stops occupying
 * its direction (the latency comes after). Called under the link's lock. */
typedef void (*uvm_link_observer)(void *ctx, enum uvm_dir dir, uint64_t bytes, uint64_t start,
				  uint64_t busy_end);

/* A size-dependent bandwidth: points by size (links.def's curves). */
#define UVM_LINK_CURVE_POINTS 8
struct uvm_link_point {
	double bytes, bandwidth; /* bytes/s for a transfer of this size */
};

struct uvm_link {
	char name[24];
	double bandwidth;    /* bytes/s per direction, undilated (a curve's top) */
	uint64_t latency_ns; /* per transfer, undilated */
	bool unlimited;
	unsigned inflight;	    /* remote transactions in flight at most (--remote-inflight) */
	uint64_t remote_latency_ns; /* a remote transaction's (UINT64_MAX: latency_ns) */
	struct uvm_link_point curve[UVM_LINK_CURVE_POINTS]; /* by size; none: flat */
	unsigned ncurve;

	struct uvm_mutex lock; /* guards what follows */
	uint64_t busy_until[2];
	uint64_t bytes[2];	    /* booked so far, per direction (the report's peer links) */
	uvm_link_observer observer; /* traces (NULL: none) */
	void *observer_ctx;
};

/* Resolves the preset and the custom overrides of cfg. */
void uvm_link_init(struct uvm_link *l, const struct uvm_config *cfg);
/* A GPU-GPU link (--peer-link's preset; --link-bw and --link-latency set the
 * CPU-GPU link only). */
void uvm_link_init_peer(struct uvm_link *l, const struct uvm_config *cfg);
void uvm_link_destroy(struct uvm_link *l);
/* Sets (or with NULL removes) the one observer of bookings. */
void uvm_link_observe(struct uvm_link *l, uvm_link_observer fn, void *ctx);
/* The bytes booked so far in each direction (out[UVM_H2D], out[UVM_D2H]). */
void uvm_link_booked_bytes(struct uvm_link *l, uint64_t out[2]);
/* The bandwidth a transfer of `bytes` gets (bytes/s, undilated). */
double uvm_link_bandwidth(const struct uvm_link *l, uint64_t bytes);
/* How long `bytes` occupy one direction at `scale` (0 when unlimited): the
 * share of a booked transfer that a part of it takes. */
uint64_t uvm_link_busy_ns(const struct uvm_link *l, uint64_t bytes, double scale);
/* Books a transfer of `bytes` issued at `now`, at `scale`; returns when it
 * completes. */
uint64_t uvm_link_book(struct uvm_link *l, enum uvm_dir dir, uint64_t bytes, uint64_t now,
		       double scale);
/* The latency a remote (zero-copy) transaction waits, undilated: the
 * preset's or --remote-latency, else the link's per transfer. */
uint64_t uvm_link_remote_latency_ns(const struct uvm_link *l);
/* How long `xacts` remote (zero-copy) transactions moving `bytes` occupy
 * one direction at `scale`: each moves at the rate of its size, and each
 * waits a latency with at most `inflight` of them outstanding, so the
 * direction serves them no faster than inflight per latency. */
uint64_t uvm_link_remote_busy_ns(const struct uvm_link *l, uint64_t bytes, uint64_t xacts,
				 double scale);
/* Books them issued at `now`; returns when the last completes. */
uint64_t uvm_link_book_remote(struct uvm_link *l, enum uvm_dir dir, uint64_t bytes, uint64_t xacts,
			      uint64_t now, double scale);

#endif
