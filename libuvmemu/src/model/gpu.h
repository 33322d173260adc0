/* SPDX-License-Identifier: MIT */
/*
 * gpu.h - the GPU's time under --clock model (docs/architecture.md, "Time
 * model"): computed, never waited for.
 *
 * Each GPU (--gpus N: devices 0..N-1) has SMs x CTAs per SM resident CTA
 * slots, each with a modelled clock, and its own stream: a kernel begins
 * after its own device's earlier work only, so kernels of two GPUs overlap
 * in modelled time as they do on a machine with two GPUs. A hand-out of
 * CTAs an executor worker runs takes its GPU's slot free earliest; its
 * CTAs advance that clock by the CPU time the worker spent in kernel code,
 * times the slots per core and divided by the dilation D (a hand-out that
 * never faulted is spread over the free slots, as the GPU would have run
 * its CTAs side by side). A far fault enters its GPU's modelled fault
 * buffer stamped with its warp's issue time; the warp's lanes go on
 * at once (the real fault is resolved as it comes), so do the CTA's next
 * warps (a GPU interleaves them: one warp's stall hides behind the others'
 * compute), and the slot stalls only at the thread loop's end (a barrier,
 * or the CTA's), until the latest modelled completion among its faults.
 * Batches form in modelled time (batcher.h) and cost the far-fault latency
 * and their transfers on the link, booked in modelled time. The host runs
 * at the host's real speed between the calls whose time is the model's
 * (explicit copies, synchronizing), and a synchronize joins its clock and
 * the stream's.
 *
 * Synchronisation is conservative: a batch starting at t is closed only
 * when no slot of any GPU can still deliver a fault stamped before t (each
 * running slot's clock has passed t, or it waits at a warp's end), so a
 * batch holds exactly what a GPU's buffer would have held. Each GPU has its
 * own fault buffer and a batch holds one GPU's faults (the real driver
 * reads one GPU's buffer per batch); the one driver services the batches
 * one after another, the one that can start earliest first, so the rule
 * spans every GPU's slots: another GPU's earlier fault would have been the
 * driver's next batch. Nothing here sleeps for the
 * model; a worker waits, in real time, only for a batch its fault is in to
 * be formed.
 *
 * Threads: workers call run_begin/run_end/warp_end; the driver thread calls
 * fault_*, claim and step; the launching thread kernel_*; the host's
 * threads the host_* calls. One mutex (lock order "GPU clock") guards it.
 */
#ifndef UVM_GPU_H
#define UVM_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "link.h"
#include "uvmemu.h"

struct uvm_model;
struct uvm_gpu;

/* One GPU's share of the figures below (--gpus N > 1 reports them). */
struct uvm_gpu_dev_figures {
	uint64_t kernels, kernel_ns; /* its launches and their modelled durations */
	uint64_t batches, faults;    /* batches of its fault buffer, faults they held */
	uint64_t batch_ns;	     /* their modelled time */
	uint64_t stream_end_ns;	     /* when its stream's last work ended, modelled */
};

/* What the report shows of the modelled GPUs (sums over the GPUs; the
 * stream's end is the latest GPU's). */
