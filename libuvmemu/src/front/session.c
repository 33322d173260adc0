// SPDX-License-Identifier: MIT
/* session.c - run state common to the native and the emulated runtime. */
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>

#include <fcntl.h>
#include <unistd.h>

/* What each of the region of interest's clocks reads. */
static const clockid_t roi_clock[UVM_ROI_CLOCKS] = {
    [UVM_ROI_WALL] = CLOCK_MONOTONIC,
    [UVM_ROI_CPU] = CLOCK_PROCESS_CPUTIME_ID,
};

/* What the host can back: RAM and swap (the kernel's heuristic overcommit
 * refuses a private mapping larger than that too), or --host-mem. */
static uint64_t host_mem(const struct uvm_config *cfg)
{
	struct sysinfo si;

	if (uvm_cfg_i(cfg, UVM_OPT_host_mem) > 0)
		return (uint64_t)uvm_cfg_i(cfg, UVM_OPT_host_mem);
	if (sysinfo(&si))
		return UINT64_MAX;
	return ((uint64_t)si.totalram + si.totalswap) * si.mem_unit;
}

/* The --report file can be written (checked at start, so that a run does not
 * end with its report lost). */
static int report_writable(const struct uvm_config *cfg, char *err, size_t errlen)
{
	const char *path = uvm_cfg_s(cfg, UVM_OPT_report);
	int fd;

	if (!*path)
		return 0;
	/* Create it only to learn that we can, and leave no file behind; an
	 * existing one is opened without truncating it. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0) {
		close(fd);
		unlink(path);
		return 0;
	}
	/* An existing file may open for writing and refuse every write (as
	 * /proc/version does for root): a write of nothing tells. */
	if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, "", 0) == 0) {
		close(fd);
		return 0;
	}
	if (fd >= 0) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	snprintf(err, errlen, "--report %s: cannot write the report: %s", path, strerror(errno));
	return -EINVAL;
}

void uvm_session_init(struct uvm_session *s, char *const *envp)
{
	char err[UVM_ERRLEN];

	memset(s, 0, sizeof(*s));
	uvm_mutex_init(&s->lock, UVM_LOCK_SESSION);
	uvm_config_defaults(&s->cfg);
	if (uvm_config_from_env(&s->cfg, envp, err, sizeof(err)) ||
	    report_writable(&s->cfg, err, sizeof(err))) {
		fprintf(stderr, "uvmemu: %s\n", err);
		exit(2);
	}
	uvm_config_print_notes(&s->cfg, stderr);
	s->host_mem = host_mem(&s->cfg);
	s->start_ns = uvm_now_ns();
}

void uvm_session_init_cfg(struct uvm_session *s, const struct uvm_config *cfg)
{
	memset(s, 0, sizeof(*s));
	uvm_mutex_init(&s->lock, UVM_LOCK_SESSION);
	s->cfg = *cfg;
	s->host_mem = host_mem(cfg);
	s->start_ns = uvm_now_ns();
}

double uvm_session_wall_s(const struct uvm_session *s)
{
	return (double)(uvm_now_ns() - s->start_ns) / 1e9;
}

void uvm_session_roi_begin(struct uvm_session *s)
{
	uint64_t gpu = s->clock ? s->clock->host_time(s->clock->ctx) : 0;

	uvm_mutex_lock(&s->lock);
	s->roi_marked = true;
	if (s->roi_depth++ == 0) {
		for (int c = 0; c < UVM_ROI_CLOCKS; c++)
			s->roi_start_ns[c] = uvm_clock_ns(roi_clock[c]);
		s->gpu_roi_start_ns = gpu;
	}
	uvm_mutex_unlock(&s->lock);
}

