/* SPDX-License-Identifier: MIT */
/*
 * model.h - the model's time: what a GPU would have taken, never what the
 * host took (docs/architecture.md, "Time model").
 *
 * This module is the only one that computes a modelled time. It holds the
 * interconnect (link.h), the dilation D and the modelled latencies; the
 * driver asks it when a batch ends and books its transfers here, thrashing
 * detection and sampling ask it how long a modelled period is, and the
 * executor asks it for D (uvmemu_model_dilation). Real costs are measured
 * with common/timing.h and never added to a modelled time.
 *
 * Two clocks (--clock). The model clock (the default): the GPU's time is
 * computed (gpu.h), nothing waits for the model, and D divides the
 * executor's compute time only. The real clock: modelled costs are waits
 * injected on the host's clock, with every latency multiplied by D and
 * every bandwidth divided by D.
 */
#ifndef UVM_MODEL_H
#define UVM_MODEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "link.h"

struct uvm_model {
	bool computed; /* --clock model: transfers are charged to modelled batches */
	struct uvm_link link; /* the CPU-GPU link */
	/* Several GPUs (--gpus): a GPU-GPU link per pair (--peer-link), pair
	 * (a, b), a < b, at uvm_model_peer_link's index; a -> b books its
	 * H2D direction, b -> a its D2H, each direction a resource. */
	struct uvm_link *peers;
	unsigned ngpus;
	_Atomic double dilation;   /* D: 1 until calibrated; read per faulted block */
	bool fixed_dilation;	   /* --dilation N: a calibration changes nothing */
	uint64_t fault_latency_ns; /* --fault-latency: a batch of far faults, undilated */
	uint64_t uvmmu_latency_ns; /* --uvmmu-latency: UVMMU's hardware migration, undilated */
	uint64_t cpu_fault_latency_ns; /* --cpu-fault-latency: the model clock's CPU faults */
	uint64_t launch_cost_ns;       /* --launch-cost: the host's time per launch */
	uint64_t sample_period_ns; /* --remote-sample-period, undilated */
	/* Nothing can be delayed (no fault latency, an unlimited link): copies
	 * wake their waiters as they land instead of at replay. */
	bool instant;
};

void uvm_model_init(struct uvm_model *m, const struct uvm_config *cfg);
void uvm_model_destroy(struct uvm_model *m);

double uvm_model_dilation(const struct uvm_model *m);
/* --dilation auto: a calibration measured `measured` bytes/s where the
 * target GPU has `target`; D becomes target / measured (at least 1) unless
 * a fixed dilation was asked for. Returns D. */
double uvm_model_calibrate(struct uvm_model *m, double measured, double target);
/* A modelled duration as it passes on the clock in use (real: ns x D;
 * model: ns). */
uint64_t uvm_model_scaled(const struct uvm_model *m, uint64_t ns);
/* How long `bytes` occupy one direction of the link on the clock in use (0
 * when unlimited). */
uint64_t uvm_model_busy_ns(const struct uvm_model *m, uint64_t bytes);
/* Books a transfer issued at `at`; returns when it completes. */
uint64_t uvm_model_transfer(struct uvm_model *m, enum uvm_dir dir, uint64_t bytes, uint64_t at);
/* Books `xacts` remote (zero-copy) transactions moving `bytes`, issued at
 * `at` (link.h's uvm_link_book_remote); returns when the last completes. */
uint64_t uvm_model_transfer_remote(struct uvm_model *m, enum uvm_dir dir, uint64_t bytes,
				   uint64_t xacts, uint64_t at);

/* A batch's modelled time, from its first fault to its last transfer. */
struct uvm_batch_time {
	uint64_t t0;	     /* when the batch began (host clock) */
	uint64_t end;	     /* its modelled end so far: the latest transfer completion */
	uint64_t not_before; /* transfers are issued no earlier (0: now) */
	uint64_t h2d_end;    /* its last host-to-device transfer: completion and size */
	uint64_t h2d_bytes;
	/* The model clock: its transfers, per direction, not booked yet (the
	 * modelled batch that holds its faults books them). */
	uint64_t xfer_bytes[2];
	uint32_t xfers[2];
	/* GPU-GPU transfers not booked yet, on one peer link and direction
	 * (the last booked: a vablock's peer migrations come from one GPU). */
	uint64_t peer_bytes;
	uint32_t peer_xfers;
	unsigned peer_link;
	enum uvm_dir peer_dir;
};

void uvm_model_batch_begin(struct uvm_batch_time *bt, uint64_t t0);
/* Books a transfer of the batch's now; the batch cannot end before it lands.
 * Under the model clock the transfer is noted in bt for the modelled batch
 * to book. */
void uvm_model_book(struct uvm_model *m, struct uvm_batch_time *bt, enum uvm_dir dir,
		    uint64_t bytes);
/* The peer link between GPUs from and to (from != to), and the direction a
 * transfer from -> to books on it. */
unsigned uvm_model_peer_link(const struct uvm_model *m, unsigned from, unsigned to,
			     enum uvm_dir *dir);
/* Books a GPU-GPU transfer of the batch's now, as uvm_model_book does. */
void uvm_model_book_peer(struct uvm_model *m, struct uvm_batch_time *bt, unsigned from, unsigned to,
			 uint64_t bytes);
/* Books a transfer on peer link `link` issued at `at`; returns when it lands. */
uint64_t uvm_model_transfer_peer(struct uvm_model *m, unsigned link, enum uvm_dir dir,
				 uint64_t bytes, uint64_t at);
/* When the far-fault latency of a batch begun at t0 ends (t0 if none). */
uint64_t uvm_model_latency_end(const struct uvm_model *m, uint64_t t0, bool far);
/* When UVMMU's hardware migration latency of a fault read at t0 ends. */
uint64_t uvm_model_uvmmu_end(const struct uvm_model *m, uint64_t t0);
/* When a UVMMU migration's critical page is done: its hardware latency
 * ended at lat_end and its fetch of fetch_bytes completed on the link at
 * fetch_end (no fetch: fetch_bytes 0). The page is sent first, so it is done
 * the time the remaining bytes occupy the link before fetch_end. */
uint64_t uvm_model_critical(const struct uvm_model *m, uint64_t lat_end, uint64_t fetch_end,
			    uint64_t fetch_bytes);
/* The next sampling pass after `now`. */
uint64_t uvm_model_next_sample(const struct uvm_model *m, uint64_t now);

/*
 * Waits on the host's clock until `end` (nothing when it has passed), or
 * until a signal ends the run (abandon.h): how late the wait ended is
 * returned, the host's lateness, not the model's (0 for a wait cut short).
 */
uint64_t uvm_model_wait_until(uint64_t end);

#endif
