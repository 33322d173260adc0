/* SPDX-License-Identifier: MIT */
/* report.h - the end-of-run text summary and JSON report. */
#ifndef UVM_REPORT_H
#define UVM_REPORT_H

#include <stdio.h>

#include "json.h"
#include "session.h"
#include "stats.h"

#define UVM_REPORT_SCHEMA 1

struct uvm_report {
	struct uvm_session *session;
	const char *mode; /* "native" or "emulated" */
	const struct uvm_stats *stats;
	int signal;		   /* the signal that interrupted the run (SIGINT, SIGTERM), or 0 */
	uint64_t device_mem_bytes; /* 0: unlimited */
	/* Optional sections the emulator adds (model, placement, features). */
	void (*json_extra)(void *ctx, struct uvm_json *j);
	void (*text_extra)(void *ctx, FILE *f);
	void *ctx;
};

/* Writes the summary to stderr (unless --summary off) and the JSON file
 * (when --report is set); a report that cannot be written is said on stderr,
 * and a run that would end with status 0 then ends with 1. */
void uvm_report_emit(const struct uvm_report *r);
/* Makes an exit after s's report could not be written end with status 1:
 * called once, before main() (a runtime's constructor). */
void uvm_report_watch_exit(struct uvm_session *s);
void uvm_report_json(const struct uvm_report *r, FILE *f);
void uvm_report_text(const struct uvm_report *r, FILE *f);

#endif
