// SPDX-License-Identifier: MIT
/*
 * cupti.c - CUPTI's Unified Memory counters on a real GPU: bytes migrated
 * each way, GPU page-fault groups, CPU page faults, and the bytes of
 * explicit copies, over the whole run and inside the region of interest.
 *
 * libcupti is loaded at run time (dlopen), not linked: a machine with the
 * driver but not the toolkit's CUPTI still runs the program, with CUDA
 * events only, and the report says why. The library is UVMC_CUPTI_LIB,
 * else libcupti.so.MAJOR from the loader's search path, else the toolkit's
 * usual places. CUDA 13's record layouts are read; their first fields (kind,
 * counter kind, value, start; copy kind, bytes, start) have kept their
 * places across CUPTI's record versions.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <cupti.h>

#include "cudart.h"

#ifndef UVMC_CUPTI_SONAME
#define UVMC_CUPTI_SONAME "libcupti.so"
#endif
#ifndef UVMC_CUDA_LIBDIR
#define UVMC_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

#define BUFFER_BYTES (8u << 20)

static struct {
	CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc,
					  CUpti_BuffersCallbackCompleteFunc);
	CUptiResult (*configure_um)(CUpti_ActivityUnifiedMemoryCounterConfig *, uint32_t);
	CUptiResult (*enable)(CUpti_ActivityKind);
	CUptiResult (*flush_all)(uint32_t);
	CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
	CUptiResult (*timestamp)(uint64_t *);
	CUptiResult (*result_string)(CUptiResult, const char **);
	CUptiResult (*dropped)(CUcontext, uint32_t, size_t *);
} api;

static const char *loaded;
static bool running;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct uvmc_counters run_c, roi_c;
static uint64_t roi_from = UINT64_MAX, roi_to = UINT64_MAX, dropped_records;
static char why[256];

static void *open_lib(const char *lib)
{
	static const char *const dirs[] = {UVMC_CUDA_LIBDIR, "/usr/local/cuda/extras/CUPTI/lib64",
					   "/usr/local/cuda/lib64",
					   "/usr/local/cuda/targets/x86_64-linux/lib"};
	static char path[512];
	void *h;

	if (lib) {
		loaded = lib;
		return dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	}
	loaded = UVMC_CUPTI_SONAME;
	h = dlopen(UVMC_CUPTI_SONAME, RTLD_NOW | RTLD_LOCAL);
	for (size_t i = 0; !h && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], UVMC_CUPTI_SONAME);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (h)
			loaded = path;
	}
	return h;
}

static void tally(struct uvmc_counters *c, const CUpti_Activity *r)
{
	if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
		const CUpti_ActivityMemcpy6 *m = (const void *)r;

		if (m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD)
			c->memcpy_bytes_h2d += m->bytes;
		else if (m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
			c->memcpy_bytes_d2h += m->bytes;
		return;
	}
	const CUpti_ActivityUnifiedMemoryCounter3 *u = (const void *)r;

	switch (u->counterKind) {
	case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
		c->bytes_h2d += u->value;
		break;
	case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
		c->bytes_d2h += u->value;
		break;
	case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
		/* One record per faulting page; its value is how many fault
		 * groups the page was in. */
		c->gpu_fault_records++;
		c->gpu_fault_groups += u->value;
		break;
	case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT:
		c->cpu_faults++;
		break;
	default:
		break;
	}
}

static uint64_t start_of(const CUpti_Activity *r)
{
	if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY)
		return ((const CUpti_ActivityMemcpy6 *)(const void *)r)->start;
	return ((const CUpti_ActivityUnifiedMemoryCounter3 *)(const void *)r)->start;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*buffer = aligned_alloc(8, BUFFER_BYTES);
	*size = *buffer ? BUFFER_BYTES : 0;
	*max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				      size_t valid)
{
	CUpti_Activity *r = NULL;

	(void)ctx;
	(void)stream;
	(void)size;
	pthread_mutex_lock(&lock);
	while (api.next_record(buffer, valid, &r) == CUPTI_SUCCESS) {
		uint64_t t = start_of(r);

		tally(&run_c, r);
		if (t >= roi_from && t <= roi_to)
			tally(&roi_c, r);
	}
	pthread_mutex_unlock(&lock);
	free(buffer);
}