struct uvm_gpu_figures {
	uint64_t batches;	   /* modelled batches */
	uint64_t faults;	   /* far faults they held */
	uint64_t vablocks;	   /* vablocks they held, summed over batches */
	uint64_t pages;		   /* distinct pages, summed over batches */
	uint64_t max_faults;	   /* the fullest batch */
	uint64_t free_faults;	   /* real faults on pages already there in modelled time */
	/* Accesses (GMMU accessors) to blocks the real driver had mapped before
	 * the slot's modelled time reached their arrival: faults on a GPU. */
	uint64_t late_hits;
	/* Late hits on a page whose fault from the same SM was pending: they
	 * wait for it without a fault of their own (the SM's TLB coalesces). */
	uint64_t late_joins;
	uint64_t batch_ns;	   /* batches' modelled time, summed */
	uint64_t stall_ns;	   /* warps' stalls on far faults, summed over slots */
	uint64_t remote_bytes;	   /* remote (zero-copy) traffic booked on the link */
	uint64_t remote_stall_ns;  /* slots' stalls for it, summed */
	uint64_t compute_ns;	   /* CTAs' compute, summed over slots */
	uint64_t kernels;	   /* launches */
	uint64_t kernel_ns;	   /* their modelled durations, summed */
	uint64_t bytes_h2d;	   /* charged to batches */
	uint64_t bytes_d2h;	   /* charged to batches */
	uint64_t bytes_p2p;	   /* GPU-GPU, charged to batches (--gpus) */
	uint64_t horizon_waits;	   /* steps that found a slot that could still fault earlier */
	uint64_t stream_end_ns;	   /* when the last kernel or prefetch ended, modelled */
	uint64_t host_faults;	   /* batches of the host's faults */
	uint64_t host_fault_bytes; /* moved for them */
	uint64_t host_fault_ns;	   /* what they cost the host, modelled */
	/* Far faults of threads in no modelled hand-out (an executor that does
	 * not register its workers, or code outside a kernel): in no batch. */
	uint64_t unmodelled_faults;
	unsigned ndev; /* GPUs, each with its figures in dev[] */
	struct uvm_gpu_dev_figures dev[UVMEMU_MAX_DEVICES];
};

/* A real fault of a worker, stamped at the driver's read, committed once
 * its outcome is known (a fault the emulator alone takes is dropped). */
struct uvm_gpu_stamp {
	int32_t slot;	/* the worker's record (-1: not a worker in a hand-out) */
	uint64_t stamp; /* its warp's issue time, modelled */
};

int uvm_gpu_create(struct uvm_gpu **out, struct uvm_model *m, const struct uvm_config *cfg,
		   size_t nblocks, char *err, size_t errlen);
void uvm_gpu_destroy(struct uvm_gpu *g);
/* What a far fault costs the faulting thread in CPU time on this machine
 * (mm/fault_cost.h), and the machine's first touch of the block it mapped
 * (obs/map_touch.h, the excess over a second touch): neither is kernel
 * code, so both are taken off each worker's compute per fault it takes,
 * with the cost of reading its CPU clock, measured here. */
void uvm_gpu_set_costs(struct uvm_gpu *g, double fault_cpu_us, double map_touch_us);
/* --compute blocks: a worker's compute is the basic blocks of kernel code it
 * ran (common/blocks_run.h) at block_ns of CPU time each, not its CPU time
 * (0: back to CPU time). Set before the first kernel. */
void uvm_gpu_set_block_cost(struct uvm_gpu *g, double block_ns);
double uvm_gpu_block_cost(const struct uvm_gpu *g);

/* --------------------------------------------------- executor's workers */

/* The calling thread is a worker of GPU `dev`'s SM `sm`; the executor
 * keeps the returned word and calls uvm_gpu_warp_end when it is set at a
 * warp's end. */
const struct uvmemu_slot *uvm_gpu_register(struct uvm_gpu *g, unsigned dev, unsigned sm);
/* The calling worker starts (ends) a hand-out of ncta CTAs of the running
 * kernel (ends after `ran` of them). */
void uvm_gpu_run_begin(struct uvm_gpu *g, uint64_t ncta);
void uvm_gpu_run_end(struct uvm_gpu *g, uint64_t ran);
/* The calling worker's warp ended with a far fault: its slot goes on (the
 * CTA's other warps hide the stall); its faults are waited for at the
 * loop's end. */
void uvm_gpu_warp_end(struct uvm_gpu *g);
/* The calling worker's thread loop ended (a barrier) after warps that
 * faulted: waits, in real time, until their batches are formed; its clock
 * jumps to the latest completion among them. Once a signal is ending the
 * run (abandon.h) it waits no more. */
void uvm_gpu_barrier(struct uvm_gpu *g);
/* A signal is ending the run (uvm_waits_abandoned() holds): the workers
 * waiting at their loops' ends go on now, as the real clock's waits end. */
void uvm_gpu_abandon(struct uvm_gpu *g);

