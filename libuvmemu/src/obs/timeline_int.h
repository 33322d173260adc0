/* SPDX-License-Identifier: MIT */
/*
 * timeline_int.h - the timeline builder's records, shared by its two files:
 *   timeline.c        collects records within the budget (thinning, drops)
 *   timeline_write.c  lays them out, maps modelled time, writes the JSON
 */
#ifndef UVM_TIMELINE_INT_H
#define UVM_TIMELINE_INT_H

#include "timeline.h"

/* What the budget is shared among; each kind gets a fixed share of it. The
 * model's records (TL_GPU_*) make process 2 under --clock model; kernels
 * serve both processes. */
enum tl_kind {
	TL_BATCH,
	TL_KERNEL,
	TL_TRANSFER,
	TL_THREAD,
	TL_GPU_BATCH,
	TL_GPU_TRANSFER,
	TL_GPU_STALL,
	TL_NKINDS
};

struct tl_kernel {
	uint64_t launch, begin, end;
	bool modelled; /* model_begin and model_end are known */
	uint64_t model_begin, model_end;
	unsigned grid[3], block[3];
	char name[48];
};

struct tl_transfer {
	uint64_t start, end, bytes;
	int dir;   /* the CPU-GPU link's direction */
	bool peer; /* a peer link's booking (--gpus), from GPU `from` to `to` */
	uint8_t from, to;
};

/* A CTA or a fault stall, on a thread's track; or, laying out the model's
 * records, a modelled batch, transfer or slot stall on its track. */
struct tl_slice {
	uint64_t start, end;
	uint64_t launch; /* CTA: its launch; stall: the page; the model's: its record */
	uint32_t track;
	uint32_t cta;	 /* CTA: its linear index */
	uint8_t stall;	 /* 1: a fault stall */
	uint8_t outcome; /* stall: enum uvm_fault_outcome */
	uint8_t gpu;	 /* stall: a far fault (else a CPU fault) */
	uint8_t merged;	 /* stall: batches it spans */
};

/* A thread seen in CTA or fault records. */
struct tl_track {
	uint32_t tid;
	int32_t sm;	 /* -1: not an executor worker */
	uint32_t worker; /* workers: index in order of appearance */
	bool shown;
	bool open; /* a CTA has begun and not ended */
	uint64_t open_begin, open_launch;
	uint32_t open_cta;
};

struct uvm_timeline {
	uint64_t max_events;
	uint64_t budget[TL_NKINDS], used[TL_NKINDS], dropped[TL_NKINDS];
	bool written;

	struct uvm_tl_batch *batch;
	size_t nbatch, capbatch;
	struct tl_kernel *kernel;
	size_t nkernel, capkernel;
	struct tl_transfer *xfer;
	size_t nxfer, capxfer;
	struct tl_slice *slice; /* CTAs and stalls (stalls end at write time) */
	size_t nslice, capslice;

	/* --clock model: the model's records, in modelled time. */
	bool model_clock;
	struct uvm_gpu_batch *gbatch;
	size_t ngbatch, capgbatch;
	struct tl_transfer *gxfer;
	size_t ngxfer, capgxfer;
	struct tl_slice *gstall; /* track: the CTA slot */
	size_t ngstall, capgstall;

	struct tl_track *track;
	size_t ntrack, captrack;
	uint32_t *hash; /* tid -> track index + 1, open addressing; 0 = empty */
	size_t hashcap;
	uint32_t nworkers, stride; /* worker tracks shown: index % stride == 0 */

	struct uvm_tl_counts counts; /* filled by the writer */
};

/* Events a batch row turns into: its slice, its stages' slices, two counters. */
uint64_t tl_batch_events(const struct uvm_tl_batch *b);

#endif