#define LOAD(field, symbol)                                                                        \
	do {                                                                                       \
		*(void **)&api.field = dlsym(h, symbol);                                           \
		if (!api.field) {                                                                  \
			snprintf(why, sizeof(why), "absent: %s has no %s", loaded, symbol);        \
			return why;                                                                \
		}                                                                                  \
	} while (0)

static const char *failed(const char *what, CUptiResult rc)
{
	const char *s = "unknown error";

	api.result_string(rc, &s);
	snprintf(why, sizeof(why), "absent: %s: %s", what, s);
	return why;
}

const char *uvmc_cupti_load(const char *lib)
{
	void *h = open_lib(lib);

	if (!h) {
		snprintf(why, sizeof(why), "absent: cannot load %s (%s); CUDA events only", loaded,
			 dlerror());
		loaded = NULL;
		return why;
	}
	LOAD(register_callbacks, "cuptiActivityRegisterCallbacks");
	LOAD(configure_um, "cuptiActivityConfigureUnifiedMemoryCounter");
	LOAD(enable, "cuptiActivityEnable");
	LOAD(flush_all, "cuptiActivityFlushAll");
	LOAD(next_record, "cuptiActivityGetNextRecord");
	LOAD(timestamp, "cuptiGetTimestamp");
	LOAD(result_string, "cuptiGetResultString");
	LOAD(dropped, "cuptiActivityGetNumDroppedRecords");
	return NULL;
}

const char *uvmc_cupti_enable(void)
{
	static const CUpti_ActivityUnifiedMemoryCounterKind kinds[] = {
	    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
	    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
	    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
	    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
	};
	CUpti_ActivityUnifiedMemoryCounterConfig cfg[sizeof(kinds) / sizeof(kinds[0])];
	CUptiResult rc;
	int n;

	/* The counters are configured once the driver is up. */
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		snprintf(why, sizeof(why), "absent: no GPU");
		return why;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		cfg[i] = (CUpti_ActivityUnifiedMemoryCounterConfig){
		    .scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE,
		    .kind = kinds[i],
		    .deviceId = 0,
		    .enable = 1};
	rc = api.register_callbacks(buffer_requested, buffer_completed);
	if (rc != CUPTI_SUCCESS)
		return failed("cuptiActivityRegisterCallbacks", rc);
	rc = api.configure_um(cfg, sizeof(cfg) / sizeof(cfg[0]));
	if (rc != CUPTI_SUCCESS)
		return failed("Unified Memory counters", rc);
	rc = api.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
	if (rc != CUPTI_SUCCESS)
		return failed("Unified Memory counter records", rc);
	rc = api.enable(CUPTI_ACTIVITY_KIND_MEMCPY);
	if (rc != CUPTI_SUCCESS)
		return failed("copy records", rc);
	running = true;
	return NULL;
}

void uvmc_cupti_roi(bool begin)
{
	uint64_t t;

	if (!running || api.timestamp(&t) != CUPTI_SUCCESS)
		return;
	pthread_mutex_lock(&lock);
	if (begin && roi_from == UINT64_MAX)
		roi_from = t;
	else if (!begin)
		roi_to = t;
	pthread_mutex_unlock(&lock);
}

void uvmc_cupti_finish(struct uvmc_counters *run, struct uvmc_counters *roi, uint64_t *dropped)
{
	size_t n = 0;

	if (running) {
		api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
		if (api.dropped(NULL, 0, &n) == CUPTI_SUCCESS)
			dropped_records = n;
	}
	pthread_mutex_lock(&lock);
	*run = run_c;
	*roi = roi_c;
	*dropped = dropped_records;
	pthread_mutex_unlock(&lock);
}

const char *uvmc_cupti_path(void)
{
	return running ? loaded : NULL;
}
