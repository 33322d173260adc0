// SPDX-License-Identifier: MIT
/* progress.c - the progress line's thread. */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "units.h"

static bool wanted(const struct uvm_config *cfg)
{
	switch ((enum uvm_progress_choice)uvm_cfg_i(cfg, UVM_OPT_progress)) {
	case UVM_PROGRESS_AUTO:
		return isatty(STDERR_FILENO);
	case UVM_PROGRESS_ON:
		return true;
	case UVM_PROGRESS_OFF:
		break;
	}
	return false;
}

static void *progress_main(void *arg)
{
	struct uvm_progress *p = arg;
	const struct uvm_progress_src *src = &p->src;
	bool shown = false;

	pthread_setname_np(pthread_self(), "uvmemu-progress");
	uvm_mutex_lock(&p->lock);
	while (!p->stop) {
		struct timespec ts;
		struct uvm_stats st;
		char moved[32];

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 500000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		uvm_cond_timedwait(&p->cond, &p->lock, &ts);
		if (p->stop || src->elapsed_s(src->ctx) < 1)
			continue;
		uvm_mutex_unlock(&p->lock);
		src->totals(src->ctx, &st);
		fprintf(stderr, "\r[uvmemu %.0fs] %llu kernels, %llu faults, %s moved   ",
			src->elapsed_s(src->ctx), (unsigned long long)src->kernels(src->ctx),
			(unsigned long long)(st.gpu_faults + st.cpu_faults),
			uvm_fmt_size(moved, sizeof(moved), st.bytes_h2d + st.bytes_d2h));
		shown = true;
		uvm_mutex_lock(&p->lock);
	}
	uvm_mutex_unlock(&p->lock);
	if (shown)
		fputs("\r\033[K", stderr);
	return NULL;
}

void uvm_progress_start(struct uvm_progress *p, const struct uvm_config *cfg,
			const struct uvm_progress_src *src)
{
	p->src = *src;
	uvm_mutex_init(&p->lock, UVM_LOCK_PROGRESS);
	pthread_cond_init(&p->cond, NULL);
	p->on = wanted(cfg) && pthread_create(&p->thread, NULL, progress_main, p) == 0;
}

void uvm_progress_stop(struct uvm_progress *p)
{
	if (!p->on)
		return;
	uvm_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->cond);
	uvm_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->on = false;
}
