// SPDX-License-Identifier: MIT
/* mgpu.c - modes, devices and prefetches of the two-GPU workloads (mgpu.h). */
#include "mgpu.h"

#include <string.h>

static const char *const mode_names[] = {"peer", "host", "split"};

void mgpu_setup(const struct wl *w, struct mgpu *m)
{
	const char *arg = m->mode_arg ? m->mode_arg : "peer";
	int last;

	for (m->mode = MGPU_PEER; m->mode <= MGPU_SPLIT; m->mode++)
		if (strcmp(arg, mode_names[m->mode]) == 0)
			break;
	if (m->mode > MGPU_SPLIT)
		wl_usage_error(w, "--mode '%s': accepted values are peer, host, split", arg);
	WL_CHECK(w, cudaGetDeviceCount(&m->count));
	if (m->count < 1)
		wl_usage_error(w, "no device (cudaGetDeviceCount gave %d)", m->count);
	/* GPU "1" is the last device: device 0 itself when there is one. */
	last = m->count - 1;
	m->parts = 1;
	switch (m->mode) {
	case MGPU_PEER:
		m->dev[0] = last;
		wl_log(w,
		       "mode peer: a kernel on GPU %d writes the inputs, GPU %d computes (%d %s)",
		       MGPU_INIT_DEV, last, m->count, m->count == 1 ? "device" : "devices");
		break;
	case MGPU_HOST:
		m->dev[0] = 0;
		wl_log(w, "mode host: the host writes the inputs, GPU 0 computes (%d %s)", m->count,
		       m->count == 1 ? "device" : "devices");
		break;
	case MGPU_SPLIT:
		m->parts = m->count < MGPU_MAX_PARTS ? m->count : MGPU_MAX_PARTS;
		for (int p = 0; p < m->parts; p++)
			m->dev[p] = p;
		if (m->parts == 1)
			wl_log(w, "mode split: the host writes the inputs, GPU 0 computes all of "
				  "the output (1 device)");
		else
			wl_log(w,
			       "mode split: the host writes the inputs, GPUs 0 and 1 compute "
			       "half of the output each (%d devices)",
			       m->count);
		break;
	}
	wl_log(w, "prefetch: %s",
	       m->prefetch ? "each GPU's data to it before it computes"
			   : "none (on-demand migration)");
	uvmemu_report_value("compute_gpus", m->parts);
	uvmemu_report_value("first_compute_gpu", m->dev[0]);
	uvmemu_report_value("prefetch", m->prefetch);
}

void mgpu_part(const struct mgpu *m, int p, int64_t n, int64_t unit, int64_t *lo, int64_t *hi)
{
	const int64_t units = n / unit, each = (units + m->parts - 1) / m->parts * unit;

	*lo = p * each < n ? p * each : n;
	*hi = p + 1 == m->parts || (p + 1) * each > n ? n : (p + 1) * each;
}

void mgpu_set_device(const struct wl *w, int dev)
{
	WL_CHECK(w, cudaSetDevice(dev));
}

void mgpu_prefetch(const struct wl *w, const struct mgpu *m, const void *p, size_t bytes, int dev)
{
	if (m->prefetch && bytes)
		WL_CHECK(w, cudaMemPrefetchAsync(p, bytes, dev, 0));
}

void mgpu_sync(const struct wl *w, const struct mgpu *m)
{
	for (int p = 0; p < m->parts; p++) {
		mgpu_set_device(w, m->dev[p]);
		WL_CHECK(w, cudaDeviceSynchronize());
	}
}

void mgpu_prefetch_done(const struct wl *w, const struct mgpu *m)
{
	if (m->prefetch)
		mgpu_sync(w, m);
}