/*
 * --schedule model (turns.c): the workers run kernel code one at a time,
 * the one earliest in modelled time first. uvm_gpu_turn_take: the calling
 * worker waits until the turn is its to start a hand-out, or its GPU has
 * no CTA left to start (false at once when not in turns); one that then
 * finds no CTA passes the turn on (uvm_gpu_turn_pass). The turn passes on
 * by itself at a hand-out's end and at a loop's end whose warps faulted.
 */
bool uvm_gpu_turns(struct uvm_gpu *g);
bool uvm_gpu_turn_take(struct uvm_gpu *g);
void uvm_gpu_turn_pass(struct uvm_gpu *g);

/* The calling worker read or wrote `bytes` of host memory remotely over
 * the link in `xacts` transactions (GMMU accessors): booked from its
 * modelled time (link.h's uvm_link_book_remote), its slot stalls until they
 * land. */
void uvm_gpu_remote(struct uvm_gpu *g, enum uvm_dir dir, uint64_t bytes, uint64_t xacts);

/* ------------------------------------------------------------- kernels */

/* A kernel of ncta CTAs begins on GPU `dev`'s `slots` CTA slots, after
 * that GPU's earlier stream work; the executor runs it on `cores` cores
 * (what D was measured with). host_ns: the host's modelled time when the
 * program launched it. One kernel runs per GPU at a time. */
void uvm_gpu_kernel_begin(struct uvm_gpu *g, unsigned dev, uint64_t ncta, unsigned slots,
			  unsigned cores, uint64_t host_ns);
/* GPU dev's kernel ended: returns its modelled begin and end. */
void uvm_gpu_kernel_end(struct uvm_gpu *g, unsigned dev, uint64_t *begin, uint64_t *end);

/* --------------------------------------------------------------- host */

/* The host's modelled time now. */
uint64_t uvm_gpu_host_now(struct uvm_gpu *g);
/* A runtime call whose time is the model's (an explicit copy, a fault of a
 * host thread) starts; returns the host's time then. */
uint64_t uvm_gpu_host_pause(struct uvm_gpu *g);
/* It ended at modelled time `at`: the real time since the pause does not
 * count, the host goes on from `at`. */
void uvm_gpu_host_resume(struct uvm_gpu *g, uint64_t at);
/* After a wait for GPU dev (-1: every GPU): the host goes on from the
 * later of its own time and that stream's end (the latest of them). */
void uvm_gpu_join(struct uvm_gpu *g, int dev);
/* Stream work that is no kernel (a prefetch) on GPU dev's stream, issued
 * by the host at its modelled time `at`: transfers per direction
 * (bytes[dir] in xfers[dir]), after that stream's earlier work. */
void uvm_gpu_stream_transfers(struct uvm_gpu *g, unsigned dev, uint64_t at, const uint64_t bytes[2],
			      const uint32_t xfers[2]);

/* A batch of the host's faults, read at the host's modelled time `at`, was
 * serviced and moved bytes[dir] in xfers[dir] transfers: the host goes on
 * from the model's CPU-fault cost after `at`, then the transfers booked on
 * the link (the real time the service took is the emulator's). */
void uvm_gpu_host_fault(struct uvm_gpu *g, uint64_t at, const uint64_t bytes[2],
			const uint32_t xfers[2]);

/* -------------------------------------------------------------- driver */

/* A fault message of thread tid read now (its thread is blocked in it). */
struct uvm_gpu_stamp uvm_gpu_stamp(struct uvm_gpu *g, uint32_t tid);
/* Its outcome is known, a far fault on `page` (block `block`): it enters the
 * modelled buffer, unless the block was already there in modelled time when
 * the warp issued (another slot's fault brought it). fresh: its real service
 * moved or mapped the block now (it is not there before the first batch
 * holding a fault on it ends). not_before: thrashing throttled it, its warp
 * goes on no earlier (0: none). Before its thread is woken; faults the
 * emulator alone takes (sampled, probe, refreshed) are not committed. */
void uvm_gpu_commit(struct uvm_gpu *g, struct uvm_gpu_stamp s, uint64_t page, bool fresh,
		    uint64_t not_before);
