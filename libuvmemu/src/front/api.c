// SPDX-License-Identifier: MIT
/* api.c - the uvmemu_* entry points, shared by both runtimes (see rt.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibration.h"
#include "device.h"
#include "rt.h"
#include "uvmemu.h"
#include "uvmemu_options.h"

/* A child forked from a process using the runtime cannot use it (cuda_api.c). */
static bool forked(void)
{
	return atomic_load_explicit(&uvm_rt_session()->forked, memory_order_relaxed);
}

int uvmemu_malloc_managed(void **ptr, size_t size)
{
	if (forked())
		return -ENODEV;
	if (!ptr || size == 0)
		return -EINVAL;
	return uvm_rt_alloc(UVM_PTR_MANAGED, size, ptr);
}

/* Waits for the device to be idle first, as cudaFree does; a kernel's error
 * met on the way stays the last error for cudaGetLastError(). */
int uvmemu_free(void *ptr)
{
	struct uvm_session *s = uvm_rt_session();
	cudaError_t e;

	if (forked())
		return -ENODEV;
	e = uvm_session_device_idle(s, -1);
	if (e == cudaErrorNotSupported)
		return -EDEADLK; /* from inside a kernel: the wait would wait for itself */
	uvm_session_set_error(s, e);
	return uvm_rt_free(UVM_PTR_MANAGED, ptr);
}

void uvmemu_label(const void *p, const char *name)
{
	if (p && name)
		uvm_rt_label(p, name);
}

bool uvmemu_is_managed(const void *p)
{
	return uvm_rt_classify(p) == UVM_PTR_MANAGED;
}

bool uvmemu_has_device_view(const void *p)
{
	enum uvm_ptr_kind k;

	if (!uvm_rt_emulated())
		return false;
	k = uvm_rt_classify(p);
	return k == UVM_PTR_MANAGED || k == UVM_PTR_HOST_PINNED;
}

bool uvmemu_is_emulated(void)
{
	return uvm_rt_emulated();
}

int uvmemu_fault_is_capture(const void *addr)
{
	return uvm_rt_fault_is_capture(addr);
}

void uvmemu_get_view_map(struct uvmemu_view_map *map)
{
	uvm_rt_view_map(map);
}

void *uvmemu_device_ptr(const void *host_ptr)
{
	struct uvmemu_view_map m;

	uvm_rt_view_map(&m);
	return uvmemu_view_to_device(&m, host_ptr);
}

void *uvmemu_host_ptr(const void *device_ptr)
{
	return uvm_rt_host_ptr(device_ptr);
}

const struct uvmemu_gmmu *uvmemu_gmmu_get(void)
{
	return uvm_rt_gmmu();
}

void uvmemu_executor_attach(const struct uvmemu_executor *executor)
{
	atomic_store(&uvm_rt_session()->executor, executor);
}

uint64_t uvmemu_kernel_begin(const struct uvmemu_launch *launch)
{
	struct uvm_session *s = uvm_rt_session();

	return uvm_rt_kernel_begin(launch, atomic_fetch_add(&s->kernels, 1));
}

void uvmemu_kernel_end(uint64_t launch_index)
{
	uvm_rt_kernel_end(launch_index);
}

void uvmemu_cta_begin(uint64_t launch_index, unsigned cta_linear, unsigned sm)
{
	uvm_rt_cta(launch_index, cta_linear, sm, true);
}

void uvmemu_cta_end(uint64_t launch_index, unsigned cta_linear, unsigned sm)
{
	uvm_rt_cta(launch_index, cta_linear, sm, false);
}

const struct uvmemu_slot *uvmemu_worker_register(unsigned sm, unsigned slot)
{
	return uvm_rt_worker_register(sm, slot);
}

void uvmemu_run_begin(uint64_t ncta)
{
	uvm_rt_run(ncta, true);
}

void uvmemu_run_end(uint64_t ran)
{
	uvm_rt_run(ran, false);
}

bool uvmemu_turns(void)
{
	return uvm_rt_turn(UVM_TURN_ASK);
}

void uvmemu_turn_take(void)
{
	uvm_rt_turn(UVM_TURN_TAKE);
}

void uvmemu_turn_pass(void)
{
	uvm_rt_turn(UVM_TURN_PASS);
}