void uvm_session_roi_end(struct uvm_session *s)
{
	uint64_t gpu = 0;

	/* The kernels launched in the region end in it: the model's clock
	 * knows their end once they have run. */
	if (s->clock) {
		uvm_session_device_idle(s, -1);
		gpu = s->clock->host_time(s->clock->ctx);
	}
	uvm_mutex_lock(&s->lock);
	if (s->roi_depth > 0 && --s->roi_depth == 0) {
		for (int c = 0; c < UVM_ROI_CLOCKS; c++)
			s->roi_ns[c] += uvm_clock_ns(roi_clock[c]) - s->roi_start_ns[c];
		if (gpu > s->gpu_roi_start_ns)
			s->gpu_roi_ns += gpu - s->gpu_roi_start_ns;
	}
	uvm_mutex_unlock(&s->lock);
}

double uvm_session_gpu_s(struct uvm_session *s)
{
	uint64_t ns, open = 0;

	if (!s->clock)
		return -1;
	if (s->roi_depth > 0 || !s->roi_marked)
		open = s->clock->host_time(s->clock->ctx);
	uvm_mutex_lock(&s->lock);
	if (!s->roi_marked) {
		uvm_mutex_unlock(&s->lock);
		return (double)open / 1e9;
	}
	ns = s->gpu_roi_ns;
	if (s->roi_depth > 0 && open > s->gpu_roi_start_ns)
		ns += open - s->gpu_roi_start_ns;
	uvm_mutex_unlock(&s->lock);
	return (double)ns / 1e9;
}

const char *uvm_session_gpu_scope(struct uvm_session *s)
{
	bool marked;

	uvm_mutex_lock(&s->lock);
	marked = s->roi_marked;
	uvm_mutex_unlock(&s->lock);
	return marked ? "roi" : "run";
}

double uvm_session_roi_s(struct uvm_session *s, enum uvm_roi_clock c)
{
	uint64_t ns;

	uvm_mutex_lock(&s->lock);
	ns = s->roi_ns[c];
	if (s->roi_depth > 0)
		ns += uvm_clock_ns(roi_clock[c]) - s->roi_start_ns[c];
	uvm_mutex_unlock(&s->lock);
	return (double)ns / 1e9;
}

void uvm_session_add_managed(struct uvm_session *s, int64_t delta)
{
	uint64_t now = atomic_fetch_add(&s->managed_bytes, (uint64_t)delta) + (uint64_t)delta;
	uint64_t peak = atomic_load(&s->footprint_peak);

	while (now > peak && !atomic_compare_exchange_weak(&s->footprint_peak, &peak, now))
		;
}

int uvm_session_charge_host(struct uvm_session *s, int64_t bytes)
{
	/* A touched allocation holds whole 64 KB blocks of frames, the unit of
	 * migration: a 4 KB one holds 64 KB (README). */
	const int64_t unit = UVMEMU_BLOCK_SIZE;
	int64_t delta =
	    bytes >= 0 ? (bytes + unit - 1) / unit * unit : -((-bytes + unit - 1) / unit * unit);
	uint64_t was = atomic_load(&s->host_bytes), now;

	do {
		now = was + (uint64_t)delta;
		if (delta > 0 && (now < was || now > s->host_mem))
			return -ENOMEM;
	} while (!atomic_compare_exchange_weak(&s->host_bytes, &was, now));
	return 0;
}

cudaError_t uvm_session_device_idle(struct uvm_session *s, int device)
{
	const struct uvmemu_executor *ex = atomic_load(&s->executor);
	cudaError_t e;

	if (s->clock)
		s->clock->device_wait(s->clock->ctx, true, device);
	e = ex ? ex->synchronize(device) : cudaSuccess;
	if (s->clock)
		s->clock->device_wait(s->clock->ctx, false, device);
	return e;
}

void uvm_session_gpu_stalled(struct uvm_session *s)
{
	const struct uvmemu_executor *ex = atomic_load(&s->executor);

	if (ex && ex->stalled)
		ex->stalled();
}

void uvm_session_set_error(struct uvm_session *s, cudaError_t e)
{
	if (e != cudaSuccess)
		atomic_store(&s->last_error, (int)e);
}