/*
 * An accessor of the calling worker touched `page`, mapped on the device,
 * whose block's arrival (uvm_gpu_arrivals) is later than the slot's
 * published clock: if it is later than the slot's time now too, the access
 * is a fault in modelled time (a late hit) and enters the buffer as the
 * warp's (or waits for its SM's pending fault on the page); its thread goes
 * on, and waits at the loop's end as for a fault. Returns whether it will.
 */
bool uvm_gpu_late(struct uvm_gpu *g, uint64_t page);
/* Blocks [first, first + n), other than `lead`, came with the service of a
 * fault on block `lead`: they arrive when its transfers do. */
void uvm_gpu_follow(struct uvm_gpu *g, uint64_t lead, uint64_t first, uint64_t n);
/* Per block, when it is on the device in modelled time: 0 long since, else
 * a time, or a value above every clock while it is on its way. */
const _Atomic uint64_t *uvm_gpu_arrivals(const struct uvm_gpu *g);
/* The transfers a real service made for a fault on `block` (prefetches and
 * the evictions that made room included): charged to the first modelled
 * batch that holds a fault on it. */
void uvm_gpu_claim(struct uvm_gpu *g, uint64_t block, uint64_t h2d_bytes, uint32_t h2d_xfers,
		   uint64_t d2h_bytes, uint32_t d2h_xfers);
/* The GPU-GPU transfers of that service, on peer link `link` (model.h). */
void uvm_gpu_claim_peer(struct uvm_gpu *g, uint64_t block, unsigned link, enum uvm_dir dir,
			uint64_t bytes, uint32_t xfers);
/* Forms the batches that may be formed; returns how many faults remain
 * pending (the driver tries again on its doorbell or soon). */
size_t uvm_gpu_step(struct uvm_gpu *g);
/* Rung when a step may form a batch it could not before. */
int uvm_gpu_doorbell(const struct uvm_gpu *g);
/* The GPU's modelled time now: the driver's free time (for work between
 * batches: sampling, counter scans). */
uint64_t uvm_gpu_now(struct uvm_gpu *g);
/* The model's time for periodic work and thrashing lapses: while a kernel
 * runs, how far the GPU has got (the latest of its running slots' clocks,
 * its batches' and its stream's ends); between kernels the host's time. */
uint64_t uvm_gpu_progress(struct uvm_gpu *g);

/* Transfers no fault waits for (sampling, counter migrations, shrinking):
 * booked on the link from the GPU's time now. */
void uvm_gpu_background(struct uvm_gpu *g, const uint64_t bytes[2], const uint32_t xfers[2]);

void uvm_gpu_figures(struct uvm_gpu *g, struct uvm_gpu_figures *out);

/* ------------------------------------------------------------ observer */

/* A modelled batch as it formed (times modelled, ns). */
struct uvm_gpu_batch {
	uint64_t seq; /* its number, from 1 (the report's gpu.batches counts them) */
	unsigned gpu; /* whose fault buffer it read */
	uint64_t start_ns, end_ns;
	uint32_t faults, vablocks, pages; /* distinct vablocks and pages */
	uint64_t h2d_bytes, d2h_bytes;	  /* the transfers charged to it */
};

/*
 * Told what the model computes, for traces (the model's transfers are the
 * link's bookings: link.h's observer). Either callback may be NULL. Both are
 * called with the GPU clock's lock held: an observer may take only locks
 * later in the order (the trace queue's) and must not call the GPU back.
 */
struct uvm_gpu_observer {
	void *ctx;
	void (*batch)(void *ctx, const struct uvm_gpu_batch *b);
	/* Modelled CTA slot `slot` (of its GPU) stalled on its far faults from `from` to
	 * `to` (a thread loop's end waited for its warps' batches). */
	void (*stall)(void *ctx, unsigned slot, uint64_t from, uint64_t to);
};

/* Sets (NULL: removes) the one observer. */
void uvm_gpu_set_observer(struct uvm_gpu *g, const struct uvm_gpu_observer *o);

#endif
