/* SPDX-License-Identifier: MIT */
/*
 * progress.h - the progress line on stderr while a run goes on (--progress;
 * by default only when stderr is a terminal): elapsed time, kernels, faults
 * and bytes moved, twice a second, erased before the summary.
 */
#ifndef UVM_PROGRESS_H
#define UVM_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "lock_order.h"
#include "stats.h"

/* What the line shows, read without waiting for anyone (totals may lag). */
struct uvm_progress_src {
	void *ctx;
	void (*totals)(void *ctx, struct uvm_stats *out);
	uint64_t (*kernels)(void *ctx);
	double (*elapsed_s)(void *ctx);
};

struct uvm_progress {
	struct uvm_progress_src src;
	pthread_t thread;
	bool on;
	struct uvm_mutex lock; /* guards stop */
	pthread_cond_t cond;
	bool stop;
};

/* Starts the line's thread when cfg asks for it (nothing otherwise). */
void uvm_progress_start(struct uvm_progress *p, const struct uvm_config *cfg,
			const struct uvm_progress_src *src);
/* Stops it and erases the line (before the summary is printed); idempotent. */
void uvm_progress_stop(struct uvm_progress *p);

#endif
