// SPDX-License-Identifier: MIT
/*
 * report.c - what a program built for a real GPU says at exit: a summary
 * line on stderr, as the emulator prints one, and with UVMEMU_REPORT=FILE a
 * JSON report whose names are the emulator's report's where they mean the
 * same (verify, roi_s, kernels, bytes_h2d, bytes_d2h, memcpy_bytes_h2d,
 * memcpy_bytes_d2h, cpu_faults, workload), so that bench/gpu/validate reads
 * both alike.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cudart.h"
#include "json.h"

struct gpu {
	char name[256];
	int driver, runtime;
	unsigned sms;
};

static void query_gpu(struct gpu *g)
{
	struct cudaDeviceProp p;
	int dev = 0;

	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "unknown");
	cudaDriverGetVersion(&g->driver);
	cudaRuntimeGetVersion(&g->runtime);
	if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&p, dev) == cudaSuccess) {
		snprintf(g->name, sizeof(g->name), "%s", p.name);
		g->sms = (unsigned)p.multiProcessorCount;
	}
}

static const char *verdict(enum uvmemu_verify v)
{
	return v == UVMEMU_VERIFY_PASS ? "pass" : v == UVMEMU_VERIFY_FAIL ? "fail" : "none";
}

static void counters(struct uvm_json *j, const struct uvmc_counters *c)
{
	uvm_json_u64(j, "bytes_h2d", c->bytes_h2d);
	uvm_json_u64(j, "bytes_d2h", c->bytes_d2h);
	uvm_json_u64(j, "memcpy_bytes_h2d", c->memcpy_bytes_h2d);
	uvm_json_u64(j, "memcpy_bytes_d2h", c->memcpy_bytes_d2h);
	uvm_json_u64(j, "gpu_fault_groups", c->gpu_fault_groups);
	uvm_json_u64(j, "gpu_fault_records", c->gpu_fault_records);
	uvm_json_u64(j, "cpu_faults", c->cpu_faults);
}

static void write_json(FILE *f, const struct uvmc_run *r, const struct gpu *g, double kernel_s,
		       const struct uvmc_counters *all, const struct uvmc_counters *roi,
		       uint64_t dropped)
{
	struct uvm_json j;

	uvm_json_begin(&j, f);
	uvm_json_u64(&j, "schema", 1);
	uvm_json_str(&j, "mode", "cuda");
	uvm_json_str(&j, "program", program_invocation_short_name);
	uvm_json_str(&j, "verify", verdict(r->verify));
	uvm_json_str(&j, "device", g->name);
	uvm_json_u64(&j, "sms", g->sms);
	uvm_json_i64(&j, "driver_version", g->driver);
	uvm_json_i64(&j, "runtime_version", g->runtime);
	uvm_json_num(&j, "wall_s", uvmc_now_s() - r->wall_start_s);
	uvm_json_num(&j, "roi_s", r->roi_s);
	uvm_json_u64(&j, "kernels", uvmc_kernel_count());
	uvm_json_num(&j, "kernel_s", kernel_s);
	uvm_json_u64(&j, "managed_peak_bytes", uvmc_managed_peak());
	uvm_json_str(&j, "cupti", r->cupti_why ? r->cupti_why : "on");
	if (uvmc_cupti_path())
		uvm_json_str(&j, "cupti_lib", uvmc_cupti_path());
	if (!r->cupti_why) {
		counters(&j, all);
		uvm_json_u64(&j, "dropped_records", dropped);
		uvm_json_object(&j, "roi");
		counters(&j, roi);
		uvm_json_close(&j, '}');
	}
	uvm_json_object(&j, "workload");
	for (unsigned i = 0; i < r->nvalues; i++)
		uvm_json_num(&j, r->values[i].key, r->values[i].value);
	uvm_json_close(&j, '}');
	uvm_json_end(&j);
}

void uvmc_report(const struct uvmc_run *r)
{
	struct uvmc_counters all = {0}, roi = {0};
	uint64_t dropped = 0;
	double kernel_s = uvmc_kernel_seconds();
	struct gpu g;
	FILE *f;

	uvmc_cupti_finish(&all, &roi, &dropped);
	query_gpu(&g);
	if (r->summary) {
		fprintf(stderr,
			"uvmemu: %s (CUDA, %s): verify %s, roi %.3f ms, %llu kernels %.3f ms\n",
			program_invocation_short_name, g.name, verdict(r->verify), r->roi_s * 1e3,
			(unsigned long long)uvmc_kernel_count(), kernel_s * 1e3);
		if (r->cupti_why)
			fprintf(stderr, "  cupti   %s\n", r->cupti_why);
		else
			fprintf(stderr,
				"  moved   h2d %llu B, d2h %llu B (memcpy h2d %llu B, d2h %llu B)\n"
				"  faults  gpu %llu groups on %llu pages, cpu %llu\n",
				(unsigned long long)all.bytes_h2d,
				(unsigned long long)all.bytes_d2h,
				(unsigned long long)all.memcpy_bytes_h2d,
				(unsigned long long)all.memcpy_bytes_d2h,
				(unsigned long long)all.gpu_fault_groups,
				(unsigned long long)all.gpu_fault_records,
				(unsigned long long)all.cpu_faults);
	}
	if (!r->report_path)
		return;
	f = fopen(r->report_path, "w");
	if (!f) {
		fprintf(stderr, "uvmemu: cannot write the report %s: %s\n", r->report_path,
			strerror(errno));
		return;
	}
	write_json(f, r, &g, kernel_s, &all, &roi, dropped);
	if (fclose(f))
		fprintf(stderr, "uvmemu: cannot write the report %s: %s\n", r->report_path,
			strerror(errno));
}