void uvmemu_warp_end(void)
{
	uvm_rt_warp_end(false);
}

void uvmemu_barrier(void)
{
	uvm_rt_warp_end(true);
}

uint64_t uvmemu_launch_begin(void)
{
	return uvm_rt_launch(true, 0);
}

void uvmemu_launch_end(uint64_t host_ns)
{
	uvm_rt_launch(false, host_ns);
}

uint64_t uvmemu_host_time(void)
{
	return uvm_rt_host_time();
}

void uvmemu_executor_overhead(bool begin)
{
	struct uvm_session *s = uvm_rt_session();

	/* A wait for the device's own work (the launching thread's device's
	 * workers start): the host's clock pauses, and goes on from where it
	 * was (nothing is in that device's stream yet). */
	if (s->clock)
		s->clock->device_wait(s->clock->ctx, begin, uvm_front_device());
}

void uvmemu_set_kernel_error(cudaError_t error)
{
	uvm_session_set_error(uvm_rt_session(), error);
}

void uvmemu_executor_lock(enum uvmemu_lock_event event)
{
	if (!UVMEMU_LOCK_CHECK)
		return;
	switch (event) {
	case UVMEMU_LOCK_TAKE:
		uvm_lock_order_acquire(UVM_LOCK_EXECUTOR);
		break;
	case UVMEMU_LOCK_WAIT:
		uvm_lock_order_wait(UVM_LOCK_EXECUTOR);
		break;
	case UVMEMU_LOCK_RELEASE:
		uvm_lock_order_release(UVM_LOCK_EXECUTOR);
		break;
	}
}

void uvmemu_set_calibration(double measured, double target, const char *target_gpu)
{
	struct uvm_session *s = uvm_rt_session();

	uvm_mutex_lock(&s->lock);
	s->calib_measured = measured;
	s->calib_target = target;
	snprintf(s->calib_gpu, sizeof(s->calib_gpu), "%s", target_gpu ? target_gpu : "");
	uvm_mutex_unlock(&s->lock);
	uvm_rt_calibrated();
}

void uvmemu_set_block_cost(double ns)
{
	struct uvm_session *s = uvm_rt_session();

	uvm_mutex_lock(&s->lock);
	if (ns > 0)
		s->calib_block_ns = ns;
	uvm_mutex_unlock(&s->lock);
}

bool uvmemu_calibration_wanted(void)
{
	return uvm_rt_emulated() && uvm_cfg_d(&uvm_rt_session()->cfg, UVM_OPT_dilation) == 0;
}

double uvmemu_dilation(void)
{
	return uvm_rt_dilation();
}

/*
 * The saved bandwidth, where it applies and gives a dilation --dilation
 * itself would accept; 0 otherwise, and `source` says why. A file that is
 * not a calibration or holds such a value is also said on stderr: someone
 * may have written it by hand, or planted it.
 */
static double saved_bandwidth(struct uvm_session *s, const char *build, char *source, size_t len,
			      double *block_ns)
{
	const struct uvm_option_desc *dil = &uvm_options[UVM_OPT_dilation];
	char path[1024], why[512];
	struct uvm_calib c;
	double target;
	int rc;

	rc = uvm_calib_path(uvm_cfg_s(&s->cfg, UVM_OPT_calibration), path, sizeof(path), why,
			    sizeof(why));
	if (rc == -ENOENT) {
		snprintf(source, len, "measured in this run (--calibration none)");
		return 0;
	}
	if (rc) {
		snprintf(source, len, "measured in this run: %.300s", why);
		fprintf(stderr,
			"uvmemu: note: --dilation auto: %s; calibrating in memory (--calibration "
			"FILE names a file)\n",
			why);
		return 0;
	}
	rc = uvm_calib_read(path, build, &c, why, sizeof(why));
	/* The dilation is against device 0's preset (each other device's
	 * kernels scale by its own, model/gpu.c). */
	target = uvm_gpu_preset_bytes_per_s(uvm_cfg_dev_s(&s->cfg, UVM_OPT_gpu, 0));
	if (rc == 0 && target / c.bytes_per_s > dil->max) {
		snprintf(why, sizeof(why),
			 "%.300s: bytes_per_s = %g makes the dilation %g, above --dilation's %.15g",
			 path, c.bytes_per_s, target / c.bytes_per_s, dil->max);
		rc = -ERANGE;
	}
	if (rc) {
		snprintf(source, len, "measured in this run: %.300s%s", why,
			 rc == -ENOENT ? " (uvmemu calibrate writes it)" : "");
		if (rc == -EINVAL || rc == -ERANGE)
			fprintf(stderr,
				"uvmemu: warning: --dilation auto: %s; measuring in this run\n",
				why);
		return 0;
	}
	snprintf(source, len, "%.300s (median of %u runs, %.31s)", path, c.runs, c.date);
	*block_ns = c.block_ns;
	return c.bytes_per_s;
}

double uvmemu_calibration_saved(const char *build)
{
	struct uvm_session *s = uvm_rt_session();
	char source[sizeof(s->calib_source)];
	double bw, block_ns = 0;

	if (!uvm_rt_emulated())
		return 0;
	bw = saved_bandwidth(s, build, source, sizeof(source), &block_ns);
	uvm_mutex_lock(&s->lock);
	memcpy(s->calib_source, source, sizeof(source));
	if (block_ns > 0)
		s->calib_block_ns = block_ns;
	uvm_mutex_unlock(&s->lock);
	return bw;
}

/* An option name that does not exist is a bug in the caller, not a user error. */
static const struct uvm_optval *option(const char *name)
{
	int id = uvm_option_find(name);

	if (id < 0) {
		fprintf(stderr, "uvmemu: internal error: no option named '%s'\n", name);
		abort();
	}
	return &uvm_rt_session()->cfg.v[id];
}

long long uvmemu_option_int(const char *name)
{
	return option(name)->i;
}

double uvmemu_option_double(const char *name)
{
	return option(name)->d;
}

const char *uvmemu_option_str(const char *name)
{
	return option(name)->s;
}

long long uvmemu_opt_int(enum uvmemu_option id)
{
	return uvm_rt_session()->cfg.v[id].i;
}

double uvmemu_opt_double(enum uvmemu_option id)
{
	return uvm_rt_session()->cfg.v[id].d;
}

const char *uvmemu_opt_str(enum uvmemu_option id)
{
	return uvm_rt_session()->cfg.v[id].s;
}

long long uvmemu_opt_dev_int(enum uvmemu_option id, unsigned dev)
{
	return uvm_cfg_dev_i(&uvm_rt_session()->cfg, (enum uvm_opt_id)id, dev);
}

double uvmemu_opt_dev_double(enum uvmemu_option id, unsigned dev)
{
	return uvm_cfg_dev_d(&uvm_rt_session()->cfg, (enum uvm_opt_id)id, dev);
}

const char *uvmemu_opt_dev_str(enum uvmemu_option id, unsigned dev)
{
	return uvm_cfg_dev_s(&uvm_rt_session()->cfg, (enum uvm_opt_id)id, dev);
}

void uvmemu_set_verify(enum uvmemu_verify verdict)
{
	struct uvm_session *s = uvm_rt_session();

	/* A failure is final: a later pass must not hide it. */
	if (atomic_load(&s->verify) != UVMEMU_VERIFY_FAIL)
		atomic_store(&s->verify, (int)verdict);
}

void uvmemu_usage_error(void)
{
	atomic_store(&uvm_rt_session()->usage_error, true);
}

void uvmemu_usage_shown(void)
{
	atomic_store(&uvm_rt_session()->usage_shown, true);
}

void uvmemu_roi_begin(void)
{
	uvm_session_roi_begin(uvm_rt_session());
}

void uvmemu_roi_end(void)
{
	uvm_session_roi_end(uvm_rt_session());
}

void uvmemu_report_value(const char *key, double value)
{
	struct uvm_session *s = uvm_rt_session();
	int i;

	uvm_mutex_lock(&s->lock);
	for (i = 0; i < s->nvalues; i++)
		if (strcmp(s->values[i].key, key) == 0)
			break;
	if (i < UVM_SESSION_VALUES) {
		snprintf(s->values[i].key, sizeof(s->values[i].key), "%s", key);
		s->values[i].value = value;
		if (i == s->nvalues)
			s->nvalues++;
	}
	uvm_mutex_unlock(&s->lock);
}
